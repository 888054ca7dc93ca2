// SPDX-License-Identifier: GPL-3.0-or-later
// Renders and validates every profile x framework x GPU count, and checks the
// scripts' geometry lines, the fixes and the golden scripts.
#include "core/compose/JobValidator.h"
#include "core/model/LaunchGeometry.h"
#include "ProfileFixtures.h"
#include "core/model/JobSpecJson.h"
#include "core/compose/SbatchRenderer.h"

#include <QtTest>

using namespace scalelab;
using scalelab::test::repoProfile;
using scalelab::test::repoProfiles;

namespace {

JobSpec baseSpec(const ClusterProfile &p, Framework f, int gpus)
{
    JobSpec s;
    s.profile = p.id;
    s.framework = f;
    s.gpus = gpus;
    s.time = QStringLiteral("00:10:00");
    s.account = p.accountExample;
    s.program = QStringLiteral("train.py");
    s.args = {QStringLiteral("--epochs"), QStringLiteral("3")};
    if (p.memoryRequired)
        s.memory = QStringLiteral("8G");
    return s;
}

int maxTotalOf(const ClusterProfile &p)
{
    int m = 0;
    for (const auto &part : p.partitions)
        m = std::max(m, part.maxGpus());
    return m;
}

// Applies partition fixes the way the GUI does until no partition error
// remains (at most a few rounds).
JobSpec withFixes(JobSpec s, const ClusterProfile &p)
{
    for (int round = 0; round < 4; ++round) {
        bool changed = false;
        for (const auto &d : validateJob(s, p)) {
            if (d.severity == Severity::Error && d.fix.field == QLatin1String("partition")
                && d.fix.value != s.partition) {
                s.partition = d.fix.value;
                changed = true;
                break;
            }
        }
        if (!changed)
            break;
    }
    return s;
}

QStringList errorRules(const Diagnostics &ds)
{
    QStringList r;
    for (const auto &d : ds)
        if (d.severity == Severity::Error)
            r << d.rule;
    return r;
}

}   // namespace

class TestComposer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void profilesLoad();
    void matrix_data();
    void matrix();
    void mahtiGpusmallLimit();
    void fixesAreConcrete();
    void torchrunGeometry();
    void srunGeometry();
    void lumiUsesGpusPerNodeAndRocm();
    void hostileValuesAreQuoted();
    void golden_data();
    void golden();
};

void TestComposer::profilesLoad()
{
    const auto &reg = repoProfiles();
    for (const auto &d : reg.problems())
        QVERIFY2(d.severity != Severity::Error, qPrintable(d.message));
    for (const char *id : {"puhti", "mahti", "lumi", "m3", "aau-ai-cloud", "generic", "testbed"})
        QVERIFY2(reg.find(QString::fromLatin1(id)), id);
    // Every limit has a source.
    for (const auto &p : reg.profiles())
        for (const auto &part : p.partitions)
            for (const char *k : {"gpusPerNode", "cpusPerNode", "memoryPerNodeMB", "maxNodes", "maxTime"})
                QVERIFY2(
                    !part.sources.value(QString::fromLatin1(k)).isEmpty(),
                    qPrintable(QStringLiteral("%1/%2 %3 has no source").arg(p.id, part.name, QString::fromLatin1(k))));
}

void TestComposer::matrix_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<int>("framework");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<bool>("legal");
    for (const auto &p : repoProfiles().profiles()) {
        int maxPerNode = 0, maxTotal = 0;
        for (const auto &part : p.partitions) {
            maxPerNode = std::max(maxPerNode, part.gpusPerNode);
            maxTotal = std::max(maxTotal, part.maxGpus());
        }
        // A profile that does not know its GPUs per node (generic) forbids
        // nothing: no count may be refused on a made-up number.
        const bool unknown = std::any_of(p.partitions.begin(), p.partitions.end(),
                                         [](const Partition &x) { return !x.isKnown(QStringLiteral("gpusPerNode")); });
        QList<int> counts = unknown ? QList<int>{1, 2, 8} : QList<int>{1, 2, maxPerNode, 2 * maxPerNode};
        std::sort(counts.begin(), counts.end());
        counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
        for (auto f : allFrameworks()) {
            for (int n : counts) {
                const bool fits = unknown || n <= maxTotal;
                const bool legal = fits && (unknown || frameworkSpansNodes(f) || n <= maxPerNode);
                QTest::addRow("%s/%s/%d", qPrintable(p.id), qPrintable(frameworkId(f)), n)
                    << p.id << int(f) << n << legal;
            }
        }
    }
}

void TestComposer::matrix()
{
    QFETCH(QString, profile);
    QFETCH(int, framework);
    QFETCH(int, gpus);
    QFETCH(bool, legal);
    const ClusterProfile &p = repoProfile(profile);
    const JobSpec spec = withFixes(baseSpec(p, Framework(framework), gpus), p);
    const RenderResult r = renderAndValidate(spec, p);
    const QStringList errors = errorRules(r.diagnostics);
    if (legal) {
        QVERIFY2(errors.isEmpty(),
                 qPrintable(errors.join(QLatin1Char(',')) + QStringLiteral(" on partition ") + spec.partition));
    } else {
        QVERIFY2(!errors.isEmpty(), "an illegal request rendered without errors");
        const QString expected = !frameworkSpansNodes(Framework(framework)) && gpus <= maxTotalOf(p)
                                     ? QStringLiteral("single-node-framework")
                                     : QStringLiteral("partition-gpu-limit|nodes-exceeded|single-node-framework");
        QVERIFY2(std::any_of(errors.begin(), errors.end(),
                             [&](const QString &e) { return expected.split(QLatin1Char('|')).contains(e); }),
                 qPrintable(errors.join(QLatin1Char(','))));
    }
    // The script is always complete, whatever the diagnostics say.
    const LaunchGeometry g = computeGeometry(spec, p);
    QVERIFY(r.script.startsWith(QLatin1String("#!/bin/bash\n")));
    QVERIFY(r.script.contains(QStringLiteral("#SBATCH --nodes=%1\n").arg(g.nodes)));
    QVERIFY(r.script.contains(QStringLiteral("#SBATCH --ntasks-per-node=%1\n").arg(g.tasksPerNode)));
    QVERIFY(r.script.contains(QStringLiteral("#SBATCH --cpus-per-task=%1\n").arg(g.cpusPerTask)));
    QVERIFY(r.script.contains(QLatin1String("#SBATCH --output=scalelab-%j.out")));
    QVERIFY(r.script.contains(QLatin1String("export OMP_NUM_THREADS=")));
    QVERIFY(!r.script.contains(QLatin1String("--cpus-per-gpu")));
    if (legal)
        QCOMPARE(g.totalProcesses() * (g.processesPerNode == 1 && g.gpusPerNode > 1 ? g.gpusPerNode : 1), gpus);
}

void TestComposer::mahtiGpusmallLimit()
{
    const ClusterProfile &p = repoProfile(QStringLiteral("mahti"));
    JobSpec s = baseSpec(p, Framework::PytorchDdp, 4);
    s.partition = QStringLiteral("gpusmall");
    const auto ds = validateJob(s, p);
    auto it = std::find_if(ds.begin(), ds.end(),
                           [](const Diagnostic &d) { return d.rule == QLatin1String("partition-gpu-limit"); });
    QVERIFY(it != ds.end());
    QCOMPARE(it->severity, Severity::Error);
    QCOMPARE(it->fix.field, QStringLiteral("partition"));
    QCOMPARE(it->fix.value, QStringLiteral("gpumedium"));
    QVERIFY(it->message.contains(QLatin1String("at most 2")));
}

void TestComposer::fixesAreConcrete()
{
    const ClusterProfile &p = repoProfile(QStringLiteral("testbed"));
    // Explicit nodes too few for the GPUs -> "set nodes to 2".
    JobSpec s = baseSpec(p, Framework::PytorchDdp, 8);
    s.nodes = 1;
    auto ds = validateJob(s, p);
    auto it = std::find_if(ds.begin(), ds.end(),
                           [](const Diagnostic &d) { return d.rule == QLatin1String("gpus-per-node-exceeded"); });
    QVERIFY(it != ds.end());
    QCOMPARE(it->fix.field, QStringLiteral("nodes"));
    QCOMPARE(it->fix.value, QStringLiteral("2"));
    // DataParallel across nodes -> suggest DDP.
    s = baseSpec(p, Framework::DataParallel, 8);
    ds = validateJob(s, p);
    it = std::find_if(ds.begin(), ds.end(),
                      [](const Diagnostic &d) { return d.rule == QLatin1String("single-node-framework"); });
    QVERIFY(it != ds.end());
    QCOMPARE(it->fix.value, QStringLiteral("pytorch-ddp"));   // testbed has no 8-GPU node
    // On M3 a DGX node holds 8 GPUs, so the partition is the better fix.
    const ClusterProfile &m3 = repoProfile(QStringLiteral("m3"));
    s = baseSpec(m3, Framework::TfMirrored, 8);
    ds = validateJob(s, m3);
    it = std::find_if(ds.begin(), ds.end(),
                      [](const Diagnostic &d) { return d.rule == QLatin1String("single-node-framework"); });
    QVERIFY(it != ds.end());
    QCOMPARE(it->fix.field, QStringLiteral("partition"));
    // Time over the partition limit -> set to the maximum.
    s = baseSpec(p, Framework::PytorchDdp, 2);
    s.partition = QStringLiteral("gputest");
    s.time = QStringLiteral("01:00:00");
    ds = validateJob(s, p);
    it = std::find_if(ds.begin(), ds.end(),
                      [](const Diagnostic &d) { return d.rule == QLatin1String("time-exceeded"); });
    QVERIFY(it != ds.end());
    QCOMPARE(it->fix.value, QStringLiteral("00:15:00"));
    // Missing and malformed account.
    s = baseSpec(p, Framework::PytorchDdp, 2);
    s.account.clear();
    QVERIFY(errorRules(validateJob(s, p)).contains(QStringLiteral("account-missing")));
    s.account = QStringLiteral("project_12");
    QVERIFY(errorRules(validateJob(s, p)).contains(QStringLiteral("account-malformed")));
    s.account = QStringLiteral("<project>");
    QVERIFY(errorRules(validateJob(s, p)).contains(QStringLiteral("placeholder-value")));
    // CPUs and memory beyond a node.
    s = baseSpec(p, Framework::PytorchDdp, 4);
    s.cpusPerGpu = 4;
    ds = validateJob(s, p);
    it = std::find_if(ds.begin(), ds.end(),
                      [](const Diagnostic &d) { return d.rule == QLatin1String("cpus-per-node-exceeded"); });
    QVERIFY(it != ds.end());
    QCOMPARE(it->fix.value, QStringLiteral("2"));
    s.cpusPerGpu = 0;
    s.memory = QStringLiteral("20G");
    QVERIFY(errorRules(validateJob(s, p)).contains(QStringLiteral("memory-exceeded")));
    s.memory = QStringLiteral("lots");
    QVERIFY(errorRules(validateJob(s, p)).contains(QStringLiteral("memory-malformed")));
    // Launcher that cannot span nodes.
    s = baseSpec(p, Framework::DeepSpeed, 8);
    s.launcher = Launcher::DeepSpeed;
    ds = validateJob(s, p);
    it = std::find_if(ds.begin(), ds.end(),
                      [](const Diagnostic &d) { return d.rule == QLatin1String("launcher-single-node"); });
    QVERIFY(it != ds.end());
    QCOMPARE(it->fix.value, QStringLiteral("srun"));
    // Uneven split.
    s = baseSpec(p, Framework::PytorchDdp, 3);
    s.nodes = 2;
    QVERIFY(errorRules(validateJob(s, p)).contains(QStringLiteral("gpus-uneven")));
}

void TestComposer::torchrunGeometry()
{
    const ClusterProfile &p = repoProfile(QStringLiteral("puhti"));
    JobSpec s = baseSpec(p, Framework::PytorchDdp, 8);
    const QString one = renderSbatch(baseSpec(p, Framework::PytorchDdp, 4), p);
    QVERIFY(one.contains(QLatin1String("--nnodes=1 --nproc_per_node=4")));
    // A rendezvous port of the job's own: --standalone's fixed 29400 collides on shared nodes.
    QVERIFY(one.contains(QLatin1String("export RDZV_HOST=localhost")));
    QVERIFY(one.contains(QLatin1String("export RDZV_PORT=$((20000 + SLURM_JOB_ID % 20000))")));
    QVERIFY(!one.contains(QLatin1String("--standalone")));
    QVERIFY(one.contains(QLatin1String("#SBATCH --gres=gpu:v100:4")));
    QVERIFY(one.contains(QLatin1String("#SBATCH --ntasks-per-node=1")));
    const QString two = renderSbatch(s, p);
    QVERIFY(two.contains(QLatin1String("#SBATCH --nodes=2")));
    QVERIFY(two.contains(QLatin1String("--rdzv_backend=c10d")));
    QVERIFY(two.contains(QLatin1String("--nproc_per_node=4")));
    QVERIFY(!two.contains(QLatin1String("--standalone")));
}

void TestComposer::srunGeometry()
{
    const ClusterProfile &p = repoProfile(QStringLiteral("testbed"));
    JobSpec s = baseSpec(p, Framework::Horovod, 8);
    const LaunchGeometry g = computeGeometry(s, p);
    QCOMPARE(g.nodes, 2);
    QCOMPARE(g.tasksPerNode, 4);
    QCOMPARE(g.cpusPerTask, 2);
    s = baseSpec(p, Framework::TfMultiWorker, 8);
    const LaunchGeometry mw = computeGeometry(s, p);
    QCOMPARE(mw.tasksPerNode, 1);
    QCOMPARE(mw.cpusPerTask, 8);
    s = baseSpec(p, Framework::DataParallel, 2);
    const QString dp = renderSbatch(s, p);
    QVERIFY(dp.contains(QLatin1String("#SBATCH --ntasks-per-node=1")));
    QVERIFY(dp.contains(QLatin1String("#SBATCH --gres=gpu:v100:2")));
}

void TestComposer::lumiUsesGpusPerNodeAndRocm()
{
    const ClusterProfile &p = repoProfile(QStringLiteral("lumi"));
    JobSpec s = withFixes(baseSpec(p, Framework::PytorchDdp, 16), p);
    s.environment.container.image = QStringLiteral("/appl/local/containers/pytorch.sif");
    s.cpusPerGpu = 7;
    const RenderResult r = renderAndValidate(s, p);
    QVERIFY(r.script.contains(QLatin1String("#SBATCH --gpus-per-node=8")));
    QVERIFY(r.script.contains(QLatin1String("exec --rocm")));
    QVERIFY(r.script.contains(QLatin1String("rocm-smi")));
    QVERIFY(!r.script.contains(QLatin1String("--cpus-per-gpu")));
    QVERIFY(std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                        [](const Diagnostic &d) { return d.rule == QLatin1String("site-cpus-per-gpu"); }));
}

void TestComposer::hostileValuesAreQuoted()
{
    const ClusterProfile &p = repoProfile(QStringLiteral("testbed"));
    JobSpec s = baseSpec(p, Framework::PytorchDdp, 2);
    s.jobName = QStringLiteral("x\"; touch /tmp/pwned; echo \"");
    s.args = {QStringLiteral("$(touch /tmp/pwned)"), QStringLiteral("it's")};
    s.program = QStringLiteral("my dir/train.py");
    s.environment.variables = {{QStringLiteral("NOTE"), QStringLiteral("`rm -rf ~`")}};
    const QString script = renderSbatch(s, p);
    QVERIFY(script.contains(QLatin1String("#SBATCH --job-name=x___touch__tmp_pwned__echo__")));
    QVERIFY(script.contains(QLatin1String("'$(touch /tmp/pwned)' 'it'\"'\"'s'")));
    QVERIFY(script.contains(QLatin1String("\"$HOME\"/'my dir/train.py'")));
    QVERIFY(script.contains(QLatin1String("export NOTE=\"\\`rm -rf ~\\`\"")));
}

void TestComposer::golden_data()
{
    QTest::addColumn<QString>("name");
    const QDir dir(QStringLiteral(SCALELAB_TEST_DATA_DIR "/specs"));
    for (const auto &f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(f)) << f.chopped(5);
}

void TestComposer::golden()
{
    QFETCH(QString, name);
    QFile specFile(QStringLiteral(SCALELAB_TEST_DATA_DIR "/specs/%1.json").arg(name));
    QVERIFY(specFile.open(QIODevice::ReadOnly));
    const auto parsed = parseJobSpec(specFile.readAll(), specFile.fileName());
    QVERIFY2(parsed.spec, parsed.errors.isEmpty() ? "" : qPrintable(parsed.errors.front().message));
    const QString script = renderSbatch(*parsed.spec, repoProfile(parsed.spec->profile));
    const QString goldenPath = QStringLiteral(SCALELAB_TEST_DATA_DIR "/golden/%1.sbatch").arg(name);
    if (qEnvironmentVariableIsSet("SCALELAB_UPDATE_GOLDEN")) {
        QFile out(goldenPath);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(script.toUtf8());
        QSKIP("golden file rewritten; review it with git diff");
    }
    QFile golden(goldenPath);
    QVERIFY2(golden.open(QIODevice::ReadOnly),
             qPrintable(goldenPath + QStringLiteral(" missing: run with SCALELAB_UPDATE_GOLDEN=1")));
    QCOMPARE(script, QString::fromUtf8(golden.readAll()));
}

QTEST_GUILESS_MAIN(TestComposer)
#include "tst_composer.moc"
