// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/MetricsCommand.h"

#include "core/base/DiagnosticFormat.h"
#include "core/ingest/LogMetricExtractor.h"
#include "core/ingest/StudyMetricPatterns.h"

#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <cmath>

namespace scalelab {

namespace {

constexpr int kOk = 0;
constexpr int kUnusable = 2;
constexpr qint64 kMaxPatternFile = 16 * 1024 * 1024;

int unusable(CliContext &ctx, const QString &reason)
{
    ctx.err << "scalelab metrics: " << reason << "\n";
    ctx.err.flush();
    return kUnusable;
}

const char *kHelp = "Usage: scalelab metrics LOG [--patterns FILE] [--json]\n\n"
                    "Prints the metrics ScaleLab's ingest reads from a job output file: metric, value, unit,\n"
                    "the line it came from and the rule that read it (built-in readers for PyTorch, torchrun,\n"
                    "Hugging Face Trainer, Lightning, DeepSpeed, Keras, Horovod, tqdm and nccl-/rccl-tests).\n"
                    "--patterns FILE adds your own patterns: a JSON array of {\"name\", \"regex\", \"unit\",\n"
                    "\"aggregation\": \"last|mean|max|min|per-rank-sum\"} (or a study's notes object with\n"
                    "\"metricPatterns\"); a pattern with a built-in name replaces that metric's value.\n"
                    "--json prints {\"file\", \"metrics\": [...], \"diagnostics\": [...]}.\n"
                    "Exit code: 0 read (even with no metrics), 2 unusable input (unreadable LOG or FILE,\n"
                    "invalid pattern).\n";

QString number(double v)
{
    return QString::number(v, 'g', 10);
}

}   // namespace

int MetricsCommand::run(CliContext &ctx, const QStringList &args)
{
    bool json = false;
    QString patternsPath;
    QStringList positional;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
            ctx.out << kHelp;
            ctx.out.flush();
            return kOk;
        }
        if (a == QLatin1String("--json")) {
            json = true;
        } else if (a == QLatin1String("--patterns")) {
            if (i + 1 >= args.size())
                return unusable(ctx, QStringLiteral("--patterns needs a FILE"));
            patternsPath = args[++i];
        } else if (a.startsWith(QLatin1String("--patterns="))) {
            patternsPath = a.mid(11);
        } else if (a.startsWith(QLatin1String("-")) && a.size() > 1) {
            return unusable(ctx, QStringLiteral("unknown option %1 (see `scalelab metrics --help`)").arg(a));
        } else {
            positional << a;
        }
    }
    if (positional.size() != 1)
        return unusable(ctx, QStringLiteral("needs exactly one LOG file (see `scalelab metrics --help`)"));
    const QString log = positional.front();
    QFileInfo info(log);
    if (!info.exists())
        return unusable(ctx, QStringLiteral("cannot read %1: no such file").arg(log));
    if (!info.isFile() || !info.isReadable())
        return unusable(ctx, QStringLiteral("cannot read %1: not a readable file").arg(log));

    QList<MetricPattern> user;
    if (!patternsPath.isEmpty()) {
        QFile f(patternsPath);
        if (!f.open(QIODevice::ReadOnly))
            return unusable(ctx,
                            QStringLiteral("cannot read the pattern file %1: %2").arg(patternsPath, f.errorString()));
        if (f.size() > kMaxPatternFile)
            return unusable(ctx, QStringLiteral("%1 is larger than 16 MB; that is no pattern file").arg(patternsPath));
        QString text = QString::fromUtf8(f.readAll()).trimmed();
        if (text.startsWith(u'['))
            text = QStringLiteral("{\"metricPatterns\": %1}").arg(text);
        if (!text.startsWith(u'{') || nlohmann::json::parse(text.toStdString(), nullptr, false).is_discarded())
            return unusable(ctx, QStringLiteral("%1 is not JSON: give an array of {\"name\", \"regex\", \"unit\", "
                                                "\"aggregation\"} objects")
                                     .arg(patternsPath));
        const StudyNotesContent notes = StudyMetricPatterns::read(text);
        if (!notes.diagnostics.isEmpty()) {
            for (const Diagnostic &d : notes.diagnostics)
                ctx.err << DiagnosticFormat::toText(d, patternsPath) << "\n";
            return unusable(ctx, QStringLiteral("%1 has invalid patterns (above)").arg(patternsPath));
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
        return unusable(ctx, QStringLiteral("%1 has invalid patterns (above)").arg(patternsPath));

    const LogMetricResult r = extractor.extractFile(log);
    for (const Diagnostic &d : r.diagnostics)
        if (d.severity == Severity::Error)
            return unusable(ctx, d.message);

    if (json) {
        nlohmann::ordered_json j;
        j["file"] = log.toStdString();
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
        ctx.out << QString::fromStdString(j.dump(2)) << "\n";
        ctx.out.flush();
        return kOk;
    }
    if (r.metrics.isEmpty()) {
        ctx.out << QStringLiteral("%1: no metrics found\n").arg(log);
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
        ctx.err << DiagnosticFormat::toText(d, log) << "\n";
    ctx.out.flush();
    ctx.err.flush();
    return kOk;
}

}   // namespace scalelab
