// SPDX-License-Identifier: GPL-3.0-or-later
// Discovered facts -> profile (sources, node kinds, QOS), the profile file
// (hostile names), `profiles check` differences, and the validator with QOS
// limits and with the honest generic profile.
#include "DiscoveryFixtures.h"

#include "core/compose/JobValidator.h"
#include "core/compose/SbatchRenderer.h"
#include "core/discovery/ProfileCheck.h"
#include "core/discovery/ProfileJson.h"
#include "core/discovery/SlurmRecords.h"
#include "core/profiles/ProfileLoader.h"
#include "core/profiles/ProfileRegistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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

// A copy, not a pointer: callers pass validateJob's result straight in, and a
// pointer into that temporary list dangles at the end of the statement.
std::optional<Diagnostic> byRule(const Diagnostics &ds, const QString &rule)
{
    for (const auto &d : ds)
        if (d.rule == rule)
            return d;
    return std::nullopt;
}

// The testbed with the Slurm settings a real site has: a DefaultTime, memory
// defaults and a memory limit, billing weights, a DOWN partition, accounts
// and QOS restricted, and a partition whose State and DefaultTime Slurm did
// not print.
DiscoveryInput siteWithSettings()
{
    DiscoveryInput in = testbedInput();
    in.partitions =
        ScontrolParsers::partitions(
            QStringLiteral(
                "PartitionName=gpu AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL Default=YES QoS=N/A "
                "DefaultTime=01:00:00 MaxNodes=2 MaxTime=3-00:00:00 MinNodes=0 Nodes=tb-node[1-2] OverSubscribe=NO "
                "State=UP JobDefaults=DefCpuPerGPU=2,DefMemPerGPU=3000 DefMemPerCPU=1000 MaxMemPerNode=12000 "
                "TRESBillingWeights=CPU=1.0,Mem=0.25G,GRES/gpu=8.0\n"
                "PartitionName=gputest AllowAccounts=project_2001234,project_2009999 AllowQos=normal,gputest "
                "Default=NO QoS=N/A DefaultTime=NONE MaxNodes=2 MaxTime=00:15:00 MinNodes=0 Nodes=tb-node[1-2] "
                "OverSubscribe=NO State=DOWN JobDefaults=(null) DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED\n"
                "PartitionName=gpusmall AllowAccounts=project_2009999 AllowQos=ALL Default=NO QoS=gpusmall "
                "MaxNodes=1 MaxTime=3-00:00:00 MinNodes=0 Nodes=tb-node[1-2] OverSubscribe=NO DefMemPerCPU=1000 "
                "MaxMemPerCPU=2000\n"))
            .items;
    for (auto &n : in.nodes)
        n.partitions = QStringList{QStringLiteral("gpu"), QStringLiteral("gputest"), QStringLiteral("gpusmall")};
    return in;
}

// Two accounts, each with its own default QOS; sacctmgr output as printed.
DiscoveryInput siteWithAssociationQos()
{
    DiscoveryInput in = testbedInput();
    in.associations = SacctmgrParsers::associations(
                          QStringLiteral("Cluster|Account|User|Partition|QOS|Def QOS|\n"
                                         "testbed|project_2001234|researcher||gpulimited,normal|gpulimited|\n"
                                         "testbed|project_2005555|researcher||gpuuser|gpuuser|\n"))
                          .items;
    in.qos = SacctmgrParsers::qos(QStringLiteral("Name|MaxWall|MaxTRES|MaxTRESPU|MaxJobsPU|MaxTRESPerNode|Flags|\n"
                                                 "normal||||||\n"
                                                 "gpusmall||gres/gpu=2||||DenyOnLimit|\n"
                                                 "gpulimited|04:00:00|gres/gpu=3||2||DenyOnLimit|\n"
                                                 "gpuuser|||gres/gpu=6|||DenyOnLimit|\n"))
                 .items;
    return in;
}

const QStringList kSettings = {"state",           "defaultTime",    "allowAccounts",
                               "allowQos",        "defMemPerCpuMB", "defMemPerGpuMB",
                               "maxMemPerNodeMB", "defCpusPerGpu",  "tresBillingWeights"};

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
        // Composed with that profile, the names never leave their #SBATCH
        // line: no line of the script is the text after a newline or quote.
        ClusterProfile withNewline = back;
        withNewline.partitions[0].name = QStringLiteral("gpu\nrm -rf ~");
        withNewline.partitions[0].gpuType = QStringLiteral("v100\ntouch /tmp/x");
        const QString script = renderSbatch(ddp(back.id, withNewline.partitions[0].name, 1), withNewline);
        QVERIFY2(script.contains(QLatin1String("#SBATCH --partition=INVALID\n")), qPrintable(script));
        for (const QString &line : script.split(QLatin1Char('\n'))) {
            QVERIFY2(!line.startsWith(QLatin1String("rm ")), qPrintable(script));
            QVERIFY2(!line.startsWith(QLatin1String("touch ")), qPrintable(script));
        }
    }

    void qosLimitBlocksWithQosNamed()
    {
        const ClusterProfile p = roundTrip(ProfileBuilder::build(testbedInput(), nullptr).profile);
        const Diagnostics ds = validateJob(ddp(p.id, QStringLiteral("gpusmall"), 3), p);
        const auto d = byRule(ds, QStringLiteral("partition-gpu-limit"));
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
        const auto d2 = byRule(ds2, QStringLiteral("qos-gpu-limit"));
        QVERIFY(d2);
        QVERIFY2(d2->message.startsWith(QStringLiteral("QOS gpusmall of partition gpu allows at most 2 GPUs per job "
                                                       "(MaxTRESPerJob gres/gpu=2); 4 requested.")),
                 qPrintable(d2->message));
        q.qos[0].maxWallSeconds = 3600;
        JobSpec longJob = ddp(p.id, QStringLiteral("gpu"), 2);
        longJob.time = QStringLiteral("02:00:00");
        QVERIFY(byRule(validateJob(longJob, q), QStringLiteral("qos-time-limit")));
    }

    void slurmSettingsRoundTrip()
    {
        const BuiltProfile b = ProfileBuilder::build(siteWithSettings(), nullptr);
        const ClusterProfile &p = b.profile;
        QCOMPARE(p.partitions.size(), 3);
        const QString gpuSource = QStringLiteral("scontrol show partition gpu (on testbed, 2026-11-23)");
        const Partition *gpu = p.partition(QStringLiteral("gpu"));
        QCOMPARE(gpu->state, QStringLiteral("UP"));
        QCOMPARE(gpu->defaultTimeSeconds, std::optional<qint64>(3600));
        QVERIFY(gpu->allowAccounts.isEmpty());   // ALL
        QCOMPARE(gpu->defMemPerCpuMB, 1000);
        QCOMPARE(gpu->defMemPerGpuMB, 3000);
        QCOMPARE(gpu->defCpusPerGpu, 2);
        QCOMPARE(gpu->maxMemPerNodeMB, 12000);
        QCOMPARE(gpu->tresBillingWeights, QStringLiteral("CPU=1.0,Mem=0.25G,GRES/gpu=8.0"));
        for (const QString &k : kSettings)
            QCOMPARE(gpu->sources.value(k), gpuSource);
        const Partition *test = p.partition(QStringLiteral("gputest"));
        QCOMPARE(test->state, QStringLiteral("DOWN"));
        QCOMPARE(test->defaultTimeSeconds, std::optional<qint64>(0));   // NONE: MaxTime applies
        QCOMPARE(test->allowAccounts, (QStringList{"project_2001234", "project_2009999"}));
        QCOMPARE(test->allowQos, (QStringList{"normal", "gputest"}));
        QCOMPARE(test->defMemPerCpuMB, 0);
        QVERIFY(!test->sources.contains(QStringLiteral("tresBillingWeights")));   // none set
        const Partition *small = p.partition(QStringLiteral("gpusmall"));
        QCOMPARE(small->unknown, (QStringList{"state", "defaultTime"}));   // not printed: never guessed
        QVERIFY(small->isKnown(QStringLiteral("maxMemPerNodeMB")));   // MaxMemPerCPU instead: no per-node limit
        QCOMPARE(small->maxMemPerNodeMB, 0);

        // In the file: every setting with its source, an unknown one as null.
        const QByteArray json = ProfileJson::write(p);
        const QJsonArray parts = QJsonDocument::fromJson(json).object().value(QStringLiteral("partitions")).toArray();
        const QJsonObject gpuJson = parts[0].toObject();
        QCOMPARE(gpuJson.value(QStringLiteral("maxMemPerNodeMB")).toObject(),
                 (QJsonObject{{"value", 12000}, {"source", gpuSource}}));
        QCOMPARE(gpuJson.value(QStringLiteral("allowAccounts")).toObject().value(QStringLiteral("value")),
                 QJsonValue(QStringLiteral("ALL")));
        QCOMPARE(gpuJson.value(QStringLiteral("defaultTime")).toObject().value(QStringLiteral("value")),
                 QJsonValue(QStringLiteral("01:00:00")));
        const QJsonObject testJson = parts[1].toObject();
        QCOMPARE(testJson.value(QStringLiteral("defaultTime")).toObject().value(QStringLiteral("value")),
                 QJsonValue(QStringLiteral("NONE")));
        QCOMPARE(testJson.value(QStringLiteral("state")).toObject().value(QStringLiteral("value")),
                 QJsonValue(QStringLiteral("DOWN")));
        const QJsonObject smallJson = parts[2].toObject();
        QVERIFY(smallJson.value(QStringLiteral("state")).toObject().value(QStringLiteral("value")).isNull());
        QCOMPARE(smallJson.value(QStringLiteral("state")).toObject().value(QStringLiteral("source")).toString(),
                 QStringLiteral("scontrol show partition gpusmall (on testbed, 2026-11-23)"));

        // And back through the loader unchanged.
        const ClusterProfile back = roundTrip(p);
        QCOMPARE(back.partitions.size(), 3);
        for (const Partition &mine : p.partitions) {
            const Partition *r = back.partition(mine.name);
            QVERIFY(r);
            QCOMPARE(r->state, mine.state);
            QCOMPARE(r->defaultTimeSeconds, mine.defaultTimeSeconds);
            QCOMPARE(r->allowAccounts, mine.allowAccounts);
            QCOMPARE(r->allowQos, mine.allowQos);
            QCOMPARE(r->defMemPerCpuMB, mine.defMemPerCpuMB);
            QCOMPARE(r->defMemPerGpuMB, mine.defMemPerGpuMB);
            QCOMPARE(r->maxMemPerNodeMB, mine.maxMemPerNodeMB);
            QCOMPARE(r->defCpusPerGpu, mine.defCpusPerGpu);
            QCOMPARE(r->tresBillingWeights, mine.tresBillingWeights);
            for (const QString &k : kSettings) {
                QCOMPARE(r->isKnown(k), mine.isKnown(k));
                QCOMPARE(r->sources.value(k), mine.sources.value(k));
            }
        }
        QVERIFY(ProfileCheck::compare(back, p).isEmpty());
    }

    void partitionSettingsChecked()
    {
        const ClusterProfile p = roundTrip(ProfileBuilder::build(siteWithSettings(), nullptr).profile);
        // State: a DOWN partition holds jobs.
        JobSpec test = ddp(p.id, QStringLiteral("gputest"), 4);
        test.time = QStringLiteral("00:10:00");
        const Diagnostics down = validateJob(test, p);
        const auto d = byRule(down, QStringLiteral("partition-not-up"));
        QVERIFY(d);
        QCOMPARE(d->severity, Severity::Warning);
        QVERIFY2(d->message.startsWith(QStringLiteral("Partition gputest was DOWN when it was read (scontrol show "
                                                      "partition gputest (on testbed, 2026-11-23)): jobs wait")),
                 qPrintable(d->message));
        QCOMPARE(rules(down, Severity::Error), QStringList());   // project_2001234 is in its AllowAccounts
        const Diagnostics up = validateJob(ddp(p.id, QStringLiteral("gpu"), 4), p);
        QVERIFY(!byRule(up, QStringLiteral("partition-not-up")));
        QCOMPARE(rules(up, Severity::Error), QStringList());

        // AllowAccounts: the job's account, or the only account the researcher has.
        const Diagnostics denied = validateJob(ddp(p.id, QStringLiteral("gpusmall"), 2), p);
        const auto a = byRule(denied, QStringLiteral("account-not-allowed"));
        QVERIFY(a);
        QCOMPARE(a->severity, Severity::Error);
        QVERIFY2(a->message.startsWith(QStringLiteral("Partition gpusmall accepts only accounts project_2009999 "
                                                      "(AllowAccounts, scontrol show partition gpusmall (on testbed, "
                                                      "2026-11-23)); project_2001234 is not one of them.")),
                 qPrintable(a->message));
        JobSpec allowed = ddp(p.id, QStringLiteral("gpusmall"), 2);
        allowed.account = QStringLiteral("project_2009999");
        const Diagnostics other = validateJob(allowed, p);
        QVERIFY(!byRule(other, QStringLiteral("account-not-allowed")));
        QVERIFY(byRule(other, QStringLiteral("account-no-association")));   // not one of the researcher's
        JobSpec noAccount = ddp(p.id, QStringLiteral("gpusmall"), 2);
        noAccount.account.clear();
        const auto implied = byRule(validateJob(noAccount, p), QStringLiteral("account-not-allowed"));
        QVERIFY(implied);
        QVERIFY2(implied->message.contains(QStringLiteral("your account project_2001234 is not one of them")),
                 qPrintable(implied->message));
        // The default account not known: skipped with an info, never an error.
        ClusterProfile noAssoc = p;
        noAssoc.associations.clear();
        const Diagnostics unknown = validateJob(noAccount, noAssoc);
        QCOMPARE(rules(unknown, Severity::Error), QStringList());
        QVERIFY(byRule(unknown, QStringLiteral("account-not-checked")));

        // DefaultTime explains the time a job asking none gets.
        JobSpec noTime = ddp(p.id, QStringLiteral("gpu"), 4);
        noTime.time.clear();
        const auto t = byRule(validateJob(noTime, p), QStringLiteral("time-default"));
        QVERIFY(t);
        QCOMPARE(t->severity, Severity::Info);
        QVERIFY2(t->message.startsWith(QStringLiteral("With no time limit the job gets partition gpu's DefaultTime, "
                                                      "01:00:00")),
                 qPrintable(t->message));
        noTime.partition = QStringLiteral("gputest");
        const auto none = byRule(validateJob(noTime, p), QStringLiteral("time-default"));
        QVERIFY(none);
        QVERIFY2(none->message.endsWith(QStringLiteral("gets its MaxTime, 00:15:00.")), qPrintable(none->message));
        // gpusmall's State and DefaultTime are not known: no warning, no time info, one limit-unknown info.
        noTime.partition = QStringLiteral("gpusmall");
        noTime.account = QStringLiteral("project_2009999");
        noTime.gpus = 2;
        const Diagnostics small = validateJob(noTime, p);
        QVERIFY(!byRule(small, QStringLiteral("partition-not-up")));
        QVERIFY(!byRule(small, QStringLiteral("time-default")));
        QVERIFY(byRule(small, QStringLiteral("limit-unknown"))->message.contains(QStringLiteral("state, defaultTime")));

        // MaxMemPerNode below the nodes' memory (a hand-written node size).
        ClusterProfile mem = p;
        mem.partitions[0].memoryPerNodeMB = 16000;
        JobSpec big = ddp(p.id, QStringLiteral("gpu"), 4);
        big.memory = QStringLiteral("14G");
        const auto m = byRule(validateJob(big, mem), QStringLiteral("partition-memory-limit"));
        QVERIFY(m);
        QCOMPARE(m->severity, Severity::Error);
        QCOMPARE(m->fix.value, QStringLiteral("12000M"));
        big.memory = QStringLiteral("11G");
        QVERIFY(!byRule(validateJob(big, mem), QStringLiteral("partition-memory-limit")));
        // No memory asked: DefMemPerGPU says what the job gets.
        const auto def = byRule(up, QStringLiteral("memory-default"));
        QVERIFY(def);
        QVERIFY2(def->message.startsWith(QStringLiteral("No memory request: partition gpu gives 12000 MB per node "
                                                        "(DefMemPerGPU=3000 MB x 4 GPUs")),
                 qPrintable(def->message));
    }

    void associationQosEnforcedWithQosNamed()
    {
        const BuiltProfile b = ProfileBuilder::build(siteWithAssociationQos(), nullptr);
        QCOMPARE(b.profile.associations.size(), 2);
        QCOMPARE(b.profile.associations[0].defaultQos, QStringLiteral("gpulimited"));
        QCOMPARE(b.profile.associations[0].source, QStringLiteral("sacctmgr show assoc (on testbed, 2026-11-23)"));
        const ClusterProfile p = roundTrip(b.profile);
        QCOMPARE(p.associations, b.profile.associations);
        QCOMPARE(p.qos, b.profile.qos);
        QVERIFY(!p.qosNamed(QStringLiteral("normal")));   // no association's default, and no limits
        const QosLimits *limited = p.qosNamed(QStringLiteral("gpulimited"));
        QVERIFY(limited);
        QCOMPARE(limited->maxGpusPerJob, 3);
        QCOMPARE(limited->maxWallSeconds, 4 * 3600);
        QCOMPARE(limited->maxJobsPerUser, 2);
        QCOMPARE(p.qosNamed(QStringLiteral("gpuuser"))->maxGpusPerUser, 6);

        // MaxTRESPerJob gres/gpu of the association's QOS, named.
        const Diagnostics ds = validateJob(ddp(p.id, QStringLiteral("gpu"), 4), p);
        const auto d = byRule(ds, QStringLiteral("qos-gpu-limit"));
        QVERIFY(d);
        QCOMPARE(d->severity, Severity::Error);
        QVERIFY2(d->message.startsWith(QStringLiteral("QOS gpulimited (the default QOS of your association with "
                                                      "account project_2001234) allows at most 3 GPUs per job "
                                                      "(MaxTRESPerJob gres/gpu=3); 4 requested.")),
                 qPrintable(d->message));
        QCOMPARE(d->fix.value, QStringLiteral("3"));   // another partition does not escape the association's QOS
        // MaxWall.
        JobSpec longJob = ddp(p.id, QStringLiteral("gpu"), 2);
        longJob.time = QStringLiteral("05:00:00");
        const auto t = byRule(validateJob(longJob, p), QStringLiteral("qos-time-limit"));
        QVERIFY(t);
        QVERIFY2(t->message.startsWith(QStringLiteral("05:00:00 exceeds the MaxWall of 04:00:00 set by QOS gpulimited "
                                                      "(the default QOS of your association")),
                 qPrintable(t->message));
        // Within the limits: no error; MaxJobsPerUser is said.
        const Diagnostics fine = validateJob(ddp(p.id, QStringLiteral("gpu"), 2), p);
        QCOMPARE(rules(fine, Severity::Error), QStringList());
        QVERIFY(byRule(fine, QStringLiteral("qos-jobs-per-user")));
        // MaxTRESPerUser gres/gpu of the other account's QOS: the job could never start.
        JobSpec wide = ddp(p.id, QStringLiteral("gpu"), 8, 2);
        wide.account = QStringLiteral("project_2005555");
        const auto u = byRule(validateJob(wide, p), QStringLiteral("qos-user-gpu-limit"));
        QVERIFY(u);
        QVERIFY2(u->message.startsWith(QStringLiteral("QOS gpuuser (the default QOS of your association with account "
                                                      "project_2005555) lets all your running jobs together use at "
                                                      "most 6 GPUs (MaxTRESPerUser gres/gpu=6); 8 requested")),
                 qPrintable(u->message));
        // The partition QOS sets the per-job GPU limit: it takes precedence.
        const Diagnostics small = validateJob(ddp(p.id, QStringLiteral("gpusmall"), 3), p);
        QVERIFY(byRule(small, QStringLiteral("partition-gpu-limit")));
        QVERIFY(!byRule(small, QStringLiteral("qos-gpu-limit")));
        // No account and two accounts with different QOS: not known, so an info and no error.
        JobSpec noAccount = ddp(p.id, QStringLiteral("gpu"), 4);
        noAccount.account.clear();
        const Diagnostics unknown = validateJob(noAccount, p);
        QCOMPARE(rules(unknown, Severity::Error), QStringList());
        QVERIFY(byRule(unknown, QStringLiteral("association-qos-unknown")));
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
        const auto info = byRule(ds, QStringLiteral("limit-unknown"));
        QVERIFY(info);
        QCOMPARE(info->severity, Severity::Info);
        QVERIFY2(info->message.contains(QStringLiteral("gpusPerNode, cpusPerNode, memoryPerNodeMB, maxNodes, maxTime")),
                 qPrintable(info->message));
    }
};

QTEST_GUILESS_MAIN(TestDiscoveryProfile)
#include "tst_discovery_profile.moc"
