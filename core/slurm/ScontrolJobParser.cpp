// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/slurm/ScontrolJobParser.h"

#include "core/base/RemoteValidation.h"
#include "core/base/Saturating.h"
#include "core/slurm/SlurmOutputShape.h"
#include "core/slurm/TresString.h"

#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace scalelab {

QString gpuCountSourceId(GpuCountSource s)
{
    switch (s) {
    case GpuCountSource::None:
        return QStringLiteral("none");
    case GpuCountSource::AllocTres:
        return QStringLiteral("AllocTRES");
    case GpuCountSource::ReqTres:
        return QStringLiteral("ReqTRES");
    case GpuCountSource::TresPerJob:
        return QStringLiteral("TresPerJob");
    case GpuCountSource::TresPerNode:
        return QStringLiteral("TresPerNode");
    case GpuCountSource::TresPerTask:
        return QStringLiteral("TresPerTask");
    case GpuCountSource::Spec:
        return QStringLiteral("spec");
    }
    return {};
}

QString ScontrolJob::allocTres() const
{
    if (fields.contains(QStringLiteral("AllocTRES")))
        return value(QStringLiteral("AllocTRES"));
    // 22.05's single TRES= is the allocation only once the job has nodes.
    const JobState s = state();
    return s == JobState::Pending ? QString() : value(QStringLiteral("TRES"));
}

QString ScontrolJob::reqTres() const
{
    if (fields.contains(QStringLiteral("ReqTRES")))
        return value(QStringLiteral("ReqTRES"));
    return state() == JobState::Pending ? value(QStringLiteral("TRES")) : QString();
}

GpuCount ScontrolJob::gpus() const
{
    auto fromTres = [](const QString &tres) -> std::optional<int> {
        const auto g = TresString::parse(tres).gpuCount();
        if (!g || !(*g > 0))
            return std::nullopt;
        return roundedToInt(*g);
    };
    auto request = [&](const char *key) { return TresString::gpusInGresRequest(value(QString::fromLatin1(key))); };
    auto positive = [](const QString &v) {
        bool ok = false;
        const int n = v.toInt(&ok);
        return ok && n > 0 ? n : 1;
    };
    if (const auto g = fromTres(allocTres()))
        return {*g, GpuCountSource::AllocTres};
    if (const auto g = fromTres(reqTres()))
        return {*g, GpuCountSource::ReqTres};
    if (const auto g = request("TresPerJob"); g && *g > 0)
        return {*g, GpuCountSource::TresPerJob};
    if (const auto g = request("TresPerNode"); g && *g > 0)
        return {saturatingMul(*g, positive(value(QStringLiteral("NumNodes")).section(QLatin1Char('-'), 0, 0))),
                GpuCountSource::TresPerNode};
    if (const auto g = request("TresPerTask"); g && *g > 0)
        return {saturatingMul(*g, positive(value(QStringLiteral("NumTasks")))), GpuCountSource::TresPerTask};
    return {};
}

ScontrolJobParseResult ScontrolJobParser::parse(const QByteArray &out)
{
    ScontrolJobParseResult result;
    const auto kind = SlurmOutputShape::classify(out, QString());
    if (kind == SlurmOutputShape::Kind::Empty)
        return result;
    if (kind != SlurmOutputShape::Kind::KeyValueRecords) {
        result.diagnostics << Diagnostic{
            Severity::Error,
            QStringLiteral("scontrol-layout"),
            {},
            1,
            0,
            QStringLiteral("scontrol show job output is %1, not Key=Value records; nothing was read")
                .arg(SlurmOutputShape::describe(kind)),
            QStringLiteral("run `scontrol show job` (optionally -o) without --json")};
        return result;
    }
    // A key starts at the line start or after a blank; values may hold blanks
    // (Command=, Reason=, OS=) and '=' (TRES lists) but never " Key=".
    static const QRegularExpression keyRe(QStringLiteral("(?:^|\\s)([A-Za-z][A-Za-z0-9_:/]*)="));
    const QStringList lines = QString::fromUtf8(out).split(QLatin1Char('\n'));
    ScontrolJob cur;
    auto flush = [&]() {
        if (cur.fields.isEmpty())
            return;
        if (!cur.fields.contains(QStringLiteral("JobId")))
            result.diagnostics << Diagnostic{
                Severity::Warning,
                QStringLiteral("scontrol-no-jobid"),
                {},
                cur.line,
                0,
                QStringLiteral("scontrol record at line %1 has no JobId; it was skipped").arg(cur.line),
                {}};
        else
            result.jobs << cur;
        cur = ScontrolJob{};
    };
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString line = lines[i];
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (line.trimmed().isEmpty()) {
            flush();
            continue;
        }
        // -o prints one job per line: a new "JobId=" at the line start opens a record.
        if (line.startsWith(QLatin1String("JobId=")))
            flush();
        if (cur.fields.isEmpty())
            cur.line = int(i + 1);
        QList<QRegularExpressionMatch> keys;
        for (auto it = keyRe.globalMatch(line); it.hasNext();)
            keys << it.next();
        for (qsizetype k = 0; k < keys.size(); ++k) {
            const qsizetype valueStart = keys[k].capturedEnd(0);
            const qsizetype valueEnd = k + 1 < keys.size() ? keys[k + 1].capturedStart(0) : line.size();
            const QString key = keys[k].captured(1);
            if (!cur.fields.contains(key))
                cur.fields.insert(key, line.mid(valueStart, valueEnd - valueStart).trimmed());
        }
    }
    flush();
    return result;
}

}   // namespace scalelab
