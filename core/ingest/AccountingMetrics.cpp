// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/AccountingMetrics.h"

#include "core/slurm/TresString.h"

#include <QDateTime>
#include <QTimeZone>

#include <cmath>

namespace scalelab {

namespace {

void warn(Diagnostics &diags, const QString &field, const QString &jobId, const QString &value, const QString &what)
{
    diags.append({Severity::Warning,
                  QStringLiteral("sacct-field-unreadable"),
                  field,
                  0,
                  0,
                  QStringLiteral("sacct job %1: %2 '%3' is not %4; it is left empty")
                      .arg(jobId.isEmpty() ? QStringLiteral("?") : jobId, field, value, what),
                  {}});
}

// Slurm prints "Unknown", "None" or nothing where there is no value.
bool isAbsent(const QString &v)
{
    const QString t = v.trimmed();
    return t.isEmpty() || t == QLatin1String("Unknown") || t == QLatin1String("None")
           || t == QLatin1String("None assigned") || t == QLatin1String("N/A");
}

std::optional<QDateTime> parseTime(const QString &v)
{
    // sacct prints local time without a zone; only differences are used, so
    // reading it as UTC avoids daylight-saving jumps.
    QDateTime dt = QDateTime::fromString(v.trimmed(), Qt::ISODate);
    if (!dt.isValid())
        return std::nullopt;
    dt.setTimeZone(QTimeZone::utc());
    return dt;
}

QString field(const AccountingMetrics::Record &r, const char *name)
{
    return r.value(QLatin1String(name));
}

}   // namespace

bool AccountingMetrics::isFinished() const
{
    static const QStringList live = {
        QStringLiteral("PENDING"),     QStringLiteral("RUNNING"),   QStringLiteral("REQUEUED"),
        QStringLiteral("RESIZING"),    QStringLiteral("SUSPENDED"), QStringLiteral("COMPLETING"),
        QStringLiteral("CONFIGURING"), QStringLiteral("STAGE_OUT"), QStringLiteral("SIGNALING")};
    return !state.isEmpty() && !live.contains(state);
}

bool AccountingMetrics::isSuccessful() const
{
    return state == QLatin1String("COMPLETED") && exitCode.value_or(-1) == 0 && exitSignal.value_or(0) == 0;
}

namespace {

// ExitCode "code:signal".
void readExit(const AccountingMetrics::Record &r, AccountingMetrics &m, Diagnostics &d)
{
    const QString exit = field(r, "ExitCode").trimmed();
    if (!exit.isEmpty()) {
        bool ok1 = false, ok2 = true;
        const int code = exit.section(u':', 0, 0).toInt(&ok1);
        const int sig = exit.contains(u':') ? exit.section(u':', 1, 1).toInt(&ok2) : 0;
        if (ok1 && ok2) {
            m.exitCode = code;
            m.exitSignal = sig;
        } else {
            warn(d, QStringLiteral("ExitCode"), m.jobId, exit, QStringLiteral("of the form code:signal"));
        }
    }
}

// Elapsed, and the queue wait from Submit to Start.
void readTimes(const AccountingMetrics::Record &r, AccountingMetrics &m, Diagnostics &d)
{
    const QString elapsed = field(r, "Elapsed");
    if (!isAbsent(elapsed)) {
        if (const auto s = TresString::parseDurationSeconds(elapsed))
            m.elapsedSeconds = qint64(std::llround(*s));
        else
            warn(d, QStringLiteral("Elapsed"), m.jobId, elapsed, QStringLiteral("a duration"));
    }

    const QString submit = field(r, "Submit"), start = field(r, "Start");
    if (!isAbsent(submit) && !isAbsent(start)) {
        const auto s0 = parseTime(submit), s1 = parseTime(start);
        if (!s0)
            warn(d, QStringLiteral("Submit"), m.jobId, submit, QStringLiteral("an ISO date-time"));
        if (!s1)
            warn(d, QStringLiteral("Start"), m.jobId, start, QStringLiteral("an ISO date-time"));
        if (s0 && s1)
            m.queueWaitSeconds = s0->secsTo(*s1);
    }
}

// What was allocated: GPUs, nodes, billing, CPUs.
void readAllocation(const AccountingMetrics::Record &r, AccountingMetrics &m, Diagnostics &d)
{
    const TresParseResult alloc = TresString::parse(field(r, "AllocTRES"), QStringLiteral("AllocTRES"));
    d.append(alloc.diagnostics);
    if (const auto g = alloc.gpuCount())
        m.gpus = int(std::lround(*g));
    if (const auto n = alloc.count(QStringLiteral("node")))
        m.nodes = int(std::lround(*n));
    if (const auto b = alloc.count(QStringLiteral("billing")))
        m.billing = *b;
    if (!m.nodes) {
        bool ok = false;
        const int n = field(r, "NNodes").toInt(&ok);
        if (ok && n > 0 && !isAbsent(field(r, "NodeList")))
            m.nodes = n;
    }

    const QString allocCpus = field(r, "AllocCPUS").trimmed();
    if (!allocCpus.isEmpty()) {
        bool ok = false;
        const int n = allocCpus.toInt(&ok);
        if (ok)
            m.allocCpus = n;
        else
            warn(d, QStringLiteral("AllocCPUS"), m.jobId, allocCpus, QStringLiteral("a number"));
    }
    if (!m.allocCpus) {
        if (const auto c = alloc.count(QStringLiteral("cpu")))
            m.allocCpus = int(std::lround(*c));
    }
}

// What was used: memory, CPU time, GPU utilisation and memory.
void readUsage(const AccountingMetrics::Record &r, AccountingMetrics &m, Diagnostics &d)
{
    const QString maxRss = field(r, "MaxRSS");
    if (!isAbsent(maxRss)) {
        if (const auto b = TresString::parseSizeBytes(maxRss))
            m.maxRssBytes = qint64(std::llround(*b));
        else
            warn(d, QStringLiteral("MaxRSS"), m.jobId, maxRss, QStringLiteral("a size"));
    }

    const QString totalCpu = field(r, "TotalCPU");
    if (!isAbsent(totalCpu)) {
        if (const auto s = TresString::parseDurationSeconds(totalCpu))
            m.totalCpuSeconds = *s;
        else
            warn(d, QStringLiteral("TotalCPU"), m.jobId, totalCpu, QStringLiteral("a duration"));
    }

    const TresParseResult ave = TresString::parse(field(r, "TRESUsageInAve"), QStringLiteral("TRESUsageInAve"));
    const TresParseResult max = TresString::parse(field(r, "TRESUsageInMax"), QStringLiteral("TRESUsageInMax"));
    d.append(ave.diagnostics);
    d.append(max.diagnostics);
    m.gpuUtilPercent = ave.count(QStringLiteral("gres/gpuutil"));
    m.gpuUtilMaxPercent = max.count(QStringLiteral("gres/gpuutil"));
    m.gpuMemMaxBytes = max.number(QStringLiteral("gres/gpumem"));
}

// ConsumedEnergyRaw (joules) of a site with an energy plugin; "0" or empty
// where none counts, Slurm's NO_VAL64 (18446744073709551614) where a step has
// no reading yet: all of these are "not accounted".
void readEnergy(const AccountingMetrics::Record &r, AccountingMetrics &m, Diagnostics &d)
{
    const QString raw = field(r, "ConsumedEnergyRaw").trimmed();
    if (isAbsent(raw))
        return;
    bool ok = false;
    const double joules = raw.toDouble(&ok);
    if (!ok || joules < 0 || !std::isfinite(joules)) {
        warn(d, QStringLiteral("ConsumedEnergyRaw"), m.jobId, raw, QStringLiteral("a number of joules"));
        return;
    }
    if (joules > 0 && joules < 1e18)
        m.consumedEnergyJoules = joules;
}

// GPU-hours, billing hours and CPU efficiency from the numbers read.
void deriveTotals(AccountingMetrics &m)
{
    if (m.elapsedSeconds) {
        const double hours = double(*m.elapsedSeconds) / 3600.0;
        if (m.gpus)
            m.gpuHours = *m.gpus * hours;
        if (m.billing)
            m.billingHours = *m.billing * hours;
        if (m.totalCpuSeconds && m.allocCpus && *m.allocCpus > 0 && *m.elapsedSeconds > 0)
            m.cpuEfficiency = *m.totalCpuSeconds / (double(*m.elapsedSeconds) * *m.allocCpus);
    }
}

}   // namespace

AccountingMetricsResult AccountingMetrics::fromRecord(const Record &r)
{
    AccountingMetricsResult result;
    AccountingMetrics &m = result.metrics;
    Diagnostics &d = result.diagnostics;
    m.jobId = field(r, "JobID").trimmed();
    m.state = field(r, "State").trimmed().section(u' ', 0, 0);
    const QString nodeList = field(r, "NodeList").trimmed();
    if (!isAbsent(nodeList))
        m.nodeList = nodeList;
    readExit(r, m, d);
    readTimes(r, m, d);
    readAllocation(r, m, d);
    readUsage(r, m, d);
    readEnergy(r, m, d);
    deriveTotals(m);
    return result;
}

AccountingMetricsResult AccountingMetrics::fromRecords(const QList<Record> &lines)
{
    if (lines.isEmpty()) {
        AccountingMetricsResult r;
        r.diagnostics.append({Severity::Error,
                              QStringLiteral("sacct-no-record"),
                              {},
                              0,
                              0,
                              QStringLiteral("sacct returned no line for this job; check the job id"),
                              {}});
        return r;
    }
    // The job line is the one whose JobID has no step suffix.
    qsizetype jobIndex = 0;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (!lines[i].value(QStringLiteral("JobID")).contains(u'.')) {
            jobIndex = i;
            break;
        }
    }
    AccountingMetricsResult result = fromRecord(lines[jobIndex]);
    AccountingMetrics &m = result.metrics;
    const bool jobEnergy = m.consumedEnergyJoules.has_value();
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (i == jobIndex)
            continue;
        const AccountingMetricsResult step = fromRecord(lines[i]);
        result.diagnostics.append(step.diagnostics);
        const AccountingMetrics &s = step.metrics;
        auto takeMax = [](auto &into, const auto &from) {
            if (from && (!into || *from > *into))
                into = from;
        };
        takeMax(m.maxRssBytes, s.maxRssBytes);
        takeMax(m.gpuUtilPercent, s.gpuUtilPercent);
        takeMax(m.gpuUtilMaxPercent, s.gpuUtilMaxPercent);
        takeMax(m.gpuMemMaxBytes, s.gpuMemMaxBytes);
        if (!jobEnergy)   // steps overlap (extern spans the job): their largest, never their sum
            takeMax(m.consumedEnergyJoules, s.consumedEnergyJoules);
    }
    return result;
}

}   // namespace scalelab
