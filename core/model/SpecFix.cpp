// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/SpecFix.h"
#include "core/model/SpecFields.h"

#include <QRegularExpression>

namespace scalelab {

namespace {

QString setInt(int &target, const Fix &fix, int resetTo, int min)
{
    if (fix.clear) {
        target = resetTo;
        return {};
    }
    bool ok = false;
    const int v = fix.value.trimmed().toInt(&ok);
    if (!ok || v < min)
        return QStringLiteral("fix for \"%1\": \"%2\" is not a whole number >= %3").arg(fix.field, fix.value).arg(min);
    target = v;
    return {};
}

QStringList splitList(const QString &text)
{
    static const QRegularExpression sep(QStringLiteral("[,\\s]+"));
    return text.split(sep, Qt::SkipEmptyParts);
}

}   // namespace

QString applyFix(JobSpec &spec, const Fix &fix)
{
    const QString f = fix.field;
    const QString v = fix.clear ? QString() : fix.value;
    if (f == QLatin1String("gpus"))
        return setInt(spec.gpus, fix, 0, 0);
    if (f == QLatin1String("nodes"))
        return setInt(spec.nodes, fix, 0, 0);
    if (f == QLatin1String(SpecField::cpusPerGpu))
        return setInt(spec.cpusPerGpu, fix, 0, 0);
    if (f == QLatin1String("monitoring.gpuSampleSeconds") || f == QLatin1String("gpuSampleSeconds"))
        return setInt(spec.gpuSampleSeconds, fix, 10, 0);
    if (f == QLatin1String("framework")) {
        if (fix.clear)
            return QStringLiteral("fix for \"framework\": a framework cannot be cleared");
        const auto fw = frameworkFromId(v);
        if (!fw)
            return QStringLiteral("fix for \"framework\": unknown framework \"%1\"").arg(v);
        spec.framework = *fw;
        if (spec.launcher && !launchersFor(*fw).contains(*spec.launcher))
            spec.launcher.reset();   // the old launcher would now be a mismatch
        return {};
    }
    if (f == QLatin1String("launcher")) {
        if (fix.clear || v.isEmpty()) {
            spec.launcher.reset();
            return {};
        }
        const auto l = launcherFromId(v);
        if (!l)
            return QStringLiteral("fix for \"launcher\": unknown launcher \"%1\"").arg(v);
        spec.launcher = *l;
        return {};
    }
    if (f == QLatin1String("profile"))
        spec.profile = v;
    else if (f == QLatin1String("partition"))
        spec.partition = v;
    else if (f == QLatin1String("time"))
        spec.time = v;
    else if (f == QLatin1String("account"))
        spec.account = v;
    else if (f == QLatin1String("jobName"))
        spec.jobName = v;
    else if (f == QLatin1String("program"))
        spec.program = v;
    else if (f == QLatin1String("memory"))
        spec.memory = v;
    else if (f == QLatin1String("args"))
        spec.args = splitList(v);
    else if (f == QLatin1String("environment.modules"))
        spec.environment.modules = splitList(v);
    else if (f == QLatin1String("environment.container.image"))
        spec.environment.container.image = v;
    else if (f == QLatin1String("environment.container.runtime"))
        spec.environment.container.runtime = v;
    else if (f == QLatin1String("environment.setup") && fix.clear)
        spec.environment.setup.clear();
    else if (f == QLatin1String("environment.variables") && fix.clear)
        spec.environment.variables.clear();
    else
        return QStringLiteral("fix for \"%1\": not a field a fix can set").arg(f);
    return {};
}

}   // namespace scalelab
