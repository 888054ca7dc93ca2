// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace scalelab {

enum class Framework { PytorchDdp, DeepSpeed, Horovod, TfMirrored, TfMultiWorker, DataParallel, Lightning };
enum class Launcher { Torchrun, Srun, DeepSpeed, Horovodrun, Mpirun };

QString frameworkId(Framework f);
QString frameworkName(Framework f);
std::optional<Framework> frameworkFromId(const QString &id);
QList<Framework> allFrameworks();

QString launcherId(Launcher l);
std::optional<Launcher> launcherFromId(const QString &id);
QList<Launcher> allLaunchers();

// Launch traits: what a framework can do and how it is started by default.
bool frameworkSpansNodes(Framework f);   // false: one process on one node
Launcher defaultLauncher(Framework f);
QList<Launcher> launchersFor(Framework f);   // sensible choices, default first
// The framework that does the same job across nodes (for a fix suggestion).
std::optional<Framework> multiNodeAlternative(Framework f);

}   // namespace scalelab
