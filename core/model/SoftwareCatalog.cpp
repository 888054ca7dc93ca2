// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/SoftwareCatalog.h"

#include "core/base/InputLimits.h"
#include "core/model/ClusterProfile.h"
#include "core/model/JobSpec.h"

#include <QRegularExpression>

#include <algorithm>

namespace scalelab {

namespace {

// What a module name may hold (the validator's module-name rule too).
bool looksLikeModule(const QString &s)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_.+@:-][A-Za-z0-9_.+/@:-]*$"));
    return re.match(s).hasMatch();
}

// "pytorch/2.6.0(default)" -> "pytorch/2.6.0"; Lmod and Environment Modules mark
// defaults, loaded and hidden modules after the name.
QString withoutMarks(QString line)
{
    static const QRegularExpression markStart(QStringLiteral("[\\s(<]"));
    line = line.trimmed();
    const qsizetype mark = line.indexOf(markStart);
    return mark < 0 ? line : line.left(mark);
}

QString nameOf(const QString &module)
{
    const qsizetype slash = module.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? module : module.left(slash);
}

void sortUnique(QStringList &l)
{
    std::sort(l.begin(), l.end());
    l.erase(std::unique(l.begin(), l.end()), l.end());
}

QString profileName(const ClusterProfile &p)
{
    return p.name.isEmpty() ? p.id : p.name;
}

QString shown(const QStringList &l)
{
    return l.join(QStringLiteral(", "));
}

Diagnostic warning(const char *rule, const QString &field, int line, const QString &message)
{
    return Diagnostic{Severity::Warning, QString::fromLatin1(rule), field, line, 0, message, {}};
}

QString refreshAdvice(const ClusterProfile &p)
{
    const QString alias = p.loginHosts.isEmpty() ? p.id : p.loginHosts.front().alias;
    return QStringLiteral(
               "or refresh the list (`scalelab discover %1`, or Clusters ▸ Refresh profile from cluster) if it was "
               "installed since.")
        .arg(alias);
}

}   // namespace

const QStringList &SoftwareCatalog::imageSuffixes()
{
    static const QStringList s{QStringLiteral(".sif"), QStringLiteral(".simg"), QStringLiteral(".sqsh"),
                               QStringLiteral(".squashfs"), QStringLiteral(".img")};
    return s;
}

QStringList SoftwareCatalog::parseModuleListing(const QString &text)
{
    QStringList out;
    for (QStringView raw : QStringView(text).split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed().toString();
        // "/path/to/modulefiles:" heads a folder; "name/" is a name with versions below.
        if (line.isEmpty() || line.endsWith(QLatin1Char(':')) || line.endsWith(QLatin1Char('/')))
            continue;
        const QString name = withoutMarks(line);
        // Messages ("Lmod has detected ...", "No modules found") hold spaces before the mark.
        if (name.size() != line.size() && !line.mid(name.size()).trimmed().startsWith(QLatin1Char('('))
            && !line.mid(name.size()).trimmed().startsWith(QLatin1Char('<')))
            continue;
        if (looksLikeModule(name))
            out << name;
    }
    sortUnique(out);
    return out;
}

QStringList SoftwareCatalog::parseImageListing(const QString &text)
{
    QStringList out;
    for (QStringView raw : QStringView(text).split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed().toString();
        if (!line.startsWith(QLatin1Char('/')) && !line.startsWith(QLatin1Char('$')))
            continue;
        if (std::any_of(imageSuffixes().begin(), imageSuffixes().end(),
                        [&](const QString &s) { return line.endsWith(s, Qt::CaseInsensitive); }))
            out << line;
    }
    sortUnique(out);
    return out;
}

bool SoftwareCatalog::moduleAvailable(const QString &request, const QStringList &available)
{
    // The list is sorted: every candidate starts with the request.
    auto it = std::lower_bound(available.begin(), available.end(), request);
    for (; it != available.end() && it->startsWith(request); ++it) {
        if (it->size() == request.size())
            return true;
        const QChar next = it->at(request.size());
        if (next == QLatin1Char('/'))
            return true;   // a name: its default version
        if (next == QLatin1Char('.') && request.contains(QLatin1Char('/')))
            return true;   // a version prefix ending at a dot
    }
    return false;
}

QStringList SoftwareCatalog::alternatives(const QString &request, const QStringList &available, int max)
{
    const QString name = request.contains(QLatin1Char('/')) ? nameOf(request) : request;
    QStringList out;
    for (const QString &m : available)
        if (nameOf(m).compare(name, Qt::CaseInsensitive) == 0 || m.compare(name, Qt::CaseInsensitive) == 0) {
            if (out.size() == max) {
                out << QStringLiteral("…");
                break;
            }
            out << m;
        }
    return out;
}

Diagnostics SoftwareCatalog::moduleFindings(const QString &module, const ClusterProfile &profile, const QString &field,
                                            int line)
{
    if (!profile.availableModules || module.startsWith(QLatin1Char('-')) || !looksLikeModule(module)
        || moduleAvailable(module, *profile.availableModules))
        return {};
    const QStringList alt = alternatives(module, *profile.availableModules);
    const QString source = profile.sources.value(QStringLiteral("availableModules"));
    const QString has = alt.isEmpty() ? QStringLiteral("has no module named %1").arg(nameOf(module))
                                      : QStringLiteral("has %1").arg(shown(alt));
    return {warning("module-not-on-cluster", field, line,
                    QStringLiteral("`module load %1` fails on %2: its module list (%3) %4. Load %5, %6")
                        .arg(InputLimits::quoted(module), profileName(profile),
                             source.isEmpty() ? QStringLiteral("as discovered") : source, has,
                             alt.isEmpty() ? QStringLiteral("a module the cluster has (`module spider NAME`)")
                                           : QStringLiteral("one of those"),
                             refreshAdvice(profile)))};
}

Diagnostics SoftwareCatalog::imageFindings(const QString &image, const ClusterProfile &profile, const QString &field,
                                           int line)
{
    if (!profile.containerImages || image.isEmpty() || profile.containerImages->contains(image))
        return {};
    const qsizetype slash = image.lastIndexOf(QLatin1Char('/'));
    if (slash <= 0)
        return {};
    const QString dir = image.left(slash);
    auto sameDir = [&](const QString &d) { return d == dir || d == dir + QLatin1Char('/'); };
    if (std::none_of(profile.containerDirs.begin(), profile.containerDirs.end(), sameDir))
        return {};   // a folder nobody listed: not known
    QStringList there;
    for (const QString &i : *profile.containerImages)
        if (i.left(i.lastIndexOf(QLatin1Char('/'))) == dir)
            there << i.mid(slash + 1);
    const QString source = profile.sources.value(QStringLiteral("containerImages"));
    return {warning("image-not-on-cluster", field, line,
                    QStringLiteral("Container image %1 is not in %2 on %3 (%4): %5. Use %6, %7")
                        .arg(InputLimits::quoted(image.mid(slash + 1)), dir, profileName(profile),
                             source.isEmpty() ? QStringLiteral("as discovered") : source,
                             there.isEmpty() ? QStringLiteral("the folder holds no image")
                                             : QStringLiteral("it holds %1").arg(shown(there)),
                             there.isEmpty() ? QStringLiteral("an image that exists") : QStringLiteral("one of those"),
                             refreshAdvice(profile)))};
}

Diagnostics SoftwareCatalog::check(const JobSpec &spec, const ClusterProfile &profile,
                                   const QHash<QString, int> &moduleLines, int imageLine)
{
    Diagnostics out;
    const bool moduleUse =
        std::any_of(spec.environment.setup.begin(), spec.environment.setup.end(), [](const QString &l) {
            return l.simplified().startsWith(QLatin1String("module use"))
                   || l.simplified().startsWith(QLatin1String("ml use"));
        });
    if (!moduleUse)
        for (const QString &m : spec.environment.modules)
            out << moduleFindings(m, profile, QStringLiteral("environment.modules"), moduleLines.value(m));
    out << imageFindings(spec.environment.container.image, profile, QStringLiteral("environment.container.image"),
                         imageLine);
    return out;
}

}   // namespace scalelab
