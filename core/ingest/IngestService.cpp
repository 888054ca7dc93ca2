#include "core/ingest/IngestService.h"

#include "core/ingest/AccountingMetrics.h"
#include "core/ingest/LogMetricExtractor.h"
#include "core/model/MetricNames.h"
#include "core/store/RunStore.h"
#include "core/ingest/StudyMetricPatterns.h"

#include <QFile>
#include <QFileInfo>

namespace scalelab {

namespace {

QString fileNameOf(const FileRecord &f)
{
    const QString remote = QFileInfo(f.remotePath).fileName();
    return remote.isEmpty() ? QFileInfo(f.localPath).fileName() : remote;
}

bool usable(const FileRecord &f)
{
    return !f.localPath.isEmpty() && QFileInfo(f.localPath).isFile();
}

// The job-line fields AccountingMetrics reads, for records stored without
// their per-line maps.
QList<AccountingMetrics::Record> recordsOf(const SacctRecord &a)
{
    if (!a.lines.isEmpty())
        return a.lines;
    AccountingMetrics::Record r;
    r[QStringLiteral("JobID")] = a.jobId;
    r[QStringLiteral("State")] = a.stateText;
    r[QStringLiteral("ExitCode")] = a.exitCode;
    r[QStringLiteral("Submit")] = a.submit;
    r[QStringLiteral("Start")] = a.start;
    r[QStringLiteral("End")] = a.end;
    r[QStringLiteral("Elapsed")] = a.elapsed;
    r[QStringLiteral("AllocTRES")] = a.allocTres;
    r[QStringLiteral("MaxRSS")] = a.maxRss;
    r[QStringLiteral("NodeList")] = a.nodeList;
    r[QStringLiteral("TotalCPU")] = a.totalCpu;
    if (a.allocCpus > 0)
        r[QStringLiteral("AllocCPUS")] = QString::number(a.allocCpus);
    r[QStringLiteral("TRESUsageInAve")] = a.tresUsageInAve;
    r[QStringLiteral("TRESUsageInMax")] = a.tresUsageInMax;
    return {r};
}

} // namespace

QStringList IngestService::gpuSampleFiles(const QList<FileRecord> &files)
{
    QStringList out;
    for (const FileRecord &f : files) {
        const QString name = fileNameOf(f);
        if (name.startsWith(QLatin1String("scalelab-gpu-")) && name.endsWith(QLatin1String(".csv")) && usable(f))
            out << f.localPath;
    }
    out.sort();
    return out;
}

QString IngestService::logFile(const QList<FileRecord> &files, const QString &jobId)
{
    QString fallback;
    for (const FileRecord &f : files) {
        const QString name = fileNameOf(f);
        if (!usable(f) || !name.endsWith(QLatin1String(".out")))
            continue;
        if (!jobId.isEmpty() && name == QStringLiteral("scalelab-%1.out").arg(jobId))
            return f.localPath;
        if (fallback.isEmpty() && (name.startsWith(QLatin1String("scalelab-")) || name.startsWith(QLatin1String("slurm-"))))
            fallback = f.localPath;
    }
    return fallback;
}

QString IngestService::noSamplesMarker(const QString &logPath)
{
    QFile f(logPath);
    if (logPath.isEmpty() || !f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray data = f.readAll();
    QStringList found;
    qsizetype from = 0;
    static const QByteArray marker("scalelab: no ");
    while ((from = data.indexOf(marker, from)) >= 0) {
        qsizetype end = data.indexOf('\n', from);
        if (end < 0)
            end = data.size();
        const QString line = QString::fromUtf8(data.mid(from + 10, end - from - 10)).trimmed();
        if (line.contains(QLatin1String("GPU samples")) && !found.contains(line))
            found << line;
        from = end;
    }
    return found.join(QStringLiteral("; "));
}

IngestResult IngestService::ingestRun(RunStore &store, qint64 runId)
{
    IngestResult result;
    const auto run = store.run(runId);
    if (!run.ok()) {
        result.error = run.errorText();
        return result;
    }
    auto put = [&](const QString &name, double value, const QString &unit, const QString &source) {
        if (!result.error.isEmpty())
            return;
        if (QString e = store.setMetric({runId, name, value, unit, source}).errorText(); !e.isEmpty())
            result.error = e;
        else
            result.written << name;
    };

    // Accounting.
    const auto acct = store.accounting(runId);
    if (!acct.ok()) {
        result.error = acct.errorText();
        return result;
    }
    if (acct.value()) {
        const AccountingMetricsResult am = AccountingMetrics::fromRecords(recordsOf(*acct.value()));
        result.diagnostics += am.diagnostics;
        const AccountingMetrics &m = am.metrics;
        const QString s = metric::SourceSacct;
        if (m.elapsedSeconds) put(metric::ElapsedS, double(*m.elapsedSeconds), QStringLiteral("s"), s);
        if (m.queueWaitSeconds) put(metric::QueueWaitS, double(*m.queueWaitSeconds), QStringLiteral("s"), s);
        if (m.gpus) put(metric::Gpus, *m.gpus, QStringLiteral("GPUs"), s);
        if (m.nodes) put(metric::Nodes, *m.nodes, QStringLiteral("nodes"), s);
        if (m.allocCpus) put(metric::AllocCpus, *m.allocCpus, QStringLiteral("CPUs"), s);
        if (m.gpuHours) put(metric::GpuHours, *m.gpuHours, QStringLiteral("GPU h"), s);
        if (m.billing) put(metric::Billing, *m.billing, QString(), s);
        if (m.billingHours) put(metric::BillingHours, *m.billingHours, QStringLiteral("billing h"), s);
        if (m.maxRssBytes) put(metric::MaxRssMiB, double(*m.maxRssBytes) / (1024.0 * 1024.0), QStringLiteral("MiB"), s);
        if (m.exitCode) put(metric::ExitCode, *m.exitCode, QString(), s);
        if (m.cpuEfficiency) put(metric::CpuEfficiency, *m.cpuEfficiency, QString(), s);
        if (m.gpuUtilPercent) put(metric::SacctGpuUtilPct, *m.gpuUtilPercent, QStringLiteral("%"), s);
        if (m.gpuUtilMaxPercent) put(metric::SacctGpuUtilMaxPct, *m.gpuUtilMaxPercent, QStringLiteral("%"), s);
        if (m.gpuMemMaxBytes)
            put(metric::SacctGpuMemMaxMiB, *m.gpuMemMaxBytes / (1024.0 * 1024.0), QStringLiteral("MiB"), s);
    }

    const auto files = store.files(runId);
    if (!files.ok()) {
        result.error = files.errorText();
        return result;
    }
    result.logFile = logFile(files.value(), run.value().jobId);

    // GPU samples: only what the sampler measured.
    result.gpuFiles = gpuSampleFiles(files.value());
    if (!result.gpuFiles.isEmpty()) {
        const GpuSampleSummary g = GpuSampleParser::parseFiles(result.gpuFiles);
        result.diagnostics += g.diagnostics;
        result.noGpuSamples = g.noSamples;
        result.noGpuSamplesReason = g.noSamplesReason;
        const QString s = metric::SourceGpu;
        put(metric::GpuSamples, double(g.rows), QString(), s);
        if (!g.noSamples) {
            put(metric::GpusSampled, double(g.gpus.size()), QStringLiteral("GPUs"), s);
            if (g.meanUtilPercent) put(metric::GpuUtilMeanPct, *g.meanUtilPercent, QStringLiteral("%"), s);
            if (g.peakUtilPercent) put(metric::GpuUtilPeakPct, *g.peakUtilPercent, QStringLiteral("%"), s);
            if (g.meanMemUsedMiB) put(metric::GpuMemMeanMiB, *g.meanMemUsedMiB, QStringLiteral("MiB"), s);
            if (g.peakMemUsedMiB) put(metric::GpuMemPeakMiB, *g.peakMemUsedMiB, QStringLiteral("MiB"), s);
        }
    } else {
        const QString marker = noSamplesMarker(result.logFile);
        result.noGpuSamplesReason = marker.isEmpty() ? QStringLiteral("no GPU sampler file was fetched") : marker;
        if (!marker.isEmpty() || run.value().isTerminal())
            put(metric::GpuSamples, 0, QString(), metric::SourceGpu);
    }

    // Training log: built-in patterns + the study's own.
    if (!result.logFile.isEmpty()) {
        QList<MetricPattern> user;
        if (run.value().studyId > 0) {
            const auto study = store.study(run.value().studyId);
            if (study.ok()) {
                const StudyNotesContent notes = StudyMetricPatterns::read(study.value().notes);
                user = notes.patterns;
                result.diagnostics += notes.diagnostics;
            }
        }
        const LogMetricExtractor extractor(user);
        result.diagnostics += extractor.patternDiagnostics();
        const LogMetricResult log = extractor.extractFile(result.logFile);
        result.diagnostics += log.diagnostics;
        QStringList userNames;
        for (const MetricPattern &p : user)
            userNames << p.name;
        for (const LogMetric &m : log.metrics) {
            if (m.count == 0)
                continue;
            put(m.name, m.value, m.unit,
                userNames.contains(m.name) ? metric::SourcePattern : metric::SourceLog);
        }
    }
    return result;
}

} // namespace scalelab
