// SPDX-License-Identifier: GPL-3.0-or-later
// The launcher table (core/model/Launcher.h) read by everything that knows a
// launcher: every row is rendered by SbatchRenderer, read back by the
// importer as the same launcher with the same counts, counted by the linter
// without a geometry finding, and every command word of every row is read
// by the launch-line parser. A new row passes here or says what it lacks.
// The highlighter's side is in tests/gui/tst_scripthighlighter.cpp.

#include "ScriptImportFixtures.h"

#include "core/compose/JobValidator.h"
#include "core/compose/SbatchRenderer.h"
#include "core/model/LaunchGeometry.h"
#include "core/scriptimport/LintRules.h"

using namespace scalelab;
using namespace scalelab::testing;

class TestLauncherTable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyLauncherHasOneRow();
    void renderedScriptReadsBack_data();
    void renderedScriptReadsBack();
    void everyCommandWordIsRead_data();
    void everyCommandWordIsRead();
    void geometryFollowsProcessModel();
    void spanningNodesFollowsTheRow();
};

namespace {

const QStringList kGeometryRules = {QStringLiteral("launcher-too-many-processes"),
                                    QStringLiteral("launcher-too-few-processes"),
                                    QStringLiteral("first-node-only"),
                                    QStringLiteral("tasks-never-started"),
                                    QStringLiteral("torchrun-nnodes-mismatch"),
                                    QStringLiteral("torchrun-without-srun-multinode")};

std::optional<Framework> frameworkStartedBy(Launcher l)
{
    for (Framework f : allFrameworks())
        if (launchersFor(f).contains(l))
            return f;
    return std::nullopt;
}

QStringList geometryFindings(const ScriptImport &imp)
{
    QStringList out;
    for (const auto &d : imp.diagnostics)
        if (kGeometryRules.contains(d.rule))
            out << QStringLiteral("%1@%2: %3").arg(d.rule).arg(d.line).arg(d.message);
    return out;
}

}   // namespace

void TestLauncherTable::everyLauncherHasOneRow()
{
    QSet<QString> ids;
    QSet<int> values;
    for (const LauncherTraits &row : launcherTable()) {
        QVERIFY2(!row.id.isEmpty() && !row.commands.isEmpty(), qPrintable(row.id));
        QVERIFY2(!ids.contains(row.id), qPrintable(row.id));
        ids << row.id;
        values << int(row.launcher);
        QVERIFY(&launcherTraits(row.launcher) == &row);
        QVERIFY(launcherFromId(row.id) == row.launcher);
        QVERIFY2(launcherTraits(row.composedAs).composable, qPrintable(row.id));
        for (const QString &c : row.commands)
            QVERIFY(launcherOfCommand(c.section(QLatin1Char(' '), 0, 0)) == row.launcher);
        for (const QString &m : row.modules)
            QVERIFY(launcherOfModule(m) == row.launcher);
    }
    // The enum's values are 0..N-1, each with its row.
    for (int v = 0; v < int(launcherTable().size()); ++v)
        QVERIFY2(values.contains(v), qPrintable(QString::number(v)));
    QCOMPARE(allLaunchers().size(), launcherTable().size());
}

void TestLauncherTable::renderedScriptReadsBack_data()
{
    QTest::addColumn<int>("launcher");
    QTest::addColumn<int>("nodes");
    for (const LauncherTraits &row : launcherTable()) {
        if (!row.composable)
            continue;
        QTest::addRow("%s, 1 node", qPrintable(row.id)) << int(row.launcher) << 1;
        if (row.spansNodes)
            QTest::addRow("%s, 2 nodes", qPrintable(row.id)) << int(row.launcher) << 2;
    }
}

// Rendered, imported back: the same launcher, GPUs and nodes, the linter
// counts as many processes as the geometry starts and finds nothing wrong
// with them.
void TestLauncherTable::renderedScriptReadsBack()
{
    QFETCH(int, launcher);
    QFETCH(int, nodes);
    const auto l = Launcher(launcher);
    const ClusterProfile p = fixtureProfile(QStringLiteral("puhti"));
    const auto framework = frameworkStartedBy(l);
    QVERIFY2(framework, "no framework offers this launcher (launchersFor)");
    JobSpec spec;
    spec.profile = p.id;
    spec.framework = *framework;
    spec.launcher = l;
    spec.gpus = 4 * nodes;
    spec.time = QStringLiteral("00:10:00");
    spec.account = QStringLiteral("project_1234567");
    spec.program = QStringLiteral("train.py");
    const LaunchGeometry g = computeGeometry(spec, p);
    QCOMPARE(g.nodes, nodes);
    for (const auto &d : validateJob(spec, p))
        QVERIFY2(d.severity != Severity::Error, qPrintable(d.rule + QStringLiteral(": ") + d.message));

    const QString script = renderSbatch(spec, p);
    const ScriptImport imp = importSbatchScript(script, p);
    const LaunchCommand *launch = imp.launch();
    QVERIFY2(launch, qPrintable(script));
    QCOMPARE(launcherId(imp.spec.effectiveLauncher()), launcherId(l));
    QCOMPARE(imp.spec.gpus, spec.gpus);
    QCOMPARE(imp.request.effectiveNodes(), nodes);
    const Started s = countStarted(*launch, imp.request);
    QVERIFY2(s.unknownBecause.isEmpty(), qPrintable(s.unknownBecause));
    QCOMPARE(s.processes, g.totalProcesses());
    QCOMPARE(geometryFindings(imp), QStringList());
}

void TestLauncherTable::everyCommandWordIsRead_data()
{
    QTest::addColumn<int>("launcher");
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("countOption");
    for (const LauncherTraits &row : launcherTable()) {
        if (row.model == ProcessModel::SrunTasks)
            continue;   // srun is a layer, not LaunchCommand::launcher
        const QString option = !row.perNodeOptions.isEmpty() ? row.perNodeOptions.front() : row.totalOptions.front();
        QStringList forms = row.commands;
        for (const QString &m : row.modules)
            forms << QStringLiteral("python3 -m ") + m;
        for (const QString &c : forms) {
            QTest::addRow("%s", qPrintable(c)) << int(row.launcher) << c << option;
            // A container's runscript runs its arguments: the launcher after the image is the launch.
            const QString inImage = QStringLiteral("singularity run img.sif ") + c;
            QTest::addRow("%s", qPrintable(inImage)) << int(row.launcher) << inImage << option;
        }
    }
}

// One node, 4 GPUs, a count of 4 in the row's own option, alone or after a
// container image: read back as that launcher, 4 processes, no geometry finding.
void TestLauncherTable::everyCommandWordIsRead()
{
    QFETCH(int, launcher);
    QFETCH(QString, command);
    QFETCH(QString, countOption);
    const LauncherTraits &row = launcherTraits(Launcher(launcher));
    const bool agents = row.model == ProcessModel::AgentPerNode;
    const QString script = QStringLiteral("#!/bin/bash\n#SBATCH --partition=gpu\n#SBATCH --account=project_1234567\n"
                                          "#SBATCH --nodes=1\n#SBATCH --gres=gpu:v100:4\n#SBATCH --time=10:00\n"
                                          "#SBATCH --ntasks-per-node=%1\n%2%3 %4 4 train.py\n")
                               .arg(agents ? 1 : 4)
                               .arg(agents ? QStringLiteral("srun ") : QString(), command, countOption);
    const ScriptImport imp = importSbatchScript(script, fixtureProfile(QStringLiteral("puhti")));
    const LaunchCommand *l = imp.launch();
    QVERIFY2(l, qPrintable(script));
    QVERIFY(l->launcher == row.launcher);
    QCOMPARE(l->program, QStringLiteral("train.py"));
    const WrittenCount &count = row.perNodeOptions.isEmpty() ? l->np : l->nproc;
    QCOMPARE(count.value, 4);
    QCOMPARE(count.line, 8);
    QCOMPARE(countStarted(*l, imp.request).processes, 4);
    QCOMPARE(imp.spec.effectiveLauncher(), row.composedAs);
    QCOMPARE(geometryFindings(imp), QStringList());
}

// Agents: one task per node with all its CPUs; ranks and srun's processes:
// one task per GPU.
void TestLauncherTable::geometryFollowsProcessModel()
{
    const ClusterProfile p = fixtureProfile(QStringLiteral("puhti"));
    for (const LauncherTraits &row : launcherTable()) {
        if (!row.composable)
            continue;
        JobSpec spec;
        spec.framework = Framework::PytorchDdp;
        spec.launcher = row.launcher;
        spec.gpus = 4;
        spec.cpusPerGpu = 10;
        const LaunchGeometry g = computeGeometry(spec, p);
        const bool agent = row.model == ProcessModel::AgentPerNode;
        QCOMPARE(g.tasksPerNode, agent ? 1 : 4);
        QCOMPARE(g.processesPerNode, 4);
        QCOMPARE(g.cpusPerTask, agent ? 40 : 10);
    }
}

// The validator refuses more than one node exactly for the rows that cannot
// span them.
void TestLauncherTable::spanningNodesFollowsTheRow()
{
    const ClusterProfile p = fixtureProfile(QStringLiteral("puhti"));
    for (const LauncherTraits &row : launcherTable()) {
        if (!row.composable)
            continue;
        JobSpec spec;
        spec.profile = p.id;
        spec.framework = *frameworkStartedBy(row.launcher);
        spec.launcher = row.launcher;
        spec.gpus = 8;
        spec.time = QStringLiteral("00:10:00");
        bool refused = false;
        for (const auto &d : validateJob(spec, p))
            refused = refused || d.rule == QLatin1String("launcher-single-node");
        QVERIFY2(refused == !row.spansNodes, qPrintable(row.id));
    }
}

QTEST_GUILESS_MAIN(TestLauncherTable)
#include "tst_launchertable.moc"
