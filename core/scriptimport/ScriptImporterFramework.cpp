// SPDX-License-Identifier: GPL-3.0-or-later
// The framework of a program started without a launcher of its own (srun
// python ..., python ...): from what the script shows of it, the program's
// name, its arguments and the modules it loads, before the process layout.
// Conflicting evidence is named, never silently resolved.
#include "core/scriptimport/ScriptImporterInternal.h"

#include <QRegularExpression>

#include <algorithm>

namespace scalelab::scriptimport {

namespace {

// A framework the script names, with the words that named it.
struct Named {
    std::optional<Framework> framework;   // DeepSpeed, Horovod, Lightning: exact
    QString torch;   // evidence of PyTorch ("module pytorch"), "" = none
    QString tensorflow;   // evidence of TensorFlow ("train_keras.py"), "" = none
    QString why;
};

Named namedFramework(const LaunchCommand &l, const QStringList &modules)
{
    Named n;
    const QString program = l.program.section(QLatin1Char('/'), -1);
    const QString args = l.args.join(QLatin1Char(' '));
    static const QRegularExpression tf(QStringLiteral("tensorflow|keras|(^|[^a-z0-9])tf2?([^a-z0-9]|$)"),
                                       QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression torch(QStringLiteral("torch"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression hvd(QStringLiteral("horovod|(^|[^a-z])hvd([^a-z]|$)"),
                                        QRegularExpression::CaseInsensitiveOption);
    const auto exact = [&](Framework f, const QString &evidence) {
        if (!n.framework) {
            n.framework = f;
            n.why = evidence;
        }
    };
    if (args.contains(QLatin1String("--deepspeed")))
        exact(Framework::DeepSpeed, QStringLiteral("the arguments pass --deepspeed"));
    if (program.contains(QLatin1String("lightning"), Qt::CaseInsensitive))
        exact(Framework::Lightning, QStringLiteral("the program %1 names Lightning").arg(program));
    if (hvd.match(program).hasMatch() || args.contains(QLatin1String("horovod"), Qt::CaseInsensitive))
        exact(Framework::Horovod, QStringLiteral("the program or its arguments name Horovod"));
    for (const QString &m : modules) {
        if (m.contains(QLatin1String("deepspeed"), Qt::CaseInsensitive))
            exact(Framework::DeepSpeed, QStringLiteral("module %1 is loaded").arg(m));
        else if (m.contains(QLatin1String("lightning"), Qt::CaseInsensitive))
            exact(Framework::Lightning, QStringLiteral("module %1 is loaded").arg(m));
        else if (hvd.match(m).hasMatch())
            exact(Framework::Horovod, QStringLiteral("module %1 is loaded").arg(m));
        else if (tf.match(m).hasMatch() && n.tensorflow.isEmpty())
            n.tensorflow = QStringLiteral("module %1").arg(m);
        else if (torch.match(m).hasMatch() && n.torch.isEmpty())
            n.torch = QStringLiteral("module %1").arg(m);
    }
    if (n.tensorflow.isEmpty() && tf.match(program).hasMatch())
        n.tensorflow = QStringLiteral("the program %1").arg(program);
    if (n.torch.isEmpty() && torch.match(program).hasMatch())
        n.torch = QStringLiteral("the program %1").arg(program);
    return n;
}

}   // namespace

Framework Importer::srunFramework(const LaunchCommand &l, QString *why) const
{
    const auto &r = m_imp.request;
    const QString all = (QStringList{l.program} + l.args).join(QLatin1Char(' '));
    const int perNode = l.underSrun ? std::max(1, l.srunTasksPerNode > 0 ? l.srunTasksPerNode : r.tasksPerNode) : 1;
    const bool acrossNodes = perNode > 1 || (l.underSrun && r.effectiveNodes() > 1);
    const Named named = namedFramework(l, m_imp.spec.environment.modules);
    if (named.framework) {
        *why = named.why;
        return *named.framework;
    }
    if (all.contains(QLatin1String("multi_worker"), Qt::CaseInsensitive)
        || all.contains(QLatin1String("multiworker"), Qt::CaseInsensitive)) {
        *why = QStringLiteral("the arguments name a multi-worker strategy");
        return Framework::TfMultiWorker;
    }
    if (all.contains(QLatin1String("mirrored"), Qt::CaseInsensitive)) {
        *why = QStringLiteral("the arguments ask for the mirrored distribution strategy");
        return Framework::TfMirrored;
    }
    const QString layout = perNode > 1   ? QStringLiteral("srun starts %1 processes per node").arg(perNode)
                           : acrossNodes ? QStringLiteral("one process per node")
                                         : QStringLiteral("a single process");
    if (!named.tensorflow.isEmpty() && !named.torch.isEmpty()) {
        *why = QStringLiteral("it is unsure: %1 suggests TensorFlow and %2 PyTorch; %3 decided")
                   .arg(named.tensorflow, named.torch, layout);
    } else if (!named.tensorflow.isEmpty()) {
        *why = QStringLiteral("%1 names TensorFlow and %2 runs").arg(named.tensorflow, layout);
        return acrossNodes ? Framework::TfMultiWorker : Framework::TfMirrored;
    } else if (!named.torch.isEmpty()) {
        *why = QStringLiteral("%1 names PyTorch and %2 runs").arg(named.torch, layout);
        return acrossNodes ? Framework::PytorchDdp : Framework::DataParallel;
    }
    if (perNode > 1) {
        *why += QStringLiteral("%1srun starts %2 processes per node, one per GPU, as DDP does")
                    .arg(why->isEmpty() ? QString() : QStringLiteral("; "))
                    .arg(perNode);
        return Framework::PytorchDdp;
    }
    if (l.underSrun && r.effectiveNodes() > 1) {
        *why += QStringLiteral("%1one process per node drives all of that node's GPUs")
                    .arg(why->isEmpty() ? QString() : QStringLiteral("; "));
        return Framework::TfMultiWorker;
    }
    *why += (why->isEmpty() ? QString() : QStringLiteral("; "))
            + (r.gpus > 1 ? QStringLiteral("a single process drives all %1 GPUs").arg(r.gpus)
                          : QStringLiteral("a single process on one GPU"));
    return Framework::DataParallel;
}

}   // namespace scalelab::scriptimport
