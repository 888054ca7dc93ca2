// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/LiveRunState.h"

#include "core/base/RemoteValidation.h"
#include "core/ingest/GpuSampleParser.h"
#include "core/ingest/LogMetricExtractor.h"
#include "core/model/MetricNames.h"

#include <algorithm>
#include <cmath>

namespace scalelab {

namespace {

// The complete lines of `carry + bytes`; what follows the last newline stays in `carry`.
QByteArray takeLines(QByteArray &carry, QByteArrayView bytes)
{
    carry.append(bytes.data(), bytes.size());
    const qsizetype end = carry.lastIndexOf('\n');
    if (end < 0)
        return {};
    QByteArray lines = carry.left(end + 1);
    carry.remove(0, end + 1);
    return lines;
}

template <typename T>
void keepLast(QVector<T> &v, int n)
{
    if (v.size() > n)
        v.remove(0, v.size() - n);
}

const LogMetricExtractor &extractor()
{
    static const LogMetricExtractor e;
    return e;
}

}   // namespace

// table: fixed text of a failure line -> the rule it raises
const QList<QPair<QByteArray, QString>> &LiveRunState::outputMarkers()
{
    static const QList<QPair<QByteArray, QString>> m = {
        {"Watchdog caught collective operation timeout", QStringLiteral("nccl-error")},
        {"ncclSystemError", QStringLiteral("nccl-error")},
        {"ncclRemoteError", QStringLiteral("nccl-error")},
        {"NCCL watchdog", QStringLiteral("nccl-error")},
        {"RCCL watchdog", QStringLiteral("nccl-error")},
        {"ProcessGroupNCCL's watchdog", QStringLiteral("nccl-error")},
        {"CUDA out of memory", QStringLiteral("gpu-oom")},
        {"OutOfMemoryError", QStringLiteral("gpu-oom")},
        {"CUDA error: out of memory", QStringLiteral("gpu-oom")},
        {"HIP out of memory", QStringLiteral("gpu-oom")},
        {"hipErrorOutOfMemory", QStringLiteral("gpu-oom")},
        {"cudaErrorMemoryAllocation", QStringLiteral("gpu-oom")},
    };
    return m;
}

void LiveRunState::setFirstSeen(double now)
{
    if (std::isnan(m_outputChanged))
        m_outputChanged = now;
}

const LiveGpu *LiveRunState::gpu(const QString &key) const
{
    for (const LiveGpu &g : m_gpus)
        if (g.key == key)
            return &g;
    return nullptr;
}

std::optional<double> LiveRunState::latestThroughput() const
{
    if (m_throughput.isEmpty())
        return std::nullopt;
    return m_throughput.last();
}

LiveRunView LiveRunState::view(qint64 runId, int recent) const
{
    LiveRunView v;
    v.runId = runId;
    for (const LiveGpu &g : m_gpus) {
        LiveGpuView x;
        x.key = g.key;
        x.utilPercent = g.util.isEmpty() ? std::nan("") : g.util.last();
        x.memUsedMiB = g.memUsedMiB;
        x.memTotalMiB = g.memTotalMiB;
        x.recentUtil = g.util.mid(std::max<qsizetype>(0, g.util.size() - recent));
        v.gpus << x;
    }
    v.throughput = latestThroughput();
    v.throughputName = m_throughputName;
    v.throughputUnit = m_throughputUnit;
    return v;
}

void LiveRunState::addGpuBytes(const QString &fileName, QByteArrayView bytes, double now, bool restart)
{
    FileCarry &carry = m_files[fileName];
    if (restart)
        carry = FileCarry{};
    QByteArray lines = takeLines(carry.partial, bytes);
    if (lines.isEmpty())
        return;
    if (!carry.seen) {
        carry.seen = true;
        const QByteArray first = lines.left(lines.indexOf('\n'));
        // nvidia-smi's CSV names its columns once; rocm-smi repeats its header with every sample.
        if (!first.startsWith("# time") && !first.isEmpty() && !(first.at(0) >= '0' && first.at(0) <= '9'))
            carry.header = first;
    } else if (!carry.header.isEmpty()) {
        lines.prepend(carry.header + '\n');
    }
    parseGpuLines(fileName, lines, now);
}

void LiveRunState::parseGpuLines(const QString &fileName, const QByteArray &lines, double now)
{
    GpuSampleParseOptions options;
    options.fileName = fileName;
    const GpuSampleSummary s = GpuSampleParser::parse(lines, options);
    // Without printed times (rocm-smi without the sampler's marks) the chunk's last sample is "now".
    const double origin = s.originEpochSeconds ? *s.originEpochSeconds : now - s.durationSeconds;
    for (const GpuTimeline &t : s.gpus)
        for (qsizetype i = 0; i < t.seconds.size(); ++i)
            addSample(t.key, t.host, t.index, origin + t.seconds[i], t.utilPercent.value(i),
                      t.memUsedMiB.value(i, std::nan("")), t.memTotalMiB);
}

void LiveRunState::addSample(const QString &key, const QString &host, int index, double t, double util, double mem,
                             std::optional<double> total)
{
    LiveGpu *g = nullptr;
    for (LiveGpu &x : m_gpus)
        if (x.key == key)
            g = &x;
    if (!g) {
        LiveGpu fresh;
        fresh.key = key;
        fresh.host = host;
        fresh.index = index;
        // Sorted by host, then index, as the sample files are.
        qsizetype at = 0;
        while (at < m_gpus.size() && std::make_pair(m_gpus[at].host, m_gpus[at].index) < std::make_pair(host, index))
            ++at;
        m_gpus.insert(at, fresh);
        g = &m_gpus[at];
    }
    g->times << t;
    g->util << util;
    keepLast(g->times, kHistory);
    keepLast(g->util, kHistory);
    if (!std::isnan(mem))
        g->memUsedMiB = mem;
    if (total)
        g->memTotalMiB = total;
    if (std::isnan(m_firstSample) || t < m_firstSample)
        m_firstSample = t;
}

void LiveRunState::addOutputBytes(QByteArrayView bytes, double now, bool restart)
{
    if (restart)
        m_outputPartial.clear();
    if (!bytes.isEmpty())
        m_outputChanged = now;
    const QByteArray lines = takeLines(m_outputPartial, bytes);
    if (!lines.isEmpty())
        scanOutputLines(lines);
}

void LiveRunState::scanOutputLines(QByteArrayView lines)
{
    for (const auto &[text, rule] : outputMarkers()) {
        if (m_findings.size() >= kMaxFindings)
            break;
        const qsizetype at = lines.indexOf(QByteArrayView(text));
        if (at < 0)
            continue;
        const qsizetype from = lines.first(at).lastIndexOf('\n') + 1;
        qsizetype to = lines.indexOf('\n', at);
        to = to < 0 ? lines.size() : to;
        m_findings << LiveOutputFinding{rule,
                                        RemoteValidation::sanitize(lines.sliced(from, to - from).toByteArray(), 300)};
    }
    const LogMetricResult r = extractor().extract(lines);
    for (const QString &name : {metric::SamplesPerS, metric::Throughput, metric::ItPerS}) {
        const LogMetric *m = r.find(name);
        if (!m || m->values.isEmpty() || (!m_throughputName.isEmpty() && m_throughputName != name))
            continue;
        m_throughputName = name;
        m_throughputUnit = m->unit;
        m_throughput << m->values;
        keepLast(m_throughput, kMaxValues);
        break;
    }
}

}   // namespace scalelab
