// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Synthetic discovery output shaped like the loopback test cluster's (see
// tests/cluster/testcluster: slurm.conf and sacctmgr lines) and a generator
// for large sites, shared by the unit test and the benchmark.

#include "core/discovery/DiscoveryScript.h"
#include "core/discovery/SacctmgrParsers.h"
#include "core/discovery/ScontrolParsers.h"

#include <QString>

namespace scalelab::test {

inline QString testbedPartitionsText()
{
    return QStringLiteral(
        "PartitionName=gpu AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL AllocNodes=ALL Default=YES QoS=N/A "
        "DefaultTime=NONE DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO MaxNodes=2 MaxTime=3-00:00:00 "
        "MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED Nodes=tb-node[1-2] PriorityJobFactor=1 PriorityTier=1 RootOnly=NO "
        "ReqResv=NO OverSubscribe=NO OverTimeLimit=NONE PreemptMode=OFF State=UP TotalCPUs=16 TotalNodes=2 "
        "SelectTypeParameters=NONE JobDefaults=(null) DefMemPerCPU=1000 MaxMemPerNode=UNLIMITED\n"
        "PartitionName=gputest AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL Default=NO QoS=N/A MaxNodes=2 "
        "MaxTime=00:15:00 MinNodes=0 Nodes=tb-node[1-2] OverSubscribe=NO State=UP DefMemPerCPU=1000 "
        "MaxMemPerNode=UNLIMITED\n"
        "PartitionName=gpusmall AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL Default=NO QoS=gpusmall MaxNodes=1 "
        "MaxTime=3-00:00:00 MinNodes=0 Nodes=tb-node[1-2] OverSubscribe=NO State=UP DefMemPerCPU=1000 "
        "MaxMemPerNode=UNLIMITED\n"
        "PartitionName=gpumedium AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL Default=NO QoS=N/A MaxNodes=2 "
        "MaxTime=3-00:00:00 MinNodes=0 Nodes=tb-node[1-2] OverSubscribe=EXCLUSIVE State=UP DefMemPerCPU=1000 "
        "MaxMemPerNode=UNLIMITED\n");
}

inline QString testbedNodeLine(int i)
{
    return QStringLiteral("NodeName=tb-node%1 Arch=x86_64 CoresPerSocket=1 CPUAlloc=0 CPUEfctv=8 CPUTot=8 CPULoad=0.10 "
                          "AvailableFeatures=(null) ActiveFeatures=(null) Gres=gpu:v100:4 NodeAddr=127.0.0.1 "
                          "NodeHostName=vm Version=22.05.8 OS=Linux 6.1.0-27-amd64 #1 SMP PREEMPT_DYNAMIC Debian "
                          "RealMemory=16000 AllocMem=0 FreeMem=20000 Sockets=8 Boards=1 State=IDLE ThreadsPerCore=1 "
                          "TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A Partitions=gpu,gputest,gpusmall,gpumedium "
                          "BootTime=2026-11-23T08:00:00 SlurmdStartTime=2026-11-23T10:00:00 "
                          "CfgTRES=cpu=8,mem=16000M,billing=8,gres/gpu=4 AllocTRES= CapWatts=n/a\n")
        .arg(i);
}

inline QString testbedConfigText()
{
    return QStringLiteral(
        "Configuration data as of 2026-11-23T10:00:00\n"
        "AccountingStorageTRES   = cpu,mem,energy,node,billing,fs/disk,vmem,pages,gres/gpu,gres/gpu:v100\n"
        "ClusterName             = testbed\n"
        "DefMemPerCPU            = 1000\n"
        "EnforcePartLimits       = ALL\n"
        "GresTypes               = gpu\n"
        "MaxArraySize            = 1001\n"
        "SelectType              = select/cons_tres\n"
        "SLURM_VERSION           = 22.05.8\n");
}

inline DiscoveryInput testbedInput()
{
    DiscoveryInput in;
    in.alias = QStringLiteral("testbed");
    in.date = QStringLiteral("2026-11-23");
    in.login.alias = QStringLiteral("testbed");
    in.login.hostName = QStringLiteral("127.0.0.1");
    in.login.port = 2222;
    in.login.user = QStringLiteral("researcher");
    in.config = ScontrolParsers::config(testbedConfigText());
    in.partitions = ScontrolParsers::partitions(testbedPartitionsText()).items;
    in.nodes = ScontrolParsers::nodes(testbedNodeLine(1) + testbedNodeLine(2)).items;
    in.associations =
        SacctmgrParsers::associations(QStringLiteral("Cluster|Account|User|Partition|QOS|Def QOS|\n"
                                                     "testbed|project_2001234|researcher||gpusmall,normal||\n"))
            .items;
    in.qos = SacctmgrParsers::qos(QStringLiteral("Name|MaxWall|MaxTRES|MaxTRESPU|MaxJobsPU|MaxTRESPerNode|Flags|\n"
                                                 "normal||||||\n"
                                                 "gpusmall||gres/gpu=2||||DenyOnLimit|\n"))
                 .items;
    return in;
}

// `partitions` partitions over `nodes` nodes in 4 kinds (a100x4, a100x8, h100x4, cpu), 40 fields a node.
inline void largeSite(int partitions, int nodes, QString *partText, QString *nodeText)
{
    static const char *kinds[] = {"gpu:a100:4(S:0-3)", "gpu:a100:8(S:0-7)", "gpu:h100:4(S:0-3)", "(null)"};
    for (int p = 0; p < partitions; ++p)
        *partText +=
            QStringLiteral("PartitionName=part%1 AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL AllocNodes=ALL "
                           "Default=%2 QoS=N/A DefaultTime=01:00:00 DisableRootJobs=NO ExclusiveUser=NO "
                           "GraceTime=0 Hidden=NO MaxNodes=%3 MaxTime=%4-00:00:00 MinNodes=1 LLN=NO "
                           "MaxCPUsPerNode=UNLIMITED Nodes=n[%5-%6] PriorityJobFactor=1 PriorityTier=1 "
                           "RootOnly=NO ReqResv=NO OverSubscribe=NO OverTimeLimit=NONE PreemptMode=OFF State=UP "
                           "TotalCPUs=1000 TotalNodes=100 SelectTypeParameters=NONE JobDefaults=(null) "
                           "DefMemPerCPU=4000 MaxMemPerNode=UNLIMITED TRES=cpu=1000,mem=100G,node=100 "
                           "TRESBillingWeights=CPU=1.0,Mem=0.25G,GRES/gpu=8.0\n")
                .arg(p)
                .arg(p == 0 ? "YES" : "NO")
                .arg(1 + p % 16)
                .arg(1 + p % 7)
                .arg(p * 20)
                .arg(p * 20 + 100);
    for (int n = 0; n < nodes; ++n) {
        QStringList parts;
        for (int p = 0; p < partitions; ++p)
            if (n >= p * 20 && n <= p * 20 + 100)
                parts << QStringLiteral("part%1").arg(p);
        *nodeText +=
            QStringLiteral("NodeName=n%1 Arch=x86_64 CoresPerSocket=32 CPUAlloc=12 CPUEfctv=128 CPUTot=128 "
                           "CPULoad=3.20 AvailableFeatures=%2 ActiveFeatures=%2 Gres=%3 NodeAddr=n%1 "
                           "NodeHostName=n%1 Version=25.11.0 OS=Linux 5.14.0-427.el9.x86_64 #1 SMP PREEMPT_DYNAMIC "
                           "RealMemory=%4 AllocMem=0 FreeMem=500000 Sockets=2 Boards=1 State=MIXED "
                           "ThreadsPerCore=2 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A Partitions=%5 "
                           "BootTime=2026-11-01T08:00:00 SlurmdStartTime=2026-11-01T08:01:00 "
                           "LastBusyTime=2026-11-23T08:00:00 ResumeAfterTime=None CfgTRES=cpu=128,mem=%4M,billing=128 "
                           "AllocTRES=cpu=12 CurrentWatts=0 AveWatts=0\n")
                .arg(n)
                .arg(n % 4 == 2 ? "h100,ib" : "a100,ib")
                .arg(QString::fromLatin1(kinds[n % 4]))
                .arg(n % 4 == 1 ? 1000000 : 500000)
                .arg(parts.join(QLatin1Char(',')));
    }
}

}   // namespace scalelab::test
