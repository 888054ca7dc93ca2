// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/Framework.h"

namespace scalelab {

QString frameworkId(Framework f)
{
    switch (f) {
    case Framework::PytorchDdp:
        return QStringLiteral("pytorch-ddp");
    case Framework::DeepSpeed:
        return QStringLiteral("deepspeed");
    case Framework::Horovod:
        return QStringLiteral("horovod");
    case Framework::TfMirrored:
        return QStringLiteral("tf-mirrored");
    case Framework::TfMultiWorker:
        return QStringLiteral("tf-multiworker");
    case Framework::DataParallel:
        return QStringLiteral("dataparallel");
    case Framework::Lightning:
        return QStringLiteral("lightning");
    case Framework::Jax:
        return QStringLiteral("jax");
    }
    return {};
}

QString frameworkName(Framework f)
{
    switch (f) {
    case Framework::PytorchDdp:
        return QStringLiteral("PyTorch DDP");
    case Framework::DeepSpeed:
        return QStringLiteral("DeepSpeed");
    case Framework::Horovod:
        return QStringLiteral("Horovod");
    case Framework::TfMirrored:
        return QStringLiteral("TensorFlow MirroredStrategy");
    case Framework::TfMultiWorker:
        return QStringLiteral("TensorFlow MultiWorkerMirroredStrategy");
    case Framework::DataParallel:
        return QStringLiteral("PyTorch DataParallel");
    case Framework::Lightning:
        return QStringLiteral("PyTorch Lightning");
    case Framework::Jax:
        return QStringLiteral("JAX");
    }
    return {};
}

QList<Framework> allFrameworks()
{
    return {Framework::PytorchDdp,    Framework::DeepSpeed,    Framework::Horovod,   Framework::TfMirrored,
            Framework::TfMultiWorker, Framework::DataParallel, Framework::Lightning, Framework::Jax};
}

std::optional<Framework> frameworkFromId(const QString &id)
{
    for (auto f : allFrameworks())
        if (frameworkId(f) == id)
            return f;
    return std::nullopt;
}

bool frameworkSpansNodes(Framework f)
{
    return f != Framework::TfMirrored && f != Framework::DataParallel;
}

bool frameworkOneProcessPerNode(Framework f)
{
    return f == Framework::DataParallel || f == Framework::TfMirrored || f == Framework::TfMultiWorker;
}

Launcher defaultLauncher(Framework f)
{
    return f == Framework::PytorchDdp ? Launcher::Torchrun : Launcher::Srun;
}

QList<Launcher> launchersFor(Framework f)
{
    switch (f) {
    case Framework::PytorchDdp:
        return {Launcher::Torchrun, Launcher::Srun};
    case Framework::Lightning:
        return {Launcher::Srun, Launcher::Torchrun};
    case Framework::DeepSpeed:
        return {Launcher::Srun, Launcher::DeepSpeed, Launcher::Torchrun};
    case Framework::Horovod:
        return {Launcher::Srun, Launcher::Horovodrun, Launcher::Mpirun};
    case Framework::TfMirrored:
    case Framework::DataParallel:
    case Framework::TfMultiWorker:
    case Framework::Jax:
        return {Launcher::Srun};
    }
    return {Launcher::Srun};
}

std::optional<Framework> multiNodeAlternative(Framework f)
{
    switch (f) {
    case Framework::DataParallel:
        return Framework::PytorchDdp;
    case Framework::TfMirrored:
        return Framework::TfMultiWorker;
    default:
        return std::nullopt;
    }
}

}   // namespace scalelab
