// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/Launcher.h"

#include <QList>
#include <QString>

#include <optional>

namespace scalelab {

// Jax: one process per GPU started by srun; jax.distributed.initialize() reads
// its coordinator, process count and id from Slurm's task variables.
enum class Framework { PytorchDdp, DeepSpeed, Horovod, TfMirrored, TfMultiWorker, DataParallel, Lightning, Jax };

QString frameworkId(Framework f);
QString frameworkName(Framework f);
std::optional<Framework> frameworkFromId(const QString &id);
QList<Framework> allFrameworks();

// Launch traits: what a framework can do and how it is started by default.
bool frameworkSpansNodes(Framework f);   // false: one process on one node
// One process drives every GPU of its node (started by srun, once per node).
bool frameworkOneProcessPerNode(Framework f);
Launcher defaultLauncher(Framework f);
QList<Launcher> launchersFor(Framework f);   // sensible choices, default first
// The framework that does the same job across nodes (for a fix suggestion).
std::optional<Framework> multiNodeAlternative(Framework f);

}   // namespace scalelab
