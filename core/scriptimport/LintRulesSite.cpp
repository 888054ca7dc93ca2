// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/ProfileFacts.h"
#include "core/scriptimport/LintRules.h"
#include "core/scriptimport/SitePluginOptions.h"

#include <QHash>

// Options that Slurm itself does not define. Whether one is a mistake depends
// on what the profile states about the site's SPANK plugins: where it lists
// them, an option none of them defines is refused; where it does not, a
// plugin may define it, so the finding is an info.

namespace scalelab {

namespace {

quint64 positionKey(int line, int column)
{
    return (quint64(quint32(line)) << 32) | quint32(column);
}

// --nodess, --image ...: a name sbatch does not know, neither abbreviated
// nor misspelt with underscores (those have their own findings).
bool isUnknownName(const QString &name)
{
    bool ambiguous = false;
    if (findSbatchLongOption(name, &ambiguous) || ambiguous || removedSbatchOption(name))
        return false;
    const QString dashed = QString(name).replace(QLatin1Char('_'), QLatin1Char('-'));
    return dashed == name || !findSbatchLongOption(dashed);
}

}   // namespace

void lintSiteOptions(ScriptImport &imp, const ClusterProfile &profile)
{
    const ProfileFacts facts(profile);
    QHash<quint64, const SbatchOption *> at;
    for (const SbatchOption &o : imp.options)
        at.insert(positionKey(o.line, o.column), &o);
    const QString site = profile.name.isEmpty() ? profile.id : profile.name;
    for (Diagnostic &d : imp.diagnostics) {
        const SbatchOption *o = at.value(positionKey(d.line, d.column));
        if (!o)
            continue;
        if (d.rule == QLatin1String("site-plugin-option") && facts.statesPlugins()) {
            const SitePluginOption *p = findSitePluginOption(o->name);
            if (!p || facts.runsPlugin(QLatin1String(p->plugin)))
                continue;
            d.severity = Severity::Warning;
            d.message = QStringLiteral("--%1 is an option of the %2 plugin, which %3 does not run (its profile lists "
                                       "its plugins); sbatch refuses the script there. Remove it.")
                            .arg(o->name, QLatin1String(p->plugin), site);
        } else if (d.rule == QLatin1String("unknown-option") && d.severity == Severity::Warning
                   && !facts.statesPlugins() && isUnknownName(o->name)) {
            d.severity = Severity::Info;
            d.message = QStringLiteral("--%1 is not an sbatch option (Slurm 22.05 to 24.11); a site plugin may "
                                       "define it. Profile %2 does not list the site's plugins: if sbatch refuses "
                                       "the script, check the spelling.")
                            .arg(InputLimits::quoted(o->name), site);
        }
    }
}

}   // namespace scalelab
