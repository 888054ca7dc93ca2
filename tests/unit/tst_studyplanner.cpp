// SPDX-License-Identifier: GPL-3.0-or-later
// The scaling-study planner: variants per GPU count, batch scaling, partition
// moves, and the fixes it applies through applyFix.
#include "core/compose/JobValidator.h"
#include "ProfileFixtures.h"
#include "core/model/SpecFix.h"
#include "core/compose/StudyPlanner.h"

#include <QtTest>

using namespace scalelab;
using scalelab::test::repoProfile;

namespace {

JobSpec ddpSpec(const QString &profile, const QString &partition)
{
    JobSpec s;
    s.profile = profile;
    s.partition = partition;
    s.gpus = 4;
    s.framework = Framework::PytorchDdp;
    s.time = QStringLiteral("02:00:00");
    s.account = QStringLiteral("project_2001234");
    s.jobName = QStringLiteral("ddp");
    s.program = QStringLiteral("train.py");
    s.args = {QStringLiteral("--epochs"), QStringLiteral("3"), QStringLiteral("--batch-size"), QStringLiteral("64")};
    return s;
}

QString argAfter(const QStringList &args, const QString &name)
{
    const int i = args.indexOf(name);
    return i >= 0 && i + 1 < args.size() ? args[i + 1] : QString();
}

}   // namespace

class TestStudyPlanner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void oneVariantPerGpuCount()
    {
        const auto &p = repoProfile(QStringLiteral("puhti"));
        const auto vs = planStudyVariants(ddpSpec(p.id, QStringLiteral("gpu")), {1, 2, 4, 8}, {}, p);
        QCOMPARE(vs.size(), 4);
        QList<int> gpus;
        for (const auto &v : vs) {
            gpus << v.spec.gpus;
            QCOMPARE(v.spec.nodes, 0);
            QVERIFY2(!hasErrors(v.diagnostics), qPrintable(v.diagnostics.value(0).message));
        }
        QCOMPARE(gpus, (QList<int>{1, 2, 4, 8}));
        QCOMPARE(vs[3].spec.jobName, QStringLiteral("ddp-8g"));
        QCOMPARE(vs[0].spec.args, ddpSpec(p.id, QStringLiteral("gpu")).args);   // mode None: untouched
    }

    void repeatsRunInRounds()
    {
        const auto &p = repoProfile(QStringLiteral("puhti"));
        const auto vs = planStudyVariants(ddpSpec(p.id, QStringLiteral("gpu")), {1, 2}, {}, p, 3);
        QCOMPARE(vs.size(), 6);
        QStringList names;
        for (const auto &v : vs)
            names << v.spec.jobName;
        // Rounds: a slow hour of the cluster does not land on one GPU count.
        QCOMPARE(names,
                 (QStringList{QStringLiteral("ddp-1g-r1"), QStringLiteral("ddp-2g-r1"), QStringLiteral("ddp-1g-r2"),
                              QStringLiteral("ddp-2g-r2"), QStringLiteral("ddp-1g-r3"), QStringLiteral("ddp-2g-r3")}));
        QCOMPARE(vs[4].repeat, 3);
        QCOMPARE(vs[4].spec.gpus, 1);
        // Out of range is clamped, never zero runs.
        QCOMPARE(planStudyVariants(ddpSpec(p.id, QStringLiteral("gpu")), {1}, {}, p, 0).size(), 1);
        QCOMPARE(planStudyVariants(ddpSpec(p.id, QStringLiteral("gpu")), {1}, {}, p, 99).size(), kMaxStudyRepeats);
    }

    void uniqueStudyNames()
    {
        QCOMPARE(uniqueStudyName(QStringLiteral("resnet"), {}), QStringLiteral("resnet"));
        QCOMPARE(uniqueStudyName(QStringLiteral("resnet"), {QStringLiteral("resnet")}), QStringLiteral("resnet (2)"));
        QCOMPARE(uniqueStudyName(QStringLiteral(" resnet "), {QStringLiteral("resnet"), QStringLiteral("resnet (2)")}),
                 QStringLiteral("resnet (3)"));
    }

    void keepGlobalBatchDividesByGpus()
    {
        const auto &p = repoProfile(QStringLiteral("puhti"));
        const BatchScaling scaling{BatchScalingMode::KeepGlobal, QStringLiteral("--batch-size"), 256};
        const auto vs = planStudyVariants(ddpSpec(p.id, QStringLiteral("gpu")), {1, 2, 4, 8}, scaling, p);
        QCOMPARE(argAfter(vs[0].spec.args, QStringLiteral("--batch-size")), QStringLiteral("256"));
        QCOMPARE(argAfter(vs[3].spec.args, QStringLiteral("--batch-size")), QStringLiteral("32"));
        QCOMPARE(vs[3].batchValue, 32);
        QCOMPARE(vs[3].spec.args.count(QStringLiteral("--batch-size")), 1);
    }

    void keepPerGpuBatchAndEqualsForm()
    {
        const auto &p = repoProfile(QStringLiteral("puhti"));
        JobSpec base = ddpSpec(p.id, QStringLiteral("gpu"));
        base.args = {QStringLiteral("--bs=10")};
        const BatchScaling scaling{BatchScalingMode::KeepPerGpu, QStringLiteral("--bs"), 48};
        const auto vs = planStudyVariants(base, {2, 8}, scaling, p);
        QCOMPARE(vs[0].spec.args, QStringList{QStringLiteral("--bs=48")});
        QCOMPARE(vs[1].spec.args, QStringList{QStringLiteral("--bs=48")});
    }

    void batchAsVariableAndUnevenWarning()
    {
        const auto &p = repoProfile(QStringLiteral("puhti"));
        const BatchScaling scaling{BatchScalingMode::KeepGlobal, QStringLiteral("BATCH"), 100};
        const auto vs = planStudyVariants(ddpSpec(p.id, QStringLiteral("gpu")), {8}, scaling, p);
        QCOMPARE(vs[0].spec.environment.variables.value(0), qMakePair(QStringLiteral("BATCH"), QStringLiteral("12")));
        bool warned = false;
        for (const auto &d : vs[0].diagnostics)
            warned |= d.rule == QLatin1String("study-batch-uneven");
        QVERIFY(warned);
    }

    void batchSmallerThanGpusIsAnError()
    {
        const auto &p = repoProfile(QStringLiteral("puhti"));
        const BatchScaling scaling{BatchScalingMode::KeepGlobal, QStringLiteral("--batch-size"), 4};
        const auto vs = planStudyVariants(ddpSpec(p.id, QStringLiteral("gpu")), {8}, scaling, p);
        QVERIFY(hasErrors(vs[0].diagnostics));
        QCOMPARE(vs[0].diagnostics[0].rule, QStringLiteral("study-batch-too-small"));
    }

    void partitionMovesWhenBaseCannotHoldVariant()
    {
        // Mahti gpusmall holds at most 2 GPUs: 4 and 8 move to gpumedium.
        const auto &p = repoProfile(QStringLiteral("mahti"));
        JobSpec base = ddpSpec(p.id, QStringLiteral("gpusmall"));
        base.time = QStringLiteral("12:00:00");
        const auto vs = planStudyVariants(base, {1, 2, 4, 8}, {}, p);
        QCOMPARE(vs[1].spec.partition, QStringLiteral("gpusmall"));
        QVERIFY(!vs[1].partitionChanged);
        QCOMPARE(vs[2].spec.partition, QStringLiteral("gpumedium"));
        QVERIFY(vs[2].partitionChanged);
        QCOMPARE(vs[3].spec.partition, QStringLiteral("gpumedium"));
        for (const auto &v : vs)
            QVERIFY2(!hasErrors(v.diagnostics), qPrintable(v.diagnostics.value(0).message));
        QCOMPARE(planStudy(base, {1, 2, 4, 8}, {}, p).size(), 4);
    }

    void gpuChoicesAndDefaults()
    {
        const auto &mahti = repoProfile(QStringLiteral("mahti"));
        QCOMPARE(studyGpuChoices(mahti), (QList<int>{1, 2, 4, 8, 16, 24}));
        QCOMPARE(defaultStudyGpuCounts(mahti, QStringLiteral("gpusmall")), (QList<int>{1, 2}));
        QCOMPARE(defaultStudyGpuCounts(mahti, QStringLiteral("gpumedium")), (QList<int>{1, 2, 4, 8}));
    }

    void gpuHours()
    {
        JobSpec s;
        s.gpus = 8;
        s.time = QStringLiteral("1-00:00:00");
        QCOMPARE(estimatedGpuHours(s), 192.0);
        s.time = QStringLiteral("bogus");
        QCOMPARE(estimatedGpuHours(s), 0.0);
    }

    void applyFixSetsAndClears()
    {
        JobSpec s;
        s.nodes = 3;
        s.launcher = Launcher::Horovodrun;
        QVERIFY(applyFix(s, Fix{QStringLiteral("nodes"), {}, QStringLiteral("derive"), true}).isEmpty());
        QCOMPARE(s.nodes, 0);
        QVERIFY(applyFix(s, Fix{QStringLiteral("partition"), QStringLiteral("gpumedium"), QStringLiteral("use")})
                    .isEmpty());
        QCOMPARE(s.partition, QStringLiteral("gpumedium"));
        QVERIFY(applyFix(s, Fix{QStringLiteral("framework"), QStringLiteral("deepspeed"), QStringLiteral("use")})
                    .isEmpty());
        QCOMPARE(s.framework, Framework::DeepSpeed);
        QVERIFY(!s.launcher);   // horovodrun does not start DeepSpeed
        QVERIFY(
            applyFix(s, Fix{QStringLiteral("monitoring.gpuSampleSeconds"), QStringLiteral("5"), QStringLiteral("x")})
                .isEmpty());
        QCOMPARE(s.gpuSampleSeconds, 5);
        QVERIFY(!applyFix(s, Fix{QStringLiteral("gpus"), QStringLiteral("many"), QStringLiteral("x")}).isEmpty());
        QVERIFY(!applyFix(s, Fix{QStringLiteral("nonsense"), QStringLiteral("1"), QStringLiteral("x")}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestStudyPlanner)
#include "tst_studyplanner.moc"
