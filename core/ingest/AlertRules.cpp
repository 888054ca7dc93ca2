// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/AlertRules.h"

#include <QDateTime>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace scalelab {

namespace {

bool works(const LiveGpu &g, double percent)
{
    return !g.util.isEmpty() && !std::isnan(g.util.last()) && g.util.last() >= percent;
}

QString keys(const QStringList &k)
{
    return k.size() <= 4 ? k.join(QStringLiteral(", "))
                         : k.mid(0, 4).join(QStringLiteral(", ")) + QStringLiteral(", …");
}

double warmEnd(const LiveRunState &s, const AlertThresholds &t)
{
    return s.firstSampleTime() + t.warmupSeconds;
}

std::optional<QString> gpuIdle(const LiveRunState &s, const AlertThresholds &t, double)
{
    QStringList idle, busy;
    double longest = 0;
    for (const LiveGpu &g : s.gpus()) {
        const double d = AlertRules::idleSeconds(g, t.idlePercent, warmEnd(s, t));
        if (d >= t.idleSeconds) {
            idle << g.key;
            longest = std::max(longest, d);
        } else if (works(g, t.idlePercent)) {
            busy << g.key;
        }
    }
    if (idle.isEmpty() || (busy.isEmpty() && idle.size() < s.gpus().size()))
        return std::nullopt;
    const QString what = idle.size() == s.gpus().size() && idle.size() > 1
                             ? QStringLiteral("all %1 GPUs").arg(idle.size())
                             : QStringLiteral("GPU %1").arg(keys(idle));
    return QStringLiteral("%1 under %2 % for %3 s after warm-up%4")
        .arg(what)
        .arg(t.idlePercent)
        .arg(qRound(longest))
        .arg(busy.isEmpty() ? QString() : QStringLiteral(" while %1 works").arg(keys(busy)));
}

std::optional<QString> likelyHang(const LiveRunState &s, const AlertThresholds &t, double now)
{
    if (s.gpus().isEmpty() || std::isnan(s.outputChangedAt()))
        return std::nullopt;
    double shortest = -1;
    for (const LiveGpu &g : s.gpus()) {
        const double d = AlertRules::idleSeconds(g, t.idlePercent, warmEnd(s, t));
        shortest = shortest < 0 ? d : std::min(shortest, d);
    }
    const double silent = now - s.outputChangedAt();
    if (shortest < t.silentSeconds || silent < t.silentSeconds)
        return std::nullopt;
    return QStringLiteral("no new output for %1 s and every GPU under %2 % for %3 s")
        .arg(qRound(silent))
        .arg(t.idlePercent)
        .arg(qRound(shortest));
}

std::function<std::optional<QString>(const LiveRunState &, const AlertThresholds &, double)>
outputLine(const QString &rule)
{
    return [rule](const LiveRunState &s, const AlertThresholds &, double) -> std::optional<QString> {
        for (const LiveOutputFinding &f : s.findings())
            if (f.rule == rule)
                return QStringLiteral("the output says: %1").arg(f.line);
        return std::nullopt;
    };
}

std::optional<QString> nodeIdle(const LiveRunState &s, const AlertThresholds &t, double)
{
    QHash<QString, bool> allIdle;   // host -> every GPU idle long enough
    QStringList working;
    for (const LiveGpu &g : s.gpus()) {
        const bool idle = AlertRules::idleSeconds(g, t.idlePercent, warmEnd(s, t)) >= t.idleSeconds;
        allIdle[g.host] = allIdle.value(g.host, true) && idle;
        if (works(g, t.idlePercent) && !working.contains(g.host))
            working << g.host;
    }
    QStringList idleHosts;
    for (auto it = allIdle.cbegin(); it != allIdle.cend(); ++it)
        if (it.value())
            idleHosts << it.key();
    if (allIdle.size() < 2 || idleHosts.isEmpty() || working.isEmpty())
        return std::nullopt;
    idleHosts.sort();
    return QStringLiteral("node %1: every GPU under %2 % for %3 s while %4 works")
        .arg(keys(idleHosts))
        .arg(t.idlePercent)
        .arg(qRound(t.idleSeconds))
        .arg(keys(working));
}

std::optional<QString> throughputDrop(const LiveRunState &s, const AlertThresholds &t, double)
{
    QVector<double> v = s.throughput();
    if (v.size() < std::max(2, t.throughputMinValues))
        return std::nullopt;
    const double latest = v.last();
    std::sort(v.begin(), v.end());
    const double median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    if (!(median > 0) || latest >= (1 - t.throughputDrop) * median)
        return std::nullopt;
    return QStringLiteral("%1 %2 %3, the run's median is %4 (%5 values)")
        .arg(s.throughputName())
        .arg(latest, 0, 'g', 4)
        .arg(s.throughputUnit())
        .arg(median, 0, 'g', 4)
        .arg(v.size());
}

}   // namespace

double AlertRules::idleSeconds(const LiveGpu &g, double percent, double notBefore)
{
    if (g.times.isEmpty() || works(g, percent))
        return 0;
    qsizetype i = g.times.size() - 1;
    while (i > 0 && !(g.util[i - 1] >= percent))
        --i;   // back over the samples under `percent` (a missing value counts as idle)
    const double from = std::max(g.times[i], notBefore);
    return std::max(0.0, g.times.last() - from);
}

// table: the alert rules
const QList<AlertRule> &AlertRules::table()
{
    static const QList<AlertRule> t = {
        {QStringLiteral("gpu-idle"), QStringLiteral("GPUs idle"),
         QStringLiteral(
             "Start one process per GPU (or ask for fewer GPUs); cancel the job to stop paying for idle ones."),
         gpuIdle},
        {QStringLiteral("likely-hang"), QStringLiteral("Likely hang"),
         QStringLiteral("Read the output's last lines (a rank stuck in a collective, a dead data loader); cancel the "
                        "job if it does not move."),
         likelyHang},
        {QStringLiteral("nccl-error"), QStringLiteral("NCCL/RCCL error"),
         QStringLiteral("A collective timed out or failed: cancel the job, look for the rank that died first, set "
                        "NCCL_DEBUG=WARN and resubmit."),
         outputLine(QStringLiteral("nccl-error"))},
        {QStringLiteral("gpu-oom"), QStringLiteral("GPU out of memory"),
         QStringLiteral("Lower the batch size per GPU (or use activation checkpointing) and resubmit."),
         outputLine(QStringLiteral("gpu-oom"))},
        {QStringLiteral("node-idle"), QStringLiteral("Node idle"),
         QStringLiteral("The launcher did not start work on every node: check the nodes and tasks per node, cancel "
                        "the job."),
         nodeIdle},
        {QStringLiteral("throughput-drop"), QStringLiteral("Throughput fell"),
         QStringLiteral("Look for a slow node, throttling or a full file system; cancel the job if it does not "
                        "recover."),
         throughputDrop},
    };
    return t;
}

const AlertRule *AlertRules::find(const QString &id)
{
    for (const AlertRule &r : table())
        if (r.id == id)
            return &r;
    return nullptr;
}

QList<AlertRecord> AlertRules::evaluate(qint64 runId, const LiveRunState &state, const AlertThresholds &thresholds,
                                        double now)
{
    QList<AlertRecord> out;
    for (const AlertRule &r : table()) {
        if (!thresholds.enabled(r.id))
            continue;
        if (auto e = r.evidence(state, thresholds, now)) {
            AlertRecord a;
            a.runId = runId;
            a.rule = r.id;
            a.title = r.title;
            a.evidence = *e;
            a.action = r.action;
            a.raisedAt = QDateTime::fromMSecsSinceEpoch(qint64(now * 1000), QTimeZone::utc());
            out << a;
        }
    }
    return out;
}

}   // namespace scalelab
