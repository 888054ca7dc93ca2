// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/MetricsCommand.h"

#include "app/cli/CliParser.h"
#include "app/cli/MetricFilesOutput.h"
#include "core/base/DiagnosticFormat.h"
#include "core/base/InputLimits.h"
#include "core/ingest/GpuSampleParser.h"
#include "core/ingest/LogMetricExtractor.h"
#include "core/ingest/MetricFileScanner.h"
#include "core/ingest/StudyMetricPatterns.h"

#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <cmath>

namespace scalelab {

namespace {

constexpr qint64 kMaxPatternFile = 1024 * 1024;
// A log piped on stdin is held in memory (a file is mapped instead), so it
// has a cap; it is far above any training log's size.
constexpr qint64 kMaxStdinLog = 512 * 1024 * 1024;

QString number(double v)
{
    return QString::number(v, 'g', 10);
}

// Every built-in reader (LogMetricExtractor::builtinPatterns, the one table)
// with the line it reads.
int listReaders(CliContext &ctx, bool json)
{
    const QList<MetricPattern> rules = LogMetricExtractor::builtinPatterns();
    if (json) {
        auto readers = nlohmann::ordered_json::array();
        for (const MetricPattern &p : rules) {
            nlohmann::ordered_json e;
            e["rule"] = p.rule.toStdString();
            e["metric"] = p.name.toStdString();
            e["unit"] = p.unit.toStdString();
            e["aggregation"] = LogMetricExtractor::aggregationId(p.aggregation).toStdString();
            e["ambiguous"] = p.ambiguous;
            e["meaning"] = p.meaning.toStdString();
            e["example"] = p.example.toStdString();
            readers.push_back(e);
        }
        nlohmann::ordered_json j;
        j["readers"] = readers;
        ctx.printJson("metrics.readers", j);
        return int(ExitCode::Ok);
    }
    ctx.out << QStringLiteral("%1 built-in readers (rule, metric, unit, how values combine; what it means; a line "
                              "it reads):\n")
                   .arg(rules.size());
    for (const MetricPattern &p : rules) {
        const QString metric = p.ambiguous ? QStringLiteral("(ambiguous: reported, never stored)") : p.name;
        ctx.out << QStringLiteral("%1  %2  %3  %4\n    %5\n    e.g. %6\n")
                       .arg(p.rule, metric, p.unit.isEmpty() ? QStringLiteral("-") : p.unit,
                            LogMetricExtractor::aggregationId(p.aggregation), p.meaning, p.example);
    }
    ctx.out.flush();
    return int(ExitCode::Ok);
}

// GPU sample files (nvidia-smi CSV or dmon, rocm-smi table or CSV) read
// through the same command: one summary line per GPU.
QString opt(const std::optional<double> &v, const char *unit)
{
    return v ? QString::number(*v, 'f', 1) + QLatin1String(unit) : QStringLiteral("-");
}

void printGpus(CliContext &ctx, const GpuSampleSummary &g)
{
    const char *tool = g.tool == GpuSampleSummary::Tool::RocmSmi ? "rocm-smi" : "nvidia-smi";
    ctx.out << QStringLiteral("GPU samples (%1): %2 row(s), %3 GPU(s), %4 s\n")
                   .arg(QLatin1String(tool))
                   .arg(g.rows)
                   .arg(g.gpus.size())
                   .arg(g.durationSeconds, 0, 'f', 1);
    ctx.out << QStringLiteral("%1  %2  %3  %4  %5\n")
                   .arg(QStringLiteral("gpu"), -16)
                   .arg(QStringLiteral("util mean/peak"), -16)
                   .arg(QStringLiteral("mem MiB mean/peak"), -20)
                   .arg(QStringLiteral("temp C mean/peak"), -18)
                   .arg(QStringLiteral("power W mean/peak"));
    for (const GpuTimeline &t : g.gpus)
        ctx.out << QStringLiteral("%1  %2  %3  %4  %5\n")
                       .arg(t.key, -16)
                       .arg(opt(t.meanUtilPercent, "%") + u'/' + opt(t.peakUtilPercent, "%"), -16)
                       .arg(opt(t.meanMemUsedMiB, "") + u'/' + opt(t.peakMemUsedMiB, ""), -20)
                       .arg(opt(t.meanTempC, "") + u'/' + opt(t.peakTempC, ""), -18)
                       .arg(opt(t.meanPowerW, "") + u'/' + opt(t.peakPowerW, ""));
}

nlohmann::ordered_json gpusJson(const GpuSampleSummary &g)
{
    auto a = nlohmann::ordered_json::array();
    auto put = [](nlohmann::ordered_json &j, const char *key, const std::optional<double> &v) {
        j[key] = v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json();
    };
    for (const GpuTimeline &t : g.gpus) {
        nlohmann::ordered_json j;
        j["gpu"] = t.key.toStdString();
        j["samples"] = t.seconds.size();
        put(j, "util_mean_percent", t.meanUtilPercent);
        put(j, "util_peak_percent", t.peakUtilPercent);
        put(j, "mem_used_mean_mib", t.meanMemUsedMiB);
        put(j, "mem_used_peak_mib", t.peakMemUsedMiB);
        put(j, "temp_mean_c", t.meanTempC);
        put(j, "temp_peak_c", t.peakTempC);
        put(j, "power_mean_w", t.meanPowerW);
        put(j, "power_peak_w", t.peakPowerW);
        a.push_back(j);
    }
    return a;
}

nlohmann::ordered_json runEndsJson(const QList<RunEnd> &ends)
{
    auto a = nlohmann::ordered_json::array();
    for (const RunEnd &e : ends) {
        nlohmann::ordered_json j;
        j["kind"] = RunEnd::kindId(e.kind).toStdString();
        j["scope"] = e.scope.toStdString();
        j["at"] = e.at.toStdString();
        if (e.kind == RunEnd::Kind::ExitCode)
            j["exit_code"] = e.exitCode;
        j["line"] = e.line;
        j["text"] = e.text.left(500).toStdString();
        a.push_back(j);
    }
    return a;
}

// The researcher's --patterns FILE; an exit code when it is unusable.
std::optional<int> readPatterns(CliContext &ctx, const QString &patternsPath, QList<MetricPattern> &user)
{
    if (patternsPath.isEmpty())
        return std::nullopt;
    const auto read = InputLimits::readFile(patternsPath, QStringLiteral("pattern file"), kMaxPatternFile);
    if (!read.ok)
        return ctx.unusable(read.problem.message);
    QString text = QString::fromUtf8(read.data).trimmed();
    if (text.startsWith(u'['))
        text = QStringLiteral("{\"metricPatterns\": %1}").arg(text);
    if (!text.startsWith(u'{') || nlohmann::json::parse(text.toStdString(), nullptr, false).is_discarded())
        return ctx.unusable(QStringLiteral("%1 is not JSON: give an array of {\"name\", \"regex\", \"unit\", "
                                           "\"aggregation\"} objects")
                                .arg(patternsPath));
    const StudyNotesContent notes = StudyMetricPatterns::read(text);
    if (!notes.diagnostics.isEmpty()) {
        for (const Diagnostic &d : notes.diagnostics)
            ctx.err << DiagnosticFormat::toText(d, patternsPath) << "\n";
        return ctx.unusable(QStringLiteral("%1 has invalid patterns (above)").arg(patternsPath));
    }
    user = notes.patterns;
    return std::nullopt;
}

void printJsonResult(CliContext &ctx, const QString &logName, const LogMetricResult &r, const GpuSampleSummary &gpus)
{
    nlohmann::ordered_json j;
    j["file"] = logName.toStdString();
    j["bytes"] = r.bytes;
    auto metrics = nlohmann::ordered_json::array();
    for (const LogMetric &m : r.metrics) {
        nlohmann::ordered_json e;
        e["metric"] = m.name.toStdString();
        e["value"] = m.value;
        e["unit"] = m.unit.toStdString();
        e["line"] = m.line;
        e["rule"] = m.rule.toStdString();
        e["aggregation"] = LogMetricExtractor::aggregationId(m.aggregation).toStdString();
        e["count"] = m.count;
        e["formula"] = m.formula.toStdString();
        e["meaning"] = m.meaning.toStdString();
        e["source_line"] = m.sourceLine.left(500).toStdString();
        metrics.push_back(e);
    }
    j["metrics"] = metrics;
    j["run_ends"] = runEndsJson(r.runEnds);
    j["gpus"] = gpusJson(gpus);
    j["diagnostics"] = DiagnosticFormat::toJson(r.diagnostics);
    ctx.printJson("metrics", j);
}

void printTextResult(CliContext &ctx, const QString &logName, const LogMetricResult &r, const GpuSampleSummary &gpus)
{
    if (!gpus.noSamples)
        printGpus(ctx, gpus);
    if (r.metrics.isEmpty()) {
        if (gpus.noSamples)
            ctx.out << QStringLiteral("%1: no metrics found\n").arg(logName);
    } else {
        ctx.out << QStringLiteral("%1  %2  %3  %4  %5\n")
                       .arg(QStringLiteral("metric"), -24)
                       .arg(QStringLiteral("value"), 14)
                       .arg(QStringLiteral("unit"), -10)
                       .arg(QStringLiteral("line"), 7)
                       .arg(QStringLiteral("rule"));
        for (const LogMetric &m : r.metrics) {
            QString rule = m.rule;
            if (!m.formula.isEmpty())
                rule += QStringLiteral(" (%1)").arg(m.formula);
            ctx.out << QStringLiteral("%1  %2  %3  %4  %5\n")
                           .arg(m.name, -24)
                           .arg(number(m.value), 14)
                           .arg(m.unit, -10)
                           .arg(QString::number(m.line), 7)
                           .arg(rule);
        }
    }
    for (const RunEnd &e : r.runEnds)
        ctx.out << QStringLiteral("run end (line %1): %2\n").arg(e.line).arg(e.describe());
    for (const Diagnostic &d : r.diagnostics)
        ctx.err << DiagnosticFormat::toText(d, logName) << "\n";
    ctx.out.flush();
    ctx.err.flush();
}

// What ingest reads from one job output file (or stdin), printed.
int readLog(CliContext &ctx, const QString &log, const QString &patternsPath, bool json)
{
    const QString logName = CliContext::inputName(log);
    const bool fromStdin = log == QLatin1String("-");
    QList<MetricPattern> user;
    if (const auto rc = readPatterns(ctx, patternsPath, user))
        return *rc;
    const LogMetricExtractor extractor(user);
    bool badPattern = false;
    for (const Diagnostic &d : extractor.patternDiagnostics()) {
        ctx.err << DiagnosticFormat::toText(d, patternsPath) << "\n";
        badPattern = badPattern || d.severity == Severity::Error;
    }
    if (badPattern)
        return ctx.unusable(QStringLiteral("%1 has invalid patterns (above)").arg(patternsPath));

    LogMetricResult r;
    if (fromStdin) {
        const auto bytes = ctx.readInput(log, kMaxStdinLog, InputLimits::Content::Log);
        if (!bytes)
            return int(ExitCode::Unusable);
        r = extractor.extract(*bytes);
        r.file = logName;
        for (LogMetric &m : r.metrics)
            m.file = logName;
    } else {
        // A file is mapped, not read: a 200 MB log costs no copy.
        r = extractor.extractFile(log);
    }
    for (const Diagnostic &d : r.diagnostics)
        if (d.severity == Severity::Error)
            return ctx.unusable(d.message);
    // The same file as GPU samples: a sampler's CSV or an smi table gives no log metric.
    const GpuSampleSummary gpus = fromStdin ? GpuSampleSummary() : GpuSampleParser::parseFile(log);
    if (!gpus.noSamples)
        r.diagnostics.removeIf([](const Diagnostic &d) { return d.rule == QLatin1String("log-no-metrics"); });

    if (json) {
        printJsonResult(ctx, logName, r, gpus);
        return int(ExitCode::Ok);
    }
    printTextResult(ctx, logName, r, gpus);
    return int(ExitCode::Ok);
}

}   // namespace

int MetricsCommand::run(CliContext &ctx, const QStringList &args)
{
    CliParser a(
        QStringLiteral("metrics"), QStringLiteral("LOG|DIR|METRIC_FILE [--patterns FILE] [--json] | --list-readers"),
        QStringLiteral("Prints the metrics ScaleLab's ingest reads from a job output file (- for stdin): metric,\n"
                       "value, unit, the line it came from and the rule that read it (built-in readers for PyTorch,\n"
                       "torchrun, Hugging Face Trainer, Lightning, DeepSpeed, Keras, Horovod, tqdm,\n"
                       "nccl-/rccl-tests, Megatron-LM, Megatron-DeepSpeed, NeMo, fairseq, MLPerf, nanoGPT, llm.c,\n"
                       "DeepSpeed-Chat, timm, torchvision references and JAX/Flax; --list-readers shows each), and\n"
                       "how Slurm ended the job (cancelled, time limit, oom-kill, exit code). A value whose line\n"
                       "does not say per GPU or whole job is named on stderr, never printed as a metric; a log that\n"
                       "gives nothing says so on stderr with the lines that came closest. --json prints {\"schema\",\n"
                       "\"file\", \"bytes\", \"metrics\": [...], \"run_ends\": [...], \"diagnostics\": [...]}.\n"
                       "A folder, or a framework's own metric file, is read with the metric file readers instead:\n"
                       "trainer_state.json (Hugging Face Trainer), metrics.csv + hparams.yaml (Lightning CSVLogger),\n"
                       "events.out.tfevents.* (TensorBoard), MLflow runs (mlruns/), W&B runs (wandb/*run-*/files).\n"
                       "Exit code: 0 read (even with no metrics), 2 unusable input (unreadable LOG or FILE,\n"
                       "invalid pattern)."));
    a.value({QStringLiteral("patterns")}, QStringLiteral("FILE"),
            QStringLiteral("add your own patterns (JSON, see below)"));
    a.flag({QStringLiteral("list-readers")},
           QStringLiteral("list every built-in reader with a line it reads, then exit"));
    a.footer(QStringLiteral("--patterns FILE: a JSON array of {\"name\", \"regex\", \"unit\",\n"
                            "\"aggregation\": \"last|mean|max|min|per-rank-sum\"} (or a study's notes object with\n"
                            "\"metricPatterns\"); a pattern with a built-in name replaces that metric's value.\n"
                            "Regexes use RE2 syntax (no backreferences or lookarounds: each runs in time linear in\n"
                            "the log); at most 100 patterns of 1000 characters, a FILE of at most 1 MB."));
    a.examples({QStringLiteral("scalelab metrics slurm-95659.out"), QStringLiteral("scalelab metrics outputs/"),
                QStringLiteral("scalelab metrics slurm-95659.out --patterns patterns.json --json"),
                QStringLiteral("ssh login cat run/slurm-95659.out | scalelab metrics -")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    const bool json = a.isSet(QStringLiteral("json"));
    ctx.setJsonMode(json);
    if (a.isSet(QStringLiteral("list-readers")))
        return listReaders(ctx, json);
    const QString patternsPath = a.value(QStringLiteral("patterns")).value_or(QString());
    const QStringList positional = a.positional();
    if (positional.size() != 1)
        return ctx.unusable(QStringLiteral("metrics needs exactly one LOG file (see `scalelab metrics --help`)"));
    const QString log = positional.front();
    // A folder or a framework's own metric file (trainer_state.json,
    // metrics.csv, TensorBoard events, MLflow, W&B): read with those readers.
    if (log != QLatin1String("-") && (QFileInfo(log).isDir() || MetricFileScanner::isMetricFile(log)))
        return MetricFilesOutput::run(ctx, log, json);
    return readLog(ctx, log, patternsPath, json);
}

}   // namespace scalelab
