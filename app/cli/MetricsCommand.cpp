// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/MetricsCommand.h"

#include "app/cli/CliParser.h"
#include "app/cli/MetricFilesOutput.h"
#include "core/base/DiagnosticFormat.h"
#include "core/base/InputLimits.h"
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

}   // namespace

int MetricsCommand::run(CliContext &ctx, const QStringList &args)
{
    CliParser a(
        QStringLiteral("metrics"), QStringLiteral("LOG|DIR|METRIC_FILE [--patterns FILE] [--json]"),
        QStringLiteral("Prints the metrics ScaleLab's ingest reads from a job output file (- for stdin): metric,\n"
                       "value, unit, the line it came from and the rule that read it (built-in readers for PyTorch,\n"
                       "torchrun, Hugging Face Trainer, Lightning, DeepSpeed, Keras, Horovod, tqdm and\n"
                       "nccl-/rccl-tests). --json prints {\"schema\", \"file\", \"bytes\", \"metrics\": [...],\n"
                       "\"diagnostics\": [...]}.\n"
                       "A folder, or a framework's own metric file, is read with the metric file readers instead:\n"
                       "trainer_state.json (Hugging Face Trainer), metrics.csv + hparams.yaml (Lightning CSVLogger),\n"
                       "events.out.tfevents.* (TensorBoard), MLflow runs (mlruns/), W&B runs (wandb/*run-*/files).\n"
                       "Exit code: 0 read (even with no metrics), 2 unusable input (unreadable LOG or FILE,\n"
                       "invalid pattern)."));
    a.value({QStringLiteral("patterns")}, QStringLiteral("FILE"),
            QStringLiteral("add your own patterns (JSON, see below)"));
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
    const QString patternsPath = a.value(QStringLiteral("patterns")).value_or(QString());
    const QStringList positional = a.positional();
    if (positional.size() != 1)
        return ctx.unusable(QStringLiteral("metrics needs exactly one LOG file (see `scalelab metrics --help`)"));
    const QString log = positional.front();
    // A folder or a framework's own metric file (trainer_state.json,
    // metrics.csv, TensorBoard events, MLflow, W&B): read with those readers.
    if (log != QLatin1String("-") && (QFileInfo(log).isDir() || MetricFileScanner::isMetricFile(log)))
        return MetricFilesOutput::run(ctx, log, json);
    const QString logName = CliContext::inputName(log);
    const bool fromStdin = log == QLatin1String("-");
    QList<MetricPattern> user;
    if (!patternsPath.isEmpty()) {
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
    }
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

    if (json) {
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
        j["diagnostics"] = DiagnosticFormat::toJson(r.diagnostics);
        ctx.printJson("metrics", j);
        return int(ExitCode::Ok);
    }
    if (r.metrics.isEmpty()) {
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
    for (const Diagnostic &d : r.diagnostics)
        ctx.err << DiagnosticFormat::toText(d, logName) << "\n";
    ctx.out.flush();
    ctx.err.flush();
    return int(ExitCode::Ok);
}

}   // namespace scalelab
