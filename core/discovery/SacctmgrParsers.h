// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/discovery/ScontrolParsers.h"

namespace scalelab {

// One account of the researcher with the partitions its associations name
// (none: every partition), for a connection test's summary.
struct AccountPartitions {
    QString account;
    QStringList partitions;   // in the order printed, each once; empty = all partitions
    bool operator==(const AccountPartitions &) const = default;
};

// `sacctmgr -P show assoc ... format=Cluster,Account,User,Partition,QOS,DefaultQOS`
// and `sacctmgr -P show qos format=Name,MaxWall,MaxTRES,MaxTRESPU,MaxJobsPU,MaxTRESPerNode,Flags`,
// read by their header line so added or reordered columns do not matter.
class SacctmgrParsers {
public:
    static ParsedList<AssociationFacts> associations(const QString &text);
    static ParsedList<QosFacts> qos(const QString &text);
    // The associations grouped by account (sorted by account name).
    static QList<AccountPartitions> byAccount(const QList<AssociationFacts> &associations);
};

// `sinfo` output: the default table (header PARTITION AVAIL TIMELIMIT NODES
// STATE NODELIST) or a fixed `-h -N -O`/`-o` list whose columns the caller
// names (nodehost, partition, cpus, memory, gres, gresused, statelong,
// features, timelimit). Columns are separated by blanks; `*` after a
// partition marks the default.
struct SinfoRow {
    QString node;
    QString partition;
    bool defaultPartition = false;
    QString avail;
    SlurmLimit timeLimitSeconds;
    int nodes = 0;
    int cpus = 0;
    qint64 memoryMB = 0;
    QList<GresItem> gres;
    QList<GresItem> gresUsed;
    QString state;
    QStringList features;
    QString nodeList;
};

class SinfoParser {
public:
    static ParsedList<SinfoRow> parse(const QString &text, const QStringList &columns = {});
};

}   // namespace scalelab
