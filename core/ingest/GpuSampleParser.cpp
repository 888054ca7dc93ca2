// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/GpuSampleParser.h"

#include "core/base/InputLimits.h"
#include "core/ingest/GpuSampleReader.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>

namespace scalelab {

GpuSampleSummary GpuSampleParser::parse(QByteArrayView data, const GpuSampleParseOptions &options)
{
    return GpuSampleReader::read(data, options);
}

QString GpuSampleParser::hostFromFileName(const QString &fileName)
{
    const QString base = QFileInfo(fileName).fileName();
    static const QString prefix = QStringLiteral("scalelab-gpu-");
    if (!base.startsWith(prefix) || !base.endsWith(QLatin1String(".csv")))
        return {};
    const QString rest = base.mid(prefix.size(), base.size() - prefix.size() - 4);
    // The job id is digits (array jobs: 123_4); the host may contain dashes.
    const qsizetype dash = rest.indexOf(u'-');
    if (dash <= 0)
        return {};
    for (QChar c : rest.left(dash))
        if (!c.isDigit() && c != u'_')
            return {};
    return rest.mid(dash + 1);
}

GpuSampleSummary GpuSampleParser::parseFile(const QString &path, double sampleSeconds)
{
    GpuSampleParseOptions o;
    o.fileName = path;
    o.sampleSeconds = sampleSeconds;
    auto opened = InputLimits::openFile(path, QStringLiteral("GPU sample file"));
    if (!opened) {
        GpuSampleSummary s;
        s.noSamplesReason = QStringLiteral("the file could not be read");
        s.diagnostics.append({Severity::Error, QStringLiteral("gpu-csv-unreadable"), {}, 0, 0, opened.errorText(), {}});
        return s;
    }
    QFile &f = **opened;
    if (f.size() == 0)
        return parse({}, o);
    // Mapping avoids copying files of 100 MB and more.
    if (uchar *p = f.map(0, f.size()))
        return parse(QByteArrayView(reinterpret_cast<const char *>(p), f.size()), o);
    const QByteArray bytes = f.readAll();
    return parse(bytes, o);
}

GpuSampleSummary GpuSampleParser::parseFiles(const QStringList &paths, double sampleSeconds)
{
    QList<GpuSampleSummary> parts;
    for (const QString &p : paths)
        parts.append(parseFile(p, sampleSeconds));
    return merge(parts);
}

GpuSampleSummary GpuSampleParser::merge(const QList<GpuSampleSummary> &parts)
{
    if (parts.size() == 1)
        return parts.front();
    GpuSampleSummary out;
    std::optional<double> origin;
    for (const GpuSampleSummary &p : parts)
        if (p.originEpochSeconds)
            origin = std::min(origin.value_or(*p.originEpochSeconds), *p.originEpochSeconds);
    QStringList reasons;
    for (const GpuSampleSummary &p : parts) {
        if (out.tool == GpuSampleSummary::Tool::Unknown)
            out.tool = p.tool;
        out.rows += p.rows;
        out.skippedLines += p.skippedLines;
        out.diagnostics.append(p.diagnostics);
        if (!p.noSamplesReason.isEmpty() && !reasons.contains(p.noSamplesReason))
            reasons.append(p.noSamplesReason);
        const double shift = (origin && p.originEpochSeconds) ? *p.originEpochSeconds - *origin : 0.0;
        for (GpuTimeline g : p.gpus) {
            if (shift != 0.0)
                for (double &t : g.seconds)
                    t += shift;
            out.gpus.append(g);
        }
    }
    out.originEpochSeconds = origin;
    out.noSamplesReason = reasons.join(QStringLiteral("; "));
    out.summarise();
    return out;
}

}   // namespace scalelab
