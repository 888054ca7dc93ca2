// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/IngestService.h"

#include "core/base/InputLimits.h"
#include "core/ingest/AccountingMetrics.h"
#include "core/ingest/GpuEnergy.h"
#include "core/ingest/LogMetricExtractor.h"
#include "core/ingest/MetricFileScanner.h"
#include "core/ingest/SegmentLog.h"
#include "core/model/MetricNames.h"
#include "core/store/RunStore.h"
#include "core/ingest/StudyMetricPatterns.h"

#include <optional>

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

// What one ingest learnt about a run, written at the end by one
// RunStore::replaceRunMetrics.
struct CollectedMetrics {
    qint64 runId = 0;
    QList<MetricRecord> metrics;
    QList<MetricSeries> series;
    // The two measures of a run's energy, one stored (collectEnergy).
    std::optional<double> accountedEnergyJoules;   // sacct ConsumedEnergyRaw
    GpuEnergyResult gpuEnergy;   // the GPU samples' power integral
    QString gpuFiles, gpuTool;

    void put(const QString &name, double value, const QString &unit, const QString &source, const QString &file = {},
             const QString &rule = {}, const QString &formula = {})
    {
        MetricRecord rec{runId, name, value, unit, source};
        rec.file = file;
        rec.rule = rule;
        rec.formula = formula;
        metrics << rec;
    }
};

// Slurm's accounting of the job (elapsed, queue wait, GPUs, billing, memory, ...).
void collectAccounting(const RunRecord &run, const SacctRecord &acct, CollectedMetrics &out, IngestResult &result)
{
    const AccountingMetricsResult am = AccountingMetrics::fromRecords(recordsOf(acct));
    result.diagnostics += am.diagnostics;
    const AccountingMetrics &m = am.metrics;
    const QString s = metric::SourceSacct;
    if (m.elapsedSeconds)
        out.put(metric::ElapsedS, double(*m.elapsedSeconds), QStringLiteral("s"), s);
    if (m.queueWaitSeconds)
        out.put(metric::QueueWaitS, double(*m.queueWaitSeconds), QStringLiteral("s"), s);
    // A GPU job whose AllocTRES lacks gres/gpu (site accounting without
    // it): the run's requested GPUs, with that source named.
    std::optional<int> gpus = m.gpus;
    std::optional<double> gpuHours = m.gpuHours;
    QString gpuSource = s;
    if (run.gpus > 0 && (!gpus || *gpus == 0)) {
        gpus = run.gpus;
        gpuSource = metric::SourceSpecGpus;
        gpuHours = m.elapsedSeconds ? std::optional<double>(*gpus * double(*m.elapsedSeconds) / 3600.0) : std::nullopt;
    }
    if (gpus)
        out.put(metric::Gpus, *gpus, QStringLiteral("GPUs"), gpuSource);
    if (m.nodes)
        out.put(metric::Nodes, *m.nodes, QStringLiteral("nodes"), s);
    if (m.allocCpus)
        out.put(metric::AllocCpus, *m.allocCpus, QStringLiteral("CPUs"), s);
    if (gpuHours)
        out.put(metric::GpuHours, *gpuHours, QStringLiteral("GPU h"), gpuSource);
    if (m.billing)
        out.put(metric::Billing, *m.billing, QString(), s);
    if (m.billingHours)
        out.put(metric::BillingHours, *m.billingHours, QStringLiteral("billing h"), s);
    if (m.maxRssBytes)
        out.put(metric::MaxRssMiB, double(*m.maxRssBytes) / (1024.0 * 1024.0), QStringLiteral("MiB"), s);
    if (m.exitCode)
        out.put(metric::ExitCode, *m.exitCode, QString(), s);
    if (m.cpuEfficiency)
        out.put(metric::CpuEfficiency, *m.cpuEfficiency, QString(), s);
    if (m.gpuUtilPercent)
        out.put(metric::SacctGpuUtilPct, *m.gpuUtilPercent, QStringLiteral("%"), s);
    if (m.gpuUtilMaxPercent)
        out.put(metric::SacctGpuUtilMaxPct, *m.gpuUtilMaxPercent, QStringLiteral("%"), s);
    if (m.gpuMemMaxBytes)
        out.put(metric::SacctGpuMemMaxMiB, *m.gpuMemMaxBytes / (1024.0 * 1024.0), QStringLiteral("MiB"), s);
    out.accountedEnergyJoules = m.consumedEnergyJoules;
}

// The sampler's CSVs (result.gpuFiles): only what it measured. Without them,
// gpu_samples = 0 for a finished run or one whose output says why.
void collectGpuSamples(const RunRecord &run, CollectedMetrics &out, IngestResult &result)
{
    if (result.gpuFiles.isEmpty()) {
        const QString marker = IngestService::noSamplesMarker(result.logFile);
        result.noGpuSamplesReason = marker.isEmpty() ? QStringLiteral("no GPU sampler file was fetched") : marker;
        if (!marker.isEmpty() || run.isTerminal())
            out.put(metric::GpuSamples, 0, QString(), metric::SourceGpu);
        return;
    }
    const GpuSampleSummary g = GpuSampleParser::parseFiles(result.gpuFiles);
    result.diagnostics += g.diagnostics;
    result.noGpuSamples = g.noSamples;
    result.noGpuSamplesReason = g.noSamplesReason;
    const QString s = metric::SourceGpu;
    const QString files = result.gpuFiles.join(QStringLiteral(", "));
    const QString tool =
        g.tool == GpuSampleSummary::Tool::RocmSmi ? QStringLiteral("gpu.rocm-smi") : QStringLiteral("gpu.nvidia-smi");
    const QString over = QStringLiteral("over %1 samples of %2 GPU(s)").arg(g.rows).arg(g.gpus.size());
    out.put(metric::GpuSamples, double(g.rows), QString(), s, files, tool, QStringLiteral("rows read"));
    if (g.noSamples)
        return;
    out.put(metric::GpusSampled, double(g.gpus.size()), QStringLiteral("GPUs"), s, files, tool,
            QStringLiteral("GPUs (host, task, index) seen"));
    // Each summary the samples gave: metric, value, unit, how it was taken.
    const struct {
        const QString &name;
        std::optional<double> value;
        const char *unit;
        const char *how;
    } summaries[] = {
        {metric::GpuUtilMeanPct, g.meanUtilPercent, "%", "mean "},
        {metric::GpuUtilPeakPct, g.peakUtilPercent, "%", "maximum "},
        {metric::GpuMemMeanMiB, g.meanMemUsedMiB, "MiB", "mean "},
        {metric::GpuMemPeakMiB, g.peakMemUsedMiB, "MiB", "maximum "},
    };
    for (const auto &m : summaries)
        if (m.value)
            out.put(m.name, *m.value, QString::fromLatin1(m.unit), s, files, tool, QString::fromLatin1(m.how) + over);
    out.gpuEnergy = GpuEnergy::integrate(g);
    out.gpuFiles = files;
    out.gpuTool = tool;
}

// energy_wh: the site's energy accounting where it has one (sacct
// ConsumedEnergyRaw, preferred, the samples' figure named beside it), else
// the integral of the GPUs' power samples; nothing when neither measured it.
void collectEnergy(CollectedMetrics &out)
{
    const GpuEnergyResult &g = out.gpuEnergy;
    const QString unit = QStringLiteral("Wh");
    if (out.accountedEnergyJoules) {
        const QString beside =
            g.joules ? QStringLiteral("the GPU samples' power integral gave %1 Wh").arg(*g.joules / 3600.0, 0, 'f', 3)
                     : QStringLiteral("no GPU power samples");
        out.put(metric::EnergyWh, *out.accountedEnergyJoules / 3600.0, unit, metric::SourceSacct, QString(),
                QStringLiteral("sacct.ConsumedEnergyRaw"),
                QStringLiteral("ConsumedEnergyRaw (J) / 3600: the site's energy accounting, preferred over the GPU "
                               "samples (%1)")
                    .arg(beside));
        return;
    }
    if (!g.joules)
        return;
    QString how = QStringLiteral("trapezoidal integral of each GPU's power samples over time, summed: %1 interval(s) "
                                 "of %2 GPU(s), %3 GPU-seconds")
                      .arg(g.intervals)
                      .arg(g.gpusWithPower)
                      .arg(g.coveredSeconds, 0, 'f', 1);
    if (g.gaps > 0)
        how += QStringLiteral("; %1 gap(s) longer than %2 sample periods not integrated")
                   .arg(g.gaps)
                   .arg(GpuEnergy::kGapPeriods);
    out.put(metric::EnergyWh, *g.joules / 3600.0, unit, metric::SourceGpu, out.gpuFiles, out.gpuTool, how);
}

// energy_j_per_sample: the run's energy over the samples it processed (its
// throughput × its time), once every other metric is collected; nothing
// without an energy, a throughput and a time.
void collectEnergyPerSample(CollectedMetrics &out)
{
    auto find = [&out](const QStringList &names) -> const MetricRecord * {
        for (const QString &name : names)
            for (const MetricRecord &m : std::as_const(out.metrics))
                if (m.name == name && m.value > 0)
                    return &m;
        return nullptr;
    };
    const MetricRecord *energy = find({metric::EnergyWh});
    const MetricRecord *rate = find({metric::SamplesPerS, metric::Throughput});
    const MetricRecord *time = find({metric::TrainTimeS, metric::ElapsedS});
    if (!energy || !rate || !time)
        return;
    const double joules = energy->value * 3600.0, samples = rate->value * time->value;
    const QString source = energy->source;   // put() below may move the records
    const QString how = QStringLiteral("%1 (%2 Wh × 3600) ÷ (%3 %4 × %5 %6 s)")
                            .arg(metric::EnergyWh)
                            .arg(energy->value)
                            .arg(rate->name)
                            .arg(rate->value)
                            .arg(time->name)
                            .arg(time->value);
    out.put(metric::EnergyJPerSample, joules / samples, QStringLiteral("J/sample"), source, QString(), QString(), how);
}

// The job output (result.logFile): built-in patterns plus the study's own;
// a value printed more than once is also a curve (per step or epoch). A study
// that cannot be read fails the ingest: its pattern metrics would be replaced
// by none.
Result<void> collectLog(RunStore &store, const RunRecord &run, CollectedMetrics &out, IngestResult &result)
{
    QList<MetricPattern> user;
    if (run.studyId > 0) {
        const auto study = store.study(run.studyId);
        if (!study.ok())
            return fail(study.error());
        const StudyNotesContent notes = StudyMetricPatterns::read(study.value().notes);
        user = notes.patterns;
        result.diagnostics += notes.diagnostics;
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
        MetricRecord rec{out.runId, m.name, m.value, m.unit,
                         userNames.contains(m.name) ? metric::SourcePattern : metric::SourceLog};
        rec.file = m.file;
        rec.line = m.line;
        rec.rule = m.rule;
        rec.formula = m.formula;
        out.metrics << rec;
        if (m.values.size() >= 2) {
            MetricSeries series{out.runId, m.name, m.unit, m.steps, m.values};
            thin(series, kMaxSeriesPoints);
            out.series << series;
        }
    }
    return success();
}

// The frameworks' own metric files among the fetched ones (trainer_state.json,
// metrics.csv, TensorBoard events, MLflow, W&B): each of their metrics
// replaces a value of the same name read from the job output, with its
// source, file and rule; the first format that has a name keeps it.
void collectMetricFiles(const QList<FileRecord> &files, CollectedMetrics &out, IngestResult &result)
{
    QStringList paths;
    for (const FileRecord &f : files)
        if (usable(f) && MetricFileScanner::isMetricFile(f.localPath))
            paths << f.localPath;
    if (paths.isEmpty())
        return;
    const MetricFileResult r = MetricFileScanner::readFiles(paths);
    result.diagnostics += r.diagnostics;
    result.metricFiles = r.files;
    QStringList taken;
    for (const FileMetric &m : r.metrics) {
        if (taken.contains(m.name))
            continue;
        taken << m.name;
        out.metrics.removeIf([&](const MetricRecord &x) { return x.name == m.name; });
        out.series.removeIf([&](const MetricSeries &x) { return x.name == m.name; });
        out.put(m.name, m.value, m.unit, m.source, m.file, m.rule,
                QStringLiteral("last of %1 value(s) of \"%2\"").arg(m.count).arg(m.key));
        out.metrics.back().line = m.line;
        if (m.values.size() >= 2) {
            MetricSeries series{out.runId, m.name, m.unit, m.steps, m.values};
            thin(series, kMaxSeriesPoints);
            out.series << series;
        }
    }
}

// A run of segments: their outputs joined in chain order (SegmentLog), so its
// metrics and series continue across them; "" for a run of one job.
QString segmentsLogFile(RunStore &store, const RunRecord &run, const QList<FileRecord> &files, IngestResult &result)
{
    const auto segments = store.segments(run.id);
    if (!segments || segments->size() < 2)
        return {};
    QStringList jobs;
    for (const SegmentRecord &s : *segments)
        jobs << s.jobId;
    const auto joined =
        SegmentLog::join(files, jobs, store.runFilesDirectory(run.id) + QStringLiteral("/scalelab-segments.out"));
    if (!joined) {
        result.diagnostics << Diagnostic{
            Severity::Warning, QStringLiteral("segments-log"), {}, 0, 0, joined.error().message, {}};
        return {};
    }
    return *joined;
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
    const auto acct = store.accounting(runId);
    if (!acct.ok()) {
        result.error = acct.errorText();
        return result;
    }
    const auto files = store.files(runId);
    if (!files.ok()) {
        result.error = files.errorText();
        return result;
    }
    // Everything is collected first, then written as one replace: a failure
    // leaves the run's previous metrics whole, and a name no longer produced
    // (a renamed study pattern) does not survive a re-ingest.
    CollectedMetrics collected{runId, {}, {}};
    if (acct.value())
        collectAccounting(run.value(), *acct.value(), collected, result);
    result.logFile = segmentsLogFile(store, run.value(), files.value(), result);
    if (result.logFile.isEmpty())
        result.logFile = logFile(files.value(), run.value().jobId);
    result.gpuFiles = gpuSampleFiles(files.value());
    collectGpuSamples(run.value(), collected, result);
    collectEnergy(collected);
    if (!result.logFile.isEmpty()) {
        if (auto e = collectLog(store, run.value(), collected, result); !e) {
            result.error = e.errorText();
            return result;
        }
    }
    collectMetricFiles(files.value(), collected, result);
    collectEnergyPerSample(collected);
    if (const QString e = store.replaceRunMetrics(runId, collected.metrics, collected.series).errorText();
        !e.isEmpty()) {
        result.error = e;
        return result;
    }
    for (const MetricRecord &m : std::as_const(collected.metrics))
        result.written << m.name;
    for (const MetricSeries &s : std::as_const(collected.series))
        result.series << s.name;
    return result;
}

}   // namespace scalelab
