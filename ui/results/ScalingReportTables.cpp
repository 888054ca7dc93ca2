// SPDX-License-Identifier: GPL-3.0-or-later
// The scaling report's tables and scripts as HTML for QTextDocument.
#include "ui/results/ScalingReport.h"

#include "core/model/MetricNames.h"

#include <cmath>

namespace scalelab::report {

namespace {

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

QString num(const std::optional<double> &v, int precision = 4)
{
    return v ? QString::number(*v, 'g', precision) : QStringLiteral("–");
}

// A value cell that never breaks: its spaces are non-breaking, and the
// columns are given widths (QTextDocument otherwise shares the page equally
// and breaks values mid-word, "COMPLE/TED").
QString cell(const QString &text)
{
    // No-break spaces, and word joiners around dashes ("1.81–4.17").
    return QStringLiteral("<td><span style=\"font-size: 7pt;\">%1</span></td>")
        .arg(esc(text)
                 .replace(u' ', QChar(0xa0))
                 .replace(QStringLiteral("–"), QStringLiteral("\u2060–\u2060"))
                 .replace(u'\n', QStringLiteral("<br>")));   // a range goes under its median
}

QString header(const QString &text, int widthPercent)
{
    return QStringLiteral("<th width=\"%1%\"><span style=\"font-size: 7pt;\">%2</span></th>")
        .arg(widthPercent)
        .arg(esc(text));
}

QString range(const std::optional<double> &mid, const std::optional<double> &lo, const std::optional<double> &hi)
{
    if (!mid)
        return QStringLiteral("–");
    if (!lo || !hi || *lo == *hi)
        return num(mid);
    return QStringLiteral("%1\n(%2–%3)").arg(num(mid), num(lo), num(hi));
}

int failedAt(const StudyScalingInput &input, int gpus)
{
    int n = 0;
    for (const ScalingRun &r : input.runs)
        n += r.gpus == gpus && r.failed;
    return n;
}

// The header row and the row naming the metric each column is based on.
QString scalingHeaderHtml(const ScalingAnalysis &analysis, const StudyScalingInput &input)
{
    const bool rt = analysis.basis() == ScalingBasis::Runtime;
    const QString basisMetric = rt ? input.runtimeMetric : input.throughputMetric;
    const int base = analysis.baselineGpus();
    // Narrow enough for A4 at 6.5 pt: short headers, values that never wrap,
    // and a "based on" row that wraps only at spaces.
    QString html = QStringLiteral(
        "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\" style=\"font-size: 7pt;\"><tr>");
    const QList<std::pair<QString, int>> heads{
        {QStringLiteral("GPUs"), 7},         {QStringLiteral("Runs used"), 13},
        {QStringLiteral("Runtime [s]"), 13}, {QStringLiteral("Speedup"), 13},
        {QStringLiteral("Efficiency"), 13},  {QStringLiteral("Throughput [samples/s]"), 15},
        {QStringLiteral("Accuracy"), 14},    {QStringLiteral("GPU-hours"), 12}};
    for (const auto &[h, w] : heads)
        html += header(h, w);
    html += QStringLiteral("</tr><tr>");
    // Which metric each number is based on (allocation reviewers copy these).
    const QString basis = basisMetric.isEmpty() ? QStringLiteral("–") : basisMetric;
    const QStringList basedOn{
        QString(),
        QStringLiteral("completed runs"),
        input.runtimeMetric.isEmpty() ? QStringLiteral("none") : input.runtimeMetric + QStringLiteral(" median"),
        rt ? QStringLiteral("%1 on %2 GPU ÷ %1").arg(basis).arg(base)
           : QStringLiteral("%1 ÷ %1 on %2 GPU").arg(basis).arg(base),
        QStringLiteral("speedup × %1 ÷ GPUs").arg(base),
        input.throughputMetric.isEmpty() ? QStringLiteral("none") : input.throughputMetric + QStringLiteral(" median"),
        input.accuracyMetric.isEmpty() ? QStringLiteral("none") : input.accuracyMetric + QStringLiteral(" median"),
        QStringLiteral("gpu_hours median")};
    // Metric names up to 12 characters fit the narrowest column; a longer one
    // ("test_accuracy") may break after an underscore (a zero-width space),
    // never inside a word.
    auto breakable = [](const QString &b) {
        QStringList words = b.split(u' ');
        for (QString &w : words)
            if (w.size() > 12)
                w.replace(u'_', QStringLiteral("_\u200B"));
        return words.join(u' ');
    };
    for (const QString &b : basedOn)
        html += QStringLiteral("<td><span style=\"font-size: 7pt;\"><i>%1</i></span></td>").arg(esc(breakable(b)));
    html += QStringLiteral("</tr>");
    return html;
}

// One row per measured GPU count.
QString scalingPointsHtml(const ScalingAnalysis &analysis, const StudyScalingInput &input)
{
    QString html;
    for (const ScalingPoint &p : analysis.points()) {
        html += QStringLiteral("<tr>");
        html += cell(QString::number(p.gpus));
        const int failed = failedAt(input, p.gpus);
        html += cell(failed ? QStringLiteral("%1 (+%2†)").arg(p.runs).arg(failed) : QString::number(p.runs));
        html += cell(range(p.runtimeSeconds, p.runtimeMin, p.runtimeMax));
        html += cell(p.runs > 1 && p.speedupMin != p.speedupMax ? QStringLiteral("%1×\n(%2–%3)")
                                                                      .arg(p.speedup, 0, 'f', 2)
                                                                      .arg(p.speedupMin, 0, 'f', 2)
                                                                      .arg(p.speedupMax, 0, 'f', 2)
                                                                : QStringLiteral("%1×").arg(p.speedup, 0, 'f', 2));
        html += cell(QStringLiteral("%1 %").arg(p.efficiency * 100.0, 0, 'f', 1));
        html += cell(range(p.throughput, p.throughputMin, p.throughputMax));
        html += cell(p.accuracy ? QString::number(*p.accuracy, 'f', 4) : QStringLiteral("–"));
        html += cell(p.gpuHours ? QString::number(*p.gpuHours, 'f', 4) : QStringLiteral("–"));
        html += QStringLiteral("</tr>");
    }
    return html;
}

// GPU counts without a completed run and the Amdahl estimates: never measured numbers.
QString unmeasuredRowsHtml(const ScalingAnalysis &analysis, const StudyScalingInput &input)
{
    QString html;
    // GPU counts where no run completed: named, never given numbers.
    QList<int> only;
    for (const ScalingRun &r : input.runs) {
        bool measured = false;
        for (const ScalingPoint &p : analysis.points())
            measured = measured || p.gpus == r.gpus;
        if (!measured && r.gpus > 0 && !only.contains(r.gpus))
            only << r.gpus;
    }
    for (int g : only)
        html += QStringLiteral(
                    "<tr>%1%2<td colspan=\"6\" style=\"font-size: 7pt;\">no completed run: not measured</td></tr>")
                    .arg(cell(QString::number(g)), cell(QStringLiteral("0 (+%1†)").arg(failedAt(input, g))));
    for (const ScalingPoint &p : analysis.predictions())
        html += QStringLiteral("<tr>%1%2%3%4%5<td colspan=\"3\" style=\"font-size: 7pt;\"><i>Amdahl estimate, not "
                               "measured</i></td></tr>")
                    .arg(cell(QString::number(p.gpus)), cell(QStringLiteral("0")), cell(num(p.runtimeSeconds)),
                         cell(QStringLiteral("%1×").arg(p.speedup, 0, 'f', 2)),
                         cell(QStringLiteral("%1 %").arg(p.efficiency * 100.0, 0, 'f', 1)));
    return html;
}

}   // namespace

QString scalingTableHtml(const ScalingAnalysis &analysis, const StudyScalingInput &input)
{
    QString html = scalingHeaderHtml(analysis, input);
    html += scalingPointsHtml(analysis, input);
    html += unmeasuredRowsHtml(analysis, input);
    html += QStringLiteral("</table>");
    return html;
}

QString runsTableHtml(const RunMetricsTable &table, const StudyScalingInput &input)
{
    // Two tables of at most seven columns: one wide table on A4 squeezed its
    // cells until words broke ("COMPLE/TED").
    auto head = [](const QList<std::pair<QString, int>> &cols) {
        QString h = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"2\" width=\"100%\"><tr>");
        for (const auto &[t, w] : cols)
            h += header(t, w);
        return h + QStringLiteral("</tr>");
    };
    QString html = head({{QStringLiteral("Run"), 8},
                         {QStringLiteral("Job"), 10},
                         {QStringLiteral("GPUs"), 8},
                         {QStringLiteral("State"), 17},
                         {input.runtimeMetric.isEmpty() ? QStringLiteral("Runtime") : input.runtimeMetric, 19},
                         {input.throughputMetric.isEmpty() ? QStringLiteral("Throughput") : input.throughputMetric, 19},
                         {input.accuracyMetric.isEmpty() ? QStringLiteral("Accuracy") : input.accuracyMetric, 19}});
    for (const RunMetricsRow &r : table.rows) {
        html += QStringLiteral("<tr>");
        html += cell(QString::number(r.run.id));
        html += cell(r.run.jobId.isEmpty() ? QStringLiteral("–") : r.run.jobId);
        html += cell(QString::number(StudyScaling::gpusOf(r)));
        // "CANCELLED by 1001": the state word is what matters in a narrow cell.
        const QString state = r.accounting ? r.accounting->stateText : r.stateText();
        html += cell(state.section(u' ', 0, 0) + (StudyScaling::completed(r) ? QString() : QStringLiteral(" †")));
        html += cell(input.runtimeMetric.isEmpty() ? QStringLiteral("–") : num(r.value(input.runtimeMetric)));
        html += cell(input.throughputMetric.isEmpty() ? QStringLiteral("–") : num(r.value(input.throughputMetric)));
        html += cell(input.accuracyMetric.isEmpty() ? QStringLiteral("–") : num(r.value(input.accuracyMetric)));
        html += QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table><p>Resources per run:</p>");
    html += head({{QStringLiteral("Run"), 10},
                  {QStringLiteral("Nodes"), 12},
                  {QStringLiteral("GPU util %"), 20},
                  {QStringLiteral("GPU-hours"), 20},
                  {QStringLiteral("Billing hours"), 20},
                  {QStringLiteral("CPU efficiency"), 18}});
    for (const RunMetricsRow &r : table.rows) {
        html += QStringLiteral("<tr>");
        html += cell(QString::number(r.run.id));
        html += cell(QString::number(r.run.nodes));
        const bool noSamples = r.value(metric::GpuSamples).value_or(-1) == 0;
        html += cell(!input.utilMetric.isEmpty() && r.value(input.utilMetric) ? num(r.value(input.utilMetric), 3)
                     : noSamples                                              ? QStringLiteral("no samples")
                                                                              : QStringLiteral("–"));
        html += cell(num(r.value(metric::GpuHours)));
        html += cell(num(r.value(metric::BillingHours)));
        const auto eff = r.value(metric::CpuEfficiency);
        html += cell(eff ? QStringLiteral("%1 %").arg(*eff * 100.0, 0, 'f', 1) : QStringLiteral("–"));
        html += QStringLiteral("</tr>");
    }
    html +=
        QStringLiteral("</table><p>† did not complete: left out of the analysis and drawn hollow in the charts.</p>");
    return html;
}

QString wrapScript(const QString &script, int width)
{
    QStringList out;
    for (const QString &line : script.split(u'\n')) {
        if (line.size() <= width) {
            out << line;
            continue;
        }
        out << line.left(width);
        for (qsizetype at = width; at < line.size(); at += width - 2)
            out << QStringLiteral("↪ ") + line.mid(at, width - 2);
    }
    return out.join(u'\n');
}

QString scriptsHtml(const RunMetricsTable &table)
{
    QString html = QStringLiteral("<h2>Job scripts</h2><p>Lines longer than 100 characters continue on the next line "
                                  "after ↪.</p>");
    for (const RunMetricsRow &r : table.rows) {
        html += QStringLiteral("<h3>Run %1 (job %2, %3 GPUs)</h3>")
                    .arg(r.run.id)
                    .arg(esc(r.run.jobId.isEmpty() ? QStringLiteral("–") : r.run.jobId))
                    .arg(r.run.gpus);
        html += QStringLiteral("<pre style=\"font-size: 7pt;\">%1</pre>")
                    .arg(esc(r.run.script.isEmpty() ? QStringLiteral("(no script stored)") : wrapScript(r.run.script)));
    }
    return html;
}

}   // namespace scalelab::report
