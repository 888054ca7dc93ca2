// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/MetricFilesOutput.h"

#include "core/base/DiagnosticFormat.h"
#include "core/ingest/MetricFileScanner.h"

#include <nlohmann/json.hpp>

namespace scalelab {

namespace {

nlohmann::ordered_json toJson(const MetricFileResult &r, const QString &name)
{
    nlohmann::ordered_json j;
    j["file"] = name.toStdString();
    auto metrics = nlohmann::ordered_json::array();
    for (const FileMetric &m : r.metrics) {
        nlohmann::ordered_json e;
        e["metric"] = m.name.toStdString();
        e["value"] = m.value;
        e["unit"] = m.unit.toStdString();
        e["key"] = m.key.toStdString();
        e["source"] = m.source.toStdString();
        e["file"] = m.file.toStdString();
        e["line"] = m.line;
        e["rule"] = m.rule.toStdString();
        e["count"] = m.count;
        e["points"] = m.values.size();
        metrics.push_back(e);
    }
    j["metrics"] = metrics;
    auto params = nlohmann::ordered_json::array();
    for (const RunParameter &p : r.parameters)
        params.push_back({{"key", p.key.toStdString()},
                          {"value", p.value.toStdString()},
                          {"file", p.file.toStdString()},
                          {"line", p.line}});
    j["parameters"] = params;
    j["diagnostics"] = DiagnosticFormat::toJson(r.diagnostics);
    return j;
}

// Each message names its file already (the folder's files differ): the
// line and field follow it.
QString findingText(const Diagnostic &d)
{
    QString where;
    if (d.line > 0)
        where += QStringLiteral(" (line %1)").arg(d.line);
    if (!d.field.isEmpty())
        where += QStringLiteral(" (field %1)").arg(d.field);
    return QStringLiteral("%1 [%2] %3%4").arg(severityName(d.severity), d.rule, d.message, where);
}

void printTable(CliContext &ctx, const MetricFileResult &r)
{
    if (r.metrics.isEmpty()) {
        ctx.err << QStringLiteral("no metric values in %1\n").arg(r.files.join(QStringLiteral(", ")));
    } else {
        ctx.out << QStringLiteral("%1  %2  %3  %4  %5  %6\n")
                       .arg(QStringLiteral("metric"), -24)
                       .arg(QStringLiteral("value"), 14)
                       .arg(QStringLiteral("unit"), -10)
                       .arg(QStringLiteral("points"), 7)
                       .arg(QStringLiteral("source"), -22)
                       .arg(QStringLiteral("rule"));
        for (const FileMetric &m : r.metrics)
            ctx.out << QStringLiteral("%1  %2  %3  %4  %5  %6\n")
                           .arg(m.name, -24)
                           .arg(QString::number(m.value, 'g', 10), 14)
                           .arg(m.unit, -10)
                           .arg(QString::number(m.values.size()), 7)
                           .arg(m.source, -22)
                           .arg(m.rule);
    }
    if (!r.parameters.isEmpty())
        ctx.out << QStringLiteral("\nrun parameters:\n");
    for (const RunParameter &p : r.parameters)
        ctx.out << QStringLiteral("  %1 = %2\n").arg(p.key, p.value);
}

}   // namespace

int MetricFilesOutput::run(CliContext &ctx, const QString &path, bool json)
{
    const MetricFileResult r = MetricFileScanner::scan(path);
    const QString name = CliContext::inputName(path);
    if (r.files.isEmpty() && r.metrics.isEmpty()) {
        for (const Diagnostic &d : r.diagnostics)
            ctx.err << findingText(d) << "\n";
        return ctx.unusable(
            QStringLiteral("%1: no metric file found; looked for %2").arg(name, MetricFileScanner::lookedFor()));
    }
    if (json) {
        ctx.printJson("metrics", toJson(r, name));
        return int(ExitCode::Ok);
    }
    printTable(ctx, r);
    for (const Diagnostic &d : r.diagnostics)
        ctx.err << findingText(d) << "\n";
    ctx.out.flush();
    ctx.err.flush();
    return int(ExitCode::Ok);
}

}   // namespace scalelab
