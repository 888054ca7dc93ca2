// SPDX-License-Identifier: GPL-3.0-or-later
// Discovered facts -> profile (sources, node kinds, QOS), the profile file
// (hostile names), `profiles check` differences, and the validator with QOS
// limits and with the honest generic profile.
#include "DiscoveryFixtures.h"

#include "core/compose/JobValidator.h"
#include "core/discovery/ProfileCheck.h"
#include "core/discovery/ProfileJson.h"
#include "core/discovery/SlurmRecords.h"
#include "core/profiles/ProfileLoader.h"
#include "core/profiles/ProfileRegistry.h"

#include <QJsonDocument>
#include <QtTest>

using namespace scalelab;
using namespace scalelab::test;

namespace {

ClusterProfile roundTrip(const ClusterProfile &p)
{
    const QByteArray json = ProfileJson::write(p);
    auto loaded = loadProfile(json, QStringLiteral("discovered.json"));
    for (const auto &d : loaded.problems)
        qWarning("%s", qPrintable(d.message));
    if (!loaded.profile)
        return {};
    return *loaded.profile;
}

JobSpec ddp(const QString &profile, const QString &partition, int gpus, int nodes = 0)
{
    JobSpec s;
    s.profile = profile;
    s.partition = partition;
    s.gpus = gpus;
    s.nodes = nodes;
    s.framework = Framework::PytorchDdp;
    s.time = QStringLiteral("01:00:00");
    s.account = QStringLiteral("project_2001234");
    s.program = QStringLiteral("train.py");
    return s;
}

QStringList rules(const Diagnostics &ds, Severity sev)
{
    QStringList r;
    for (const auto &d : ds)
        if (d.severity == sev)
            r << d.rule;
    return r;
}

const Diagnostic *byRule(const Diagnostics &ds, const QString &rule)
{
    for (const auto &d : ds)
        if (d.rule == rule)
            return &d;
    return nullptr;
}

}   // namespace

class TestDiscoveryProfile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void testbedWithoutSite()
    {
        const BuiltProfile b = ProfileBuilder::build(testbedInput(), nullptr);
        QVERIFY(!hasErrors(b.diagnostics));
        const ClusterProfile &p = b.profile;
        QCOMPARE(p.id, QStringLiteral("testbed"));
        QCOMPARE(p.slurmVersion, QStringLiteral("22.05.8"));
        QCOMPARE(p.partitions.size(), 4);
        const Partition *gpu = p.partition(QStringLiteral("gpu"));
        QVERIFY(gpu && gpu->isDefault);
        QCOMPARE(gpu->gpusPerNode, 4);
        QCOMPARE(gpu->cpusPerNode, 8);
        QCOMPARE(gpu->memoryPerNodeMB, 16000);
        QCOMPARE(gpu->maxNodes, 2);
        QCOMPARE(gpu->minNodes, 1);
        QCOMPARE(gpu->maxTimeSeconds, 3 * 86400);
        QCOMPARE(gpu->gpuType, QStringLiteral("v100"));
        QVERIFY(gpu->nodeTypes.isEmpty());
        QCOMPARE(gpu->sources.value(QStringLiteral("partition")),
                 QStringLiteral("scontrol show partition gpu (on testbed, 2026-11-23)"));
        QCOMPARE(gpu->sources.value(QStringLiteral("gpusPerNode")),
                 QStringLiteral("scontrol show node (on testbed, 2026-11-23)"));
        const Partition *small = p.partition(QStringLiteral("gpusmall"));
        QCOMPARE(small->maxGpusPerJob, 2);
        QCOMPARE(small->qos, QStringLiteral("gpusmall"));
        QCOMPARE(small->maxNodes, 1);
        QVERIFY(p.partition(QStringLiteral("gpumedium"))->exclusive);
        QCOMPARE(p.qos.size(), 1);
        QCOMPARE(p.qos[0].maxGpusPerJob, 2);
        QCOMPARE(p.gpuRequest, GpuRequestStyle::GresTyped);
        QCOMPARE(p.accountExample, QStringLiteral("project_2001234"));
        QCOMPARE(p.gpuTypes.size(), 1);
        QCOMPARE(p.gpuTypes[0].vendor, GpuVendor::Nvidia);
        QVERIFY(p.gpuTypes[0].model.contains(QStringLiteral("guessed")));
        QVERIFY(byRule(b.diagnostics, QStringLiteral("discovery-gpu-vendor-guess")));
        QVERIFY(p.sources.value(QStringLiteral("containerRuntime")).startsWith(QStringLiteral("not known")));

        const ClusterProfile back = roundTrip(p);
        QCOMPARE(back.partitions.size(), 4);
        QCOMPARE(back.partition(QStringLiteral("gpusmall"))->qos, QStringLiteral("gpusmall"));
        QCOMPARE(back.qosNamed(QStringLiteral("gpusmall"))->maxGpusPerJob, 2);
        QCOMPARE(back.partition(QStringLiteral("gputest"))->maxTimeSeconds, 15 * 60);
        QCOMPARE(back.discovered, QStringLiteral("testbed 2026-11-23"));
        QVERIFY(ProfileCheck::compare(back, p).isEmpty());
    }

    void siteAdviceFromShippedProfile()
    {
        ProfileRegistry reg;
        reg.loadDirectory(QStringLiteral(SCALELAB_TESTS_DIR "/../profiles"), false);
        const DiscoveryInput in = testbedInput();
        const ClusterProfile *site = ProfileBuilder::matchSite(in, reg.profiles());
        QVERIFY(site);
        QCOMPARE(site->id, QStringLiteral("testbed"));
        const ClusterProfile p = ProfileBuilder::build(in, site).profile;
        QVERIFY(p.accountRequired);
        QCOMPARE(p.accountPattern, QStringLiteral("^project_[0-9]{7}$"));
        QCOMPARE(p.torchrunArgs, (QStringList{"--redirects", "1", "--tee", "1"}));
        QCOMPARE(p.gpuTypes[0].model, QStringLiteral("emulated V100 (GRES only)"));
        QCOMPARE(p.partition(QStringLiteral("gpumedium"))->minGpusPerJob, 4);
        QCOMPARE(p.sources.value(QStringLiteral("containerRuntime")),
                 QStringLiteral("site advice from the testbed profile (shipped)"));
        const ClusterProfile back = roundTrip(p);   // every setting has a source, so the file loads
        QCOMPARE(back.torchrunArgs, p.torchrunArgs);
        // The shipped file (fixed after `profiles check` reported gpusmall and
        // gpumedium at 1-12:00:00) now agrees with the cluster's scontrol.
        QCOMPARE(ProfileCheck::compare(*site, p), QList<ProfileDifference>{});
    }

    void checkNamesExactlyTheDifference()
    {
        const ClusterProfile cluster = ProfileBuilder::build(testbedInput(), nullptr).profile;
        ClusterProfile mine = roundTrip(cluster);
        mine.partitions[1].maxTimeSeconds = 20 * 60;   // gputest
        const auto diffs = ProfileCheck::compare(mine, cluster);
        QCOMPARE(diffs.size(), 1);
        QCOMPARE(diffs[0].partition, QStringLiteral("gputest"));
        QCOMPARE(diffs[0].field, QStringLiteral("maxTime"));
        QCOMPARE(diffs[0].profileValue, QStringLiteral("00:20:00"));
        QCOMPARE(diffs[0].clusterValue, QStringLiteral("00:15:00"));
        QCOMPARE(diffs[0].source, QStringLiteral("scontrol show partition gputest (on testbed, 2026-11-23)"));
        mine.partitions.removeLast();
        QCOMPARE(ProfileCheck::compare(mine, cluster).size(), 2);   // + gpumedium absent from the profile
    }

    void heterogeneousPartitionPerNodeKind()
    {
        DiscoveryInput in = testbedInput();
        NodeFacts big = in.nodes[0];
        big.name = QStringLiteral("tb-big");
        big.cpus = 64;
        big.realMemoryMB = 512000;
        big.gres = {GresItem{QStringLiteral("gpu"), QStringLiteral("a100"), 8}};
        in.nodes << big;
        const BuiltProfile b = ProfileBuilder::build(in, nullptr);
        const Partition *gpu = b.profile.partition(QStringLiteral("gpu"));
        QCOMPARE(gpu->nodeTypes.size(), 2);
        QCOMPARE(gpu->gpusPerNode, 8);   // the largest kind, not an average (6)
        QCOMPARE(gpu->cpusPerNode, 64);
        QCOMPARE(gpu->gpuType, QStringLiteral("a100"));
        QCOMPARE(gpu->nodeTypes[0].count, 1);
        QCOMPARE(gpu->nodeTypes[1].gpus, 4);
        QCOMPARE(gpu->nodeTypes[1].count, 2);
        QCOMPARE(b.profile.gpuTypes.size(), 2);
        QVERIFY(byRule(b.diagnostics, QStringLiteral("discovery-heterogeneous")));
        const ClusterProfile back = roundTrip(b.profile);
        QCOMPARE(back.partition(QStringLiteral("gpu"))->nodeTypes, gpu->nodeTypes);
    }

    void vendorGuess()
    {
        QCOMPARE(ProfileBuilder::guessVendor(QStringLiteral("v100")), std::optional(GpuVendor::Nvidia));
        QCOMPARE(ProfileBuilder::guessVendor(QStringLiteral("a100")), std::optional(GpuVendor::Nvidia));
        QCOMPARE(ProfileBuilder::guessVendor(QStringLiteral("h100")), std::optional(GpuVendor::Nvidia));
        QCOMPARE(ProfileBuilder::guessVendor(QStringLiteral("mi250")), std::optional(GpuVendor::Amd));
        QCOMPARE(ProfileBuilder::guessVendor(QStringLiteral("MI300X")), std::optional(GpuVendor::Amd));
        QCOMPARE(ProfileBuilder::guessVendor(QStringLiteral("gpu")), std::nullopt);
        QCOMPARE(ProfileBuilder::guessVendor(QStringLiteral("fancy")), std::nullopt);
    }

    void hostileNamesNeverBreakTheFile()
    {
        DiscoveryInput in = testbedInput();
        const QString evil = QStringLiteral("it's\"$(touch /tmp/x) `id`\\n");
        const QString longName = QString(3000, QLatin1Char('x'));
        const QString bad = SlurmRecords::decode(QByteArray("bad\xff\xfe"));
        in.partitions[0].name = evil;
        in.partitions[1].name = longName;
        in.partitions[2].name = bad;
        in.partitions[2].qos = evil;
        in.qos[1].name = evil;
        in.config.values[QStringLiteral("ClusterName")] = QStringLiteral("$(rm -rf ~) \"x\"");
        for (auto &n : in.nodes)
            n.partitions = {evil, longName, bad, QStringLiteral("gpumedium")};
        in.associations[0].account = evil;
        const BuiltProfile b = ProfileBuilder::build(in, nullptr);
        QCOMPARE(b.profile.id, QStringLiteral("rm--rf-----x-"));
        const QByteArray json = ProfileJson::write(b.profile);
        QJsonParseError err;
        QJsonDocument::fromJson(json, &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
        const ClusterProfile back = roundTrip(b.profile);
        QCOMPARE(back.partitions.size(), 4);
        QVERIFY(back.partition(evil));
        QVERIFY(back.partition(longName));
        QVERIFY(back.partition(bad));
        QCOMPARE(back.partition(bad)->qos, evil);
        QCOMPARE(back.qosNamed(evil)->maxGpusPerJob, 2);
        QCOMPARE(back.accountExample, evil);
    }

    void qosLimitBlocksWithQosNamed()
    {
        const ClusterProfile p = roundTrip(ProfileBuilder::build(testbedInput(), nullptr).profile);
        const Diagnostics ds = validateJob(ddp(p.id, QStringLiteral("gpusmall"), 3), p);
        const Diagnostic *d = byRule(ds, QStringLiteral("partition-gpu-limit"));
        QVERIFY(d);
        QCOMPARE(d->severity, Severity::Error);
        QVERIFY2(d->message.startsWith(QStringLiteral("Partition gpusmall allows at most 2 GPUs per job (QOS gpusmall: "
                                                      "MaxTRESPerJob gres/gpu=2); 3 requested.")),
                 qPrintable(d->message));
        QVERIFY(!hasErrors(validateJob(ddp(p.id, QStringLiteral("gpusmall"), 2), p)));

        // A QOS stricter than anything the partition says: its own rule.
        ClusterProfile q = p;
        Partition &gpu = q.partitions[0];
        gpu.qos = QStringLiteral("gpusmall");
        const Diagnostics ds2 = validateJob(ddp(p.id, QStringLiteral("gpu"), 4), q);
        const Diagnostic *d2 = byRule(ds2, QStringLiteral("qos-gpu-limit"));
        QVERIFY(d2);
        QVERIFY2(d2->message.startsWith(QStringLiteral("QOS gpusmall of partition gpu allows at most 2 GPUs per job "
                                                       "(MaxTRESPerJob gres/gpu=2); 4 requested.")),
                 qPrintable(d2->message));
        q.qos[0].maxWallSeconds = 3600;
        JobSpec longJob = ddp(p.id, QStringLiteral("gpu"), 2);
        longJob.time = QStringLiteral("02:00:00");
        QVERIFY(byRule(validateJob(longJob, q), QStringLiteral("qos-time-limit")));
    }

    void genericProfileInventsNothing()
    {
        ProfileRegistry reg;
        reg.loadDirectory(QStringLiteral(SCALELAB_TESTS_DIR "/../profiles"), false);
        const ClusterProfile *g = reg.find(QStringLiteral("generic"));
        QVERIFY(g);
        const Partition *gpu = g->partition(QStringLiteral("gpu"));
        QCOMPARE(gpu->unknown, (QStringList{"gpusPerNode", "cpusPerNode", "memoryPerNodeMB", "maxNodes", "maxTime"}));
        // A correct 2-node DDP job (8 GPUs, 4 per node, 3 days, 200G) gets no error and no warning from a made-up number.
        JobSpec s = ddp(QStringLiteral("generic"), QStringLiteral("gpu"), 8, 2);
        s.time = QStringLiteral("3-00:00:00");
        s.memory = QStringLiteral("200G");
        s.account.clear();
        const Diagnostics ds = validateJob(s, *g);
        QCOMPARE(rules(ds, Severity::Error), QStringList());
        QCOMPARE(rules(ds, Severity::Warning), QStringList());
        const Diagnostic *info = byRule(ds, QStringLiteral("limit-unknown"));
        QVERIFY(info);
        QCOMPARE(info->severity, Severity::Info);
        QVERIFY2(info->message.contains(QStringLiteral("gpusPerNode, cpusPerNode, memoryPerNodeMB, maxNodes, maxTime")),
                 qPrintable(info->message));
    }
};

QTEST_GUILESS_MAIN(TestDiscoveryProfile)
#include "tst_discovery_profile.moc"
