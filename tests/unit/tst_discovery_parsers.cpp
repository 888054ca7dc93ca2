// SPDX-License-Identifier: GPL-3.0-or-later
// Parsers of `scontrol show partition|node|config`, `sinfo` and `sacctmgr`,
// on real captures from other projects (../shared/slurm-outputs, values read
// by hand from the files) and on hostile synthetic output.
#include "core/discovery/SacctmgrParsers.h"
#include "core/discovery/ScontrolParsers.h"
#include "core/discovery/SlurmRecords.h"

#include <QFile>
#include <QtTest>

using namespace scalelab;

namespace {

QString shared(const QString &name)
{
#ifdef SCALELAB_SHARED_DIR
    QFile f(QStringLiteral(SCALELAB_SHARED_DIR "/slurm-outputs/") + name);
    if (f.open(QIODevice::ReadOnly))
        return SlurmRecords::decode(f.readAll());
#endif
    return {};
}

#define SHARED_OR_SKIP(var, name)                                                                                      \
    const QString var = shared(QStringLiteral(name));                                                                  \
    if (var.isEmpty())                                                                                                 \
        QSKIP("../shared/slurm-outputs is absent: the real captures cannot be read");

const PartitionFacts *byName(const QList<PartitionFacts> &ps, const QString &n)
{
    for (const auto &p : ps)
        if (p.name == n)
            return &p;
    return nullptr;
}

}   // namespace

class TestDiscoveryParsers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void partitionsOscOneLine()
    {
        SHARED_OR_SKIP(text, "scontrol__OSC__unknown__show-part-o-owens.txt");
        const auto r = ScontrolParsers::partitions(text);
        QCOMPARE(r.items.size(), 15);
        QVERIFY(r.diagnostics.isEmpty());
        const PartitionFacts *batch = byName(r.items, QStringLiteral("batch"));
        QVERIFY(batch);
        QVERIFY(batch->isDefault);
        QCOMPARE(batch->state, QStringLiteral("INACTIVE"));
        QCOMPARE(batch->maxTimeSeconds, SlurmLimit(7 * 86400));
        QCOMPARE(batch->maxNodes, SlurmLimit(0));   // UNLIMITED
        QCOMPARE(batch->defMemPerCpuMB, std::nullopt);
        QCOMPARE(batch->maxMemPerNodeMB, SlurmLimit(0));
        const PartitionFacts *gp = byName(r.items, QStringLiteral("gpuparallel"));
        QVERIFY(gp);
        QVERIFY(!gp->isDefault);
        QCOMPARE(gp->qos, QStringLiteral("owens-gpu-partition"));
        QCOMPARE(gp->maxTimeSeconds, SlurmLimit(4 * 86400));
        QCOMPARE(gp->defaultTimeSeconds, SlurmLimit(3600));
        QCOMPARE(gp->minNodes, SlurmLimit(2));
        QCOMPARE(gp->maxNodes, SlurmLimit(8));
        QCOMPARE(gp->maxCpusPerNode, SlurmLimit(28));
        QVERIFY(gp->exclusive);
        QCOMPARE(gp->defMemPerCpuMB, SlurmLimit(4315));
        QCOMPARE(gp->maxMemPerCpuMB, SlurmLimit(4315));
        QCOMPARE(gp->nodes, QStringLiteral("o[0649-0659,0661-0701,0703-0722,0724-0805]"));
        QVERIFY(gp->allowQos.isEmpty());   // ALL
        const PartitionFacts *hp = byName(r.items, QStringLiteral("hugemem-parallel"));
        QVERIFY(hp);
        QCOMPARE(hp->allowAccounts, (QStringList{"pzs0708", "pzs0710", "pzs0712", "pas1061", "pys0343", "pes0843"}));
        const PartitionFacts *debug = byName(r.items, QStringLiteral("debug"));
        QCOMPARE(debug->qos, QStringLiteral("debug"));
        QCOMPARE(debug->maxTimeSeconds, SlurmLimit(3600));
        QCOMPARE(debug->maxNodes, SlurmLimit(2));
        const PartitionFacts *dyn = byName(r.items, QStringLiteral("dynamic"));
        QCOMPARE(dyn->nodes, QStringLiteral("(null)"));
        QCOMPARE(dyn->maxTimeSeconds, SlurmLimit(0));
    }

    void nodesMultiLine1711()
    {
        SHARED_OR_SKIP(text, "scontrol__irush-cs__17.11__show-node-anonymised.txt");
        const auto r = ScontrolParsers::nodes(text);
        QCOMPARE(r.items.size(), 4);
        const NodeFacts &n = r.items[0];
        QCOMPARE(n.name, QStringLiteral("cortex-01"));
        QCOMPARE(n.cpus, 16);
        QCOMPARE(n.sockets, 2);
        QCOMPARE(n.coresPerSocket, 8);
        QCOMPARE(n.realMemoryMB, 257860);
        QCOMPARE(n.memSpecLimitMB, 1024);
        QCOMPARE(n.usableMemoryMB(), 256836);
        QCOMPARE(n.gpus(), 8);
        QCOMPARE(n.gpuType(), QStringLiteral("m60"));
        QCOMPARE(n.features, QStringList{QStringLiteral("cortex")});
        QCOMPARE(n.partitions, (QStringList{"short", "killable"}));
        QCOMPARE(n.version, QStringLiteral("17.11"));
        QCOMPARE(r.items[1].name, QStringLiteral("dumfries-002"));
        QCOMPARE(r.items[1].gpuType(), QStringLiteral("rtx2080"));
        QCOMPARE(r.items[1].gpus(), 4);
        const NodeFacts &c = r.items[3];   // no Version=, a second GRES after the GPU
        QCOMPARE(c.name, QStringLiteral("cricket"));
        QCOMPARE(c.gpus(), 1);
        QCOMPARE(c.gpuType(), QStringLiteral("quadro"));
        QCOMPARE(c.cpus, 8);
        QCOMPARE(c.usableMemoryMB(), 7907 - 1024);
        QCOMPARE(c.partitions, (QStringList{"short", "long", "debug", "other", "allowed", "deny"}));
        QCOMPARE(c.version, QString());
    }

    void nodesAau2108()
    {
        SHARED_OR_SKIP(text, "scontrol__aau-claaudia__21.08.8-2__show-node-doc-capture.txt");
        const auto r = ScontrolParsers::nodes(text);
        QCOMPARE(r.items.size(), 1);
        const NodeFacts &n = r.items[0];
        QCOMPARE(n.cpus, 64);
        QCOMPARE(n.threadsPerCore, 2);
        QCOMPARE(n.realMemoryMB, 244584);
        QCOMPARE(n.gpus(), 6);
        QCOMPARE(n.gpuType(), QStringLiteral("t4"));
        QVERIFY(n.features.isEmpty());   // (null)
        QCOMPARE(n.partitions, (QStringList{"batch", "prioritized"}));
        QCOMPARE(n.version, QStringLiteral("21.08.8-2"));
    }

    void nodesAws2205And2302()
    {
        SHARED_OR_SKIP(text, "scontrol__aws__22.05.7-and-23.02.4__show-nodes.txt");
        const auto r = ScontrolParsers::nodes(text);
        QCOMPARE(r.items.size(), 3);
        const NodeFacts &n = r.items[0];
        QCOMPARE(n.name, QStringLiteral("queue1-st-compute-resource-1-1"));
        QCOMPARE(n.cpus, 2);   // CPUEfctv
        QCOMPARE(n.realMemoryMB, 3891);
        QCOMPARE(n.gpus(), 0);
        QCOMPARE(n.state, QStringLiteral("DOWN+CLOUD+REBOOT_ISSUED"));
        QCOMPARE(n.features, (QStringList{"static", "t2.medium", "compute-resource-1"}));
        QCOMPARE(n.version, QStringLiteral("22.05.7"));
        QCOMPARE(r.items[2].version, QStringLiteral("23.02.4"));
    }

    void nodesCfgTresOnly()
    {
        SHARED_OR_SKIP(text, "scontrol__rug-cit-hpc__unknown__show-o-nodes.txt");
        const auto r = ScontrolParsers::nodes(text);
        QCOMPARE(r.items.size(), 183);
        int a100 = 0, v100 = 0;
        for (const auto &n : r.items) {
            if (n.gpuType() == QLatin1String("a100")) {
                ++a100;
                QCOMPARE(n.gpus(), 4);
                QCOMPARE(n.cpus, 64);
                QCOMPARE(n.realMemoryMB, 514404);
            } else if (n.gpuType() == QLatin1String("v100")) {
                ++v100;
                QCOMPARE(n.gpus(), 1);
            }
        }
        QCOMPARE(a100, 6);
        QCOMPARE(v100, 34);
    }

    void sinfoDefaultTable()
    {
        SHARED_OR_SKIP(text, "sinfo__aau-claaudia__21.08.8-2__default-doc-capture.txt");
        const auto r = SinfoParser::parse(text);
        QCOMPARE(r.items.size(), 3);
        QCOMPARE(r.items[0].partition, QStringLiteral("batch"));
        QVERIFY(r.items[0].defaultPartition);
        QCOMPARE(r.items[0].timeLimitSeconds, SlurmLimit(12 * 3600));
        QCOMPARE(r.items[1].nodes, 8);
        QCOMPARE(r.items[2].partition, QStringLiteral("prioritized"));
        QVERIFY(!r.items[2].defaultPartition);
        QCOMPARE(r.items[2].timeLimitSeconds, SlurmLimit(6 * 86400));
        QCOMPARE(r.items[2].state, QStringLiteral("idle"));
    }

    void sinfoFixedColumns()
    {
        SHARED_OR_SKIP(text, "sinfo__OSC__unknown__ahNO-nodehost-gres-gresused-statelong-long_hostnames.txt");
        const QStringList cols{"nodehost", "gres", "gresused", "statelong"};
        const auto r = SinfoParser::parse(text, cols);
        QCOMPARE(r.items.size(), 3);
        QCOMPARE(r.items[0].node, QStringLiteral("gpu-node-01.cluster.example.org"));
        QCOMPARE(r.items[0].gres.size(), 1);
        QCOMPARE(r.items[0].gres[0].type, QStringLiteral("tesla"));
        QCOMPARE(r.items[0].gres[0].count, 8);
        QCOMPARE(r.items[1].gresUsed[0].count, 4);
        QCOMPARE(r.items[2].gresUsed[0].count, 0);
        QCOMPARE(r.items[2].state, QStringLiteral("drained"));

        SHARED_OR_SKIP(osc, "sinfo__OSC__unknown__ahNO-nodehost-gres-gresused-statelong-EXCERPT-first100.txt");
        const auto o = SinfoParser::parse(osc, cols);
        QCOMPARE(o.items.size(), 100);
        QCOMPARE(o.items[0].node, QStringLiteral("a0001"));
        QCOMPARE(o.items[0].gres[0].name, QStringLiteral("gpu"));
        QCOMPARE(o.items[0].gres[0].type, QStringLiteral("a100"));
        QCOMPARE(o.items[0].gres[0].count, 4);
        QCOMPARE(o.items[0].gres[1].name, QStringLiteral("nsight"));   // no_consume dropped
        QCOMPARE(o.items[0].gres[1].count, 1);
    }

    void configKeyValue()
    {
        const QString text = QStringLiteral(
            "Configuration data as of 2026-11-23T10:00:00\n"
            "AccountingStorageTRES   = cpu,mem,energy,node,billing,fs/disk,vmem,pages,gres/gpu,gres/gpu:v100\n"
            "ClusterName             = testbed\n"
            "DefMemPerCPU            = 1000\n"
            "GresTypes               = gpu\n"
            "MaxArraySize            = 1001\n"
            "SelectType              = select/cons_tres\n"
            "SelectTypeParameters    = CR_CORE_MEMORY\n"
            "SLURM_VERSION           = 22.05.8\n"
            "\n"
            "Cgroup Support Configuration:\n"
            "AllowedDevicesFile      = /etc/slurm/cgroup_allowed_devices_file.conf\n");
        const ConfigFacts c = ScontrolParsers::config(text);
        QCOMPARE(c.version(), QStringLiteral("22.05.8"));
        QCOMPARE(c.value(QStringLiteral("SelectType")), QStringLiteral("select/cons_tres"));
        QCOMPARE(c.value(QStringLiteral("MaxArraySize")), QStringLiteral("1001"));
        QCOMPARE(c.value(QStringLiteral("DefMemPerCPU")), QStringLiteral("1000"));
        QVERIFY(c.accountingCountsGpus());
        QVERIFY(!ScontrolParsers::config(QStringLiteral("AccountingStorageTRES = cpu,gres/gpu:a100\n"))
                     .accountingCountsGpus());
    }

    void sacctmgrAssocAndQos()
    {
        const QString assoc = QStringLiteral("Cluster|Account|User|Partition|QOS|Def QOS|\n"
                                             "testbed|project_2001234|researcher||gpusmall,normal|normal|\n");
        const auto a = SacctmgrParsers::associations(assoc);
        QCOMPARE(a.items.size(), 1);
        QCOMPARE(a.items[0].account, QStringLiteral("project_2001234"));
        QCOMPARE(a.items[0].qos, (QStringList{"gpusmall", "normal"}));
        QCOMPARE(a.items[0].defaultQos, QStringLiteral("normal"));
        // 22.05 prints MaxTRES; later releases may print the long name.
        for (const char *h :
             {"Name|MaxWall|MaxTRES|MaxTRESPU|MaxJobsPU|Flags", "Name|Flags|MaxTRESPerJob|MaxWall|MaxJobsPerUser"}) {
            const bool longNames = QByteArray(h).contains("PerJob");
            const QString row = longNames ? QStringLiteral("gpusmall|DenyOnLimit|gres/gpu=2,node=1|1-12:00:00|4")
                                          : QStringLiteral("gpusmall|1-12:00:00|gres/gpu=2,node=1||4|DenyOnLimit");
            const auto q = SacctmgrParsers::qos(QString::fromLatin1(h) + QLatin1Char('\n') + row + QLatin1Char('\n'));
            QCOMPARE(q.items.size(), 1);
            QCOMPARE(q.items[0].name, QStringLiteral("gpusmall"));
            QCOMPARE(q.items[0].maxGpusPerJob(), std::optional<int>(2));
            QCOMPARE(q.items[0].maxNodesPerJob(), std::optional<int>(1));
            QCOMPARE(q.items[0].maxWallSeconds, SlurmLimit(36 * 3600));
            QCOMPARE(q.items[0].maxJobsPerUser, SlurmLimit(4));
            QCOMPARE(q.items[0].flags, QStringLiteral("DenyOnLimit"));
        }
        const auto none =
            SacctmgrParsers::qos(QStringLiteral("Name|MaxWall|MaxTRES|MaxTRESPU|MaxJobsPU|Flags\nnormal|||||\n"));
        QCOMPARE(none.items[0].maxGpusPerJob(), std::nullopt);
        QCOMPARE(none.items[0].maxWallSeconds, std::nullopt);
    }

    // The connection test's `sacctmgr -P show assoc user=... format=Account,Partition`:
    // read by the same parser as discovery, then grouped by account.
    void sacctmgrAccountsAndPartitions()
    {
        const QString text = QStringLiteral("Account|Partition\n"
                                            "project_2|gpu\n"
                                            "project_1|\n"
                                            "project_2|gputest\n"
                                            "project_2|gpu\n");
        const auto a = SacctmgrParsers::associations(text);
        QCOMPARE(a.items.size(), 4);
        QCOMPARE(SacctmgrParsers::byAccount(a.items),
                 (QList<AccountPartitions>{{QStringLiteral("project_1"), {}},
                                           {QStringLiteral("project_2"), {"gpu", "gputest"}}}));
        // --parsable (a '|' after every cell) reads the same; a '|' inside a name stays in it.
        const auto trailing =
            SacctmgrParsers::associations(QStringLiteral("Account|Partition|\nproject_1||\nodd|name|gpu|\n"));
        QCOMPARE(SacctmgrParsers::byAccount(trailing.items),
                 (QList<AccountPartitions>{{QStringLiteral("odd|name"), {"gpu"}}, {QStringLiteral("project_1"), {}}}));
        // No association: nothing (the dialog says so), never an empty account.
        QVERIFY(SacctmgrParsers::byAccount(SacctmgrParsers::associations(QStringLiteral("Account|Partition\n")).items)
                    .isEmpty());
        QVERIFY(
            SacctmgrParsers::byAccount(SacctmgrParsers::associations(QStringLiteral("Account|Partition\n|gpu\n")).items)
                .isEmpty());
    }

    void defaultTimeNoneIsKnown()
    {
        // DefaultTime=NONE says a job asking no time gets MaxTime: a fact,
        // unlike a DefaultTime Slurm did not print.
        const auto r = ScontrolParsers::partitions(QStringLiteral("PartitionName=a DefaultTime=NONE State=UP\n"
                                                                  "PartitionName=b State=DOWN\n"
                                                                  "PartitionName=c DefaultTime=02:00:00 State=UP\n"));
        QCOMPARE(r.items.size(), 3);
        QCOMPARE(r.items[0].defaultTimeSeconds, SlurmLimit(0));
        QCOMPARE(r.items[1].defaultTimeSeconds, std::nullopt);
        QCOMPARE(r.items[1].state, QStringLiteral("DOWN"));
        QCOMPARE(r.items[2].defaultTimeSeconds, SlurmLimit(7200));
        SHARED_OR_SKIP(text, "scontrol__OSC__unknown__show-part-o-owens.txt");
        const auto owens = ScontrolParsers::partitions(text);
        QCOMPARE(byName(owens.items, QStringLiteral("systems"))->defaultTimeSeconds, SlurmLimit(0));
        QCOMPARE(byName(owens.items, QStringLiteral("gpudebug"))->defaultTimeSeconds, SlurmLimit(1800));
    }

    void qosGpusPerUser()
    {
        const auto q = SacctmgrParsers::qos(QStringLiteral("Name|MaxWall|MaxTRES|MaxTRESPU|MaxJobsPU|Flags\n"
                                                           "shared|04:00:00|gres/gpu=3|cpu=64,gres/gpu=6|2|\n"
                                                           "normal|||||\n"));
        QCOMPARE(q.items.size(), 2);
        QCOMPARE(q.items[0].maxGpusPerUser(), std::optional<int>(6));
        QCOMPARE(q.items[0].maxGpusPerJob(), std::optional<int>(3));
        QCOMPARE(q.items[1].maxGpusPerUser(), std::nullopt);
    }

    void hostileNames()
    {
        // Quotes, $(), spaces, a 5000-character name and a non-UTF-8 byte.
        const QString longName = QString(5000, QLatin1Char('p'));
        QByteArray bytes = "PartitionName=it's\"$(touch /tmp/x) Default=YES MaxTime=01:00:00 MaxNodes=1 State=UP\n"
                           "PartitionName=with space MaxTime=UNLIMITED State=UP\n"
                           "PartitionName=";
        bytes += longName.toLatin1();
        bytes += " MaxTime=5 State=UP\nPartitionName=bad\xff\xfe MaxTime=10 State=UP\n";
        const auto r = ScontrolParsers::partitions(SlurmRecords::decode(bytes));
        QCOMPARE(r.items.size(), 4);
        QCOMPARE(r.items[0].name, QStringLiteral("it's\"$(touch /tmp/x)"));
        QVERIFY(r.items[0].isDefault);
        QCOMPARE(r.items[1].name, QStringLiteral("with space"));
        QCOMPARE(r.items[2].name.size(), 5000);
        QCOMPARE(r.items[2].maxTimeSeconds, SlurmLimit(300));
        QCOMPARE(r.items[3].name, QStringLiteral("bad\uFFFD\uFFFD"));
        QCOMPARE(r.items[3].maxTimeSeconds, SlurmLimit(600));
    }
};

QTEST_GUILESS_MAIN(TestDiscoveryParsers)
#include "tst_discovery_parsers.moc"
