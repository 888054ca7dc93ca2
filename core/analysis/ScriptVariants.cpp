// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/ScriptVariants.h"

#include <algorithm>

namespace scalelab {

namespace {

QString joinNumbers(const QList<int> &values)
{
    QStringList unique;
    for (int v : values)
        if (!unique.contains(QString::number(v)))
            unique << QString::number(v);
    return unique.join(QStringLiteral(", "));
}

}   // namespace

QString ScriptVariant::runsText() const
{
    QStringList runs;
    for (qint64 id : runIds)
        runs << QString::number(id);
    return QStringLiteral("%1 %2 (%3 %4; %5 GPU%6)")
        .arg(runIds.size() == 1 ? QStringLiteral("run") : QStringLiteral("runs"), runs.join(QStringLiteral(", ")),
             jobIds.size() == 1 ? QStringLiteral("job") : QStringLiteral("jobs"), jobIds.join(QStringLiteral(", ")),
             joinNumbers(gpus), gpus.count(1) == gpus.size() ? QString() : QStringLiteral("s"));
}

QList<ScriptVariant> ScriptVariants::group(const QList<RunMetricsRow> &rows)
{
    QList<ScriptVariant> variants;
    for (const RunMetricsRow &r : rows) {
        auto it = std::find_if(variants.begin(), variants.end(),
                               [&r](const ScriptVariant &v) { return v.script == r.run.script; });
        if (it == variants.end()) {
            ScriptVariant v;
            v.script = r.run.script;
            if (!variants.isEmpty())
                v.diff = TextDiff::diff(variants.first().script, v.script);
            variants << v;
            it = variants.end() - 1;
        }
        it->runIds << r.run.id;
        it->jobIds << (r.run.jobId.isEmpty() ? QStringLiteral("–") : r.run.jobId);
        it->gpus << r.run.gpus;
    }
    return variants;
}

QString ScriptVariants::changedLines(const TextDiffResult &diff)
{
    QStringList out;
    for (const DiffLine &l : diff.lines) {
        if (l.kind == DiffLine::Kind::Removed)
            out << QStringLiteral("%1 - %2").arg(l.leftLine, 4).arg(l.text);
        else if (l.kind == DiffLine::Kind::Added)
            out << QStringLiteral("%1 + %2").arg(l.rightLine, 4).arg(l.text);
    }
    return out.join(u'\n');
}

}   // namespace scalelab
