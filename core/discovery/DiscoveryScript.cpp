// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/discovery/DiscoveryScript.h"

#include "core/discovery/SacctmgrParsers.h"
#include "core/discovery/ScontrolParsers.h"
#include "core/discovery/SlurmRecords.h"

#include <QMap>

namespace scalelab {

namespace {

struct Section {
    const char *name;
    const char *command;   // fixed text: read-only Slurm queries
};

const Section kSections[] = {
    {"version", "scontrol --version"},
    {"config", "scontrol show config"},
    {"partitions", "scontrol -o show partition"},
    {"nodes", "scontrol -o show node"},
    {"associations",
     "sacctmgr -P show assoc where user=\"$(id -un)\" format=Cluster,Account,User,Partition,QOS,DefaultQOS"},
    {"qos", "sacctmgr -P show qos format=Name,MaxWall,MaxTRES,MaxTRESPU,MaxJobsPU,MaxTRESPerNode,Flags"},
};

}   // namespace

DiscoveryScript::DiscoveryScript(const QString &nonce)
    : m_marker(QStringLiteral("@@scalelab-%1@@").arg(nonce))
{}

QStringList DiscoveryScript::sectionNames()
{
    QStringList n;
    for (const auto &s : kSections)
        n << QString::fromLatin1(s.name);
    return n;
}

QStringList DiscoveryScript::argv() const
{
    // stderr is dropped (warnings would mix into tables); each exit code is kept.
    QString script = QStringLiteral("LC_ALL=C; export LC_ALL; ");
    for (const auto &s : kSections)
        script += QStringLiteral("echo '%1 %2'; %3 2>/dev/null; echo \"%1 rc $?\"; ")
                      .arg(m_marker, QString::fromLatin1(s.name), QString::fromLatin1(s.command));
    return {QStringLiteral("sh"), QStringLiteral("-c"), script.trimmed()};
}

DiscoveryScript::Parsed DiscoveryScript::parse(const QByteArray &output, const QString &alias,
                                               const QString &date) const
{
    Parsed out;
    QMap<QString, QString> text;
    QMap<QString, int> rc;
    QString current;
    const QString all = SlurmRecords::decode(output);
    for (const QString &line : all.split(QLatin1Char('\n'))) {
        if (line.startsWith(m_marker)) {
            const QString rest = line.mid(m_marker.size()).trimmed();
            if (rest.startsWith(QLatin1String("rc "))) {
                rc.insert(current, rest.mid(3).toInt());
                current.clear();
            } else {
                current = rest;
            }
            continue;
        }
        if (!current.isEmpty())
            text[current] += line + QLatin1Char('\n');
    }
    for (const auto &s : kSections) {
        const QString name = QString::fromLatin1(s.name);
        if (!rc.contains(name) || rc.value(name) != 0)
            out.diagnostics << finding(Severity::Warning, QStringLiteral("discovery-command-failed"), name, 0,
                                       QStringLiteral("`%1` %2 on %3; what it tells stays unknown.")
                                           .arg(QString::fromLatin1(s.command).section(QLatin1String(" format="), 0, 0),
                                                rc.contains(name) ? QStringLiteral("exited with %1").arg(rc.value(name))
                                                                  : QStringLiteral("did not run"),
                                                alias));
    }
    DiscoveryInput &in = out.input;
    in.alias = alias;
    in.date = date;
    in.versionText = text.value(QStringLiteral("version")).trimmed();
    in.config = ScontrolParsers::config(text.value(QStringLiteral("config")));
    auto parts = ScontrolParsers::partitions(text.value(QStringLiteral("partitions")));
    auto nodes = ScontrolParsers::nodes(text.value(QStringLiteral("nodes")));
    auto assoc = SacctmgrParsers::associations(text.value(QStringLiteral("associations")));
    auto qos = SacctmgrParsers::qos(text.value(QStringLiteral("qos")));
    in.partitions = parts.items;
    in.nodes = nodes.items;
    in.associations = assoc.items;
    in.qos = qos.items;
    out.diagnostics << parts.diagnostics << nodes.diagnostics << assoc.diagnostics << qos.diagnostics;
    return out;
}

}   // namespace scalelab
