// SPDX-License-Identifier: GPL-3.0-or-later
// GpuSampleParser: files, merging several hosts, and the summary over timelines
// (the text parsing is in GpuSampleParser.cpp).
#include "core/ingest/GpuSampleParser.h"

#include "core/base/InputLimits.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cmath>

namespace scalelab {

const GpuTimeline *GpuSampleSummary::find(const QString &key) const
{
    for (const GpuTimeline &g : gpus)
        if (g.key == key)
            return &g;
    return nullptr;
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

namespace {

// Mean and peak of one sensor's samples; NaN (not sampled) left out.
void sensorSummary(const QVector<double> &v, std::optional<double> &mean, std::optional<double> &peak)
{
    double sum = 0, top = 0;
    qint64 n = 0;
    for (double x : v)
        if (!std::isnan(x)) {
            top = n ? std::max(top, x) : x;
            sum += x;
            ++n;
        }
    mean = n ? std::optional<double>(sum / double(n)) : std::nullopt;
    peak = n ? std::optional<double>(top) : std::nullopt;
}

}   // namespace

void GpuSampleParser::finalize(GpuSampleSummary &s)
{
    std::sort(s.gpus.begin(), s.gpus.end(), [](const GpuTimeline &a, const GpuTimeline &b) {
        return a.host != b.host ? a.host < b.host : (a.index != b.index ? a.index < b.index : a.key < b.key);
    });
    double utilSum = 0, memSum = 0;
    qint64 utilN = 0, memN = 0;
    s.durationSeconds = 0;
    s.meanUtilPercent = s.peakUtilPercent = s.meanMemUsedMiB = s.peakMemUsedMiB = std::nullopt;
    for (GpuTimeline &g : s.gpus) {
        double gu = 0, gm = 0, pu = -1, pm = -1;
        qint64 nu = 0, nm = 0;
        for (qsizetype i = 0; i < g.seconds.size(); ++i) {
            const double u = g.utilPercent[i], m = g.memUsedMiB[i];
            if (!std::isnan(u)) {
                gu += u;
                ++nu;
                pu = std::max(pu, u);
            }
            if (!std::isnan(m)) {
                gm += m;
                ++nm;
                pm = std::max(pm, m);
            }
        }
        g.meanUtilPercent = nu ? std::optional<double>(gu / nu) : std::nullopt;
        g.peakUtilPercent = nu ? std::optional<double>(pu) : std::nullopt;
        g.meanMemUsedMiB = nm ? std::optional<double>(gm / nm) : std::nullopt;
        g.peakMemUsedMiB = nm ? std::optional<double>(pm) : std::nullopt;
        sensorSummary(g.tempC, g.meanTempC, g.peakTempC);
        sensorSummary(g.powerW, g.meanPowerW, g.peakPowerW);
        utilSum += gu;
        utilN += nu;
        memSum += gm;
        memN += nm;
        if (nu)
            s.peakUtilPercent = std::max(s.peakUtilPercent.value_or(pu), pu);
        if (nm)
            s.peakMemUsedMiB = std::max(s.peakMemUsedMiB.value_or(pm), pm);
        if (!g.seconds.isEmpty())
            s.durationSeconds = std::max(s.durationSeconds, g.seconds.back());
    }
    if (utilN)
        s.meanUtilPercent = utilSum / utilN;
    if (memN)
        s.meanMemUsedMiB = memSum / memN;
    if (s.rows > 0)
        s.noSamples = false;
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
    finalize(out);
    return out;
}

}   // namespace scalelab
