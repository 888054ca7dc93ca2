// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/discovery/DiscoveryScript.h"

#include "core/base/ShellQuote.h"
#include "core/discovery/SacctmgrParsers.h"
#include "core/discovery/ScontrolParsers.h"
#include "core/discovery/SlurmRecords.h"
#include "core/model/SoftwareCatalog.h"

#include <QMap>

namespace scalelab {

namespace {

struct Section {
    const char *name;
    const char *command;   // fixed text: read-only queries
    const char *shown = nullptr;   // how a failure names it; nullptr = the command up to " format="
};

// The module system is a shell function that a login shell's /etc/profile.d
// defines; a plain `sh -c` has it only where the site exports it. Lmod's
// spider lists every module, also those behind a hierarchy; Environment
// Modules has only avail. Both print to stderr. Exit 3: no module system.
// No '!' anywhere: the SSH layer refuses to send one (history expansion).
constexpr const char *kModulesCommand =
    "( exec 2>&1; command -v module >/dev/null || [ -n \"${LMOD_CMD:-}\" ] || "
    "for f in /etc/profile.d/lmod.sh /etc/profile.d/z00_lmod.sh /etc/profile.d/modules.sh; do "
    "if [ -r \"$f\" ]; then . \"$f\" >/dev/null; break; fi; done; "
    "command -v module >/dev/null || exit 3; "
    "if [ -n \"${LMOD_CMD:-}\" ]; then echo 'lmod spider'; module -t spider; "
    "else echo 'modules avail'; module -t avail; fi )";
constexpr int kNoModuleSystem = 3;

const Section kSections[] = {
    {"version", "scontrol --version"},
    {"config", "scontrol show config"},
    {"partitions", "scontrol -o show partition"},
    {"nodes", "scontrol -o show node"},
    {"associations",
     "sacctmgr -P show assoc where user=\"$(id -un)\" format=Cluster,Account,User,Partition,QOS,DefaultQOS"},
    {"qos", "sacctmgr -P show qos format=Name,MaxWall,MaxTRES,MaxTRESPU,MaxJobsPU,MaxTRESPerNode,Flags"},
    {"modules", kModulesCommand, "module -t spider"},
};

QString shownCommand(const Section &s)
{
    return s.shown ? QString::fromLatin1(s.shown)
                   : QString::fromLatin1(s.command).section(QLatin1String(" format="), 0, 0);
}

// The module listing: its first line says which system answered.
void readModules(const QString &text, int rc, DiscoveryInput &in)
{
    if (rc != 0)
        return;
    const qsizetype eol = text.indexOf(QLatin1Char('\n'));
    const QString first = text.left(eol).trimmed();
    in.modulesCommand =
        first == QLatin1String("lmod spider") ? QStringLiteral("module -t spider") : QStringLiteral("module -t avail");
    in.modules = SoftwareCatalog::parseModuleListing(eol < 0 ? QString() : text.mid(eol + 1));
}

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

QStringList DiscoveryScript::imageListingArgv(const QStringList &containerDirs)
{
    QString script = QStringLiteral("( ");
    for (const QString &dir : containerDirs)
        script += QStringLiteral("for f in %1/*; do [ -f \"$f\" ] && printf '%s/%s\\n' %2 \"${f##*/}\"; done; ")
                      .arg(ShellQuote::quoteExpandingVariables(dir), ShellQuote::quote(dir));
    script += QStringLiteral(") 2>/dev/null | head -n 20000");
    return {QStringLiteral("sh"), QStringLiteral("-c"), script};
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
        if (name == QLatin1String("modules") && rc.value(name, -1) == kNoModuleSystem)
            out.diagnostics << finding(Severity::Info, QStringLiteral("discovery-no-module-system"), name, 0,
                                       QStringLiteral("%1 has no `module` command in a plain shell (nor in "
                                                      "/etc/profile.d): modules are not checked, they stay as "
                                                      "written.")
                                           .arg(alias));
        else if (!rc.contains(name) || rc.value(name) != 0)
            out.diagnostics << finding(Severity::Warning, QStringLiteral("discovery-command-failed"), name, 0,
                                       QStringLiteral("`%1` %2 on %3; what it tells stays unknown.")
                                           .arg(shownCommand(s),
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
    readModules(text.value(QStringLiteral("modules")), rc.value(QStringLiteral("modules"), -1), in);
    out.diagnostics << parts.diagnostics << nodes.diagnostics << assoc.diagnostics << qos.diagnostics;
    return out;
}

}   // namespace scalelab
