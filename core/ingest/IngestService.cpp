// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/IngestService.h"

#include "core/base/InputLimits.h"
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

constexpr qsizetype kMaxSeriesPoints = 5000;

// Every k-th point (and the last) so a 200 MB log's tqdm updates stay a curve, not a table.
void thin(MetricSeries &s, qsizetype max)
{
    const qsizetype n = s.values.size();
    if (n <= max)
        return;
    const qsizetype stride = (n + max - 1) / max;
    QVector<double> steps, values;
    for (qsizetype i = 0; i < n; i += stride) {
        steps.append(s.steps[i]);
        values.append(s.values[i]);
    }
    if ((n - 1) % stride != 0) {
        steps.append(s.steps.back());
        values.append(s.values.back());
    }
    s.steps = steps;
    s.values = values;
}

}   // namespace

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
        if (fallback.isEmpty()
            && (name.startsWith(QLatin1String("scalelab-")) || name.startsWith(QLatin1String("slurm-"))))
            fallback = f.localPath;
    }
    return fallback;
}

QString IngestService::noSamplesMarker(const QString &logPath)
{
    if (logPath.isEmpty())
        return {};
    auto opened = InputLimits::openFile(logPath, QStringLiteral("job output"));
    if (!opened || (*opened)->size() == 0)
        return {};
    QFile &f = **opened;
    // Mapped, like the metric scan: the log may be hundreds of MB.
    QByteArray copy;
    QByteArrayView data;
    if (uchar *p = f.map(0, f.size()))
        data = QByteArrayView(reinterpret_cast<const char *>(p), f.size());
    else
        data = copy = f.readAll();
    QStringList found;
    qsizetype from = 0;
    static const QByteArray marker("scalelab: no ");
    while ((from = data.indexOf(marker, from)) >= 0) {
        qsizetype end = data.indexOf('\n', from);
        if (end < 0)
            end = data.size();
        const QString line = QString::fromUtf8(data.sliced(from + 10, end - from - 10)).trimmed();
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
    auto put = [&](const QString &name, double value, const QString &unit, const QString &source,
                   const QString &file = {}, const QString &rule = {}, const QString &formula = {}) {
        if (!result.error.isEmpty())
            return;
        MetricRecord rec{runId, name, value, unit, source};
        rec.file = file;
        rec.rule = rule;
        rec.formula = formula;
        if (QString e = store.setMetric(rec).errorText(); !e.isEmpty())
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
        if (m.elapsedSeconds)
            put(metric::ElapsedS, double(*m.elapsedSeconds), QStringLiteral("s"), s);
        if (m.queueWaitSeconds)
            put(metric::QueueWaitS, double(*m.queueWaitSeconds), QStringLiteral("s"), s);
        // A GPU job whose AllocTRES lacks gres/gpu (site accounting without
        // it): the run's requested GPUs, with that source named.
        std::optional<int> gpus = m.gpus;
        std::optional<double> gpuHours = m.gpuHours;
        QString gpuSource = s;
        if (run.value().gpus > 0 && (!gpus || *gpus == 0)) {
            gpus = run.value().gpus;
            gpuSource = metric::SourceSpecGpus;
            gpuHours =
                m.elapsedSeconds ? std::optional<double>(*gpus * double(*m.elapsedSeconds) / 3600.0) : std::nullopt;
        }
        if (gpus)
            put(metric::Gpus, *gpus, QStringLiteral("GPUs"), gpuSource);
        if (m.nodes)
            put(metric::Nodes, *m.nodes, QStringLiteral("nodes"), s);
        if (m.allocCpus)
            put(metric::AllocCpus, *m.allocCpus, QStringLiteral("CPUs"), s);
        if (gpuHours)
            put(metric::GpuHours, *gpuHours, QStringLiteral("GPU h"), gpuSource);
        if (m.billing)
            put(metric::Billing, *m.billing, QString(), s);
        if (m.billingHours)
            put(metric::BillingHours, *m.billingHours, QStringLiteral("billing h"), s);
        if (m.maxRssBytes)
            put(metric::MaxRssMiB, double(*m.maxRssBytes) / (1024.0 * 1024.0), QStringLiteral("MiB"), s);
        if (m.exitCode)
            put(metric::ExitCode, *m.exitCode, QString(), s);
        if (m.cpuEfficiency)
            put(metric::CpuEfficiency, *m.cpuEfficiency, QString(), s);
        if (m.gpuUtilPercent)
            put(metric::SacctGpuUtilPct, *m.gpuUtilPercent, QStringLiteral("%"), s);
        if (m.gpuUtilMaxPercent)
            put(metric::SacctGpuUtilMaxPct, *m.gpuUtilMaxPercent, QStringLiteral("%"), s);
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
        const QString gpuFileList = result.gpuFiles.join(QStringLiteral(", "));
        const QString tool = g.tool == GpuSampleSummary::Tool::RocmSmi ? QStringLiteral("gpu.rocm-smi")
                                                                       : QStringLiteral("gpu.nvidia-smi");
        const QString over = QStringLiteral("over %1 samples of %2 GPU(s)").arg(g.rows).arg(g.gpus.size());
        put(metric::GpuSamples, double(g.rows), QString(), s, gpuFileList, tool, QStringLiteral("rows read"));
        if (!g.noSamples) {
            put(metric::GpusSampled, double(g.gpus.size()), QStringLiteral("GPUs"), s, gpuFileList, tool,
                QStringLiteral("GPUs (host, task, index) seen"));
            if (g.meanUtilPercent)
                put(metric::GpuUtilMeanPct, *g.meanUtilPercent, QStringLiteral("%"), s, gpuFileList, tool,
                    QStringLiteral("mean ") + over);
            if (g.peakUtilPercent)
                put(metric::GpuUtilPeakPct, *g.peakUtilPercent, QStringLiteral("%"), s, gpuFileList, tool,
                    QStringLiteral("maximum ") + over);
            if (g.meanMemUsedMiB)
                put(metric::GpuMemMeanMiB, *g.meanMemUsedMiB, QStringLiteral("MiB"), s, gpuFileList, tool,
                    QStringLiteral("mean ") + over);
            if (g.peakMemUsedMiB)
                put(metric::GpuMemPeakMiB, *g.peakMemUsedMiB, QStringLiteral("MiB"), s, gpuFileList, tool,
                    QStringLiteral("maximum ") + over);
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
            if (m.count == 0 || !result.error.isEmpty())
                continue;
            MetricRecord rec{runId, m.name, m.value, m.unit,
                             userNames.contains(m.name) ? metric::SourcePattern : metric::SourceLog};
            rec.file = m.file;
            rec.line = m.line;
            rec.rule = m.rule;
            rec.formula = m.formula;
            if (QString e = store.setMetric(rec).errorText(); !e.isEmpty()) {
                result.error = e;
                break;
            }
            result.written << m.name;
            // A value printed more than once is a curve (per step or epoch).
            if (m.values.size() >= 2) {
                MetricSeries series{runId, m.name, m.unit, m.steps, m.values};
                thin(series, kMaxSeriesPoints);
                if (QString e = store.setSeries(series).errorText(); !e.isEmpty()) {
                    result.error = e;
                    break;
                }
                result.series << m.name;
            }
        }
    }
    return result;
}

}   // namespace scalelab
