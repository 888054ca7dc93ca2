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

// A cell that never breaks inside a word: spaces become non-breaking where a
// value and its unit belong together; the table is narrow enough for A4.
QString cell(const QString &text, bool header = false)
{
    const QString tag = header ? QStringLiteral("th") : QStringLiteral("td");
    return QStringLiteral("<%1><span style=\"white-space: nowrap;\">%2</span></%1>").arg(tag, esc(text));
}

QString range(const std::optional<double> &mid, const std::optional<double> &lo, const std::optional<double> &hi)
{
    if (!mid)
        return QStringLiteral("–");
    if (!lo || !hi || *lo == *hi)
        return num(mid);
    return QStringLiteral("%1 (%2–%3)").arg(num(mid), num(lo), num(hi));
}

} // namespace

QString scalingTableHtml(const ScalingAnalysis &analysis, const StudyScalingInput &input)
{
    const bool rt = analysis.basis() == ScalingBasis::Runtime;
    const QString basisMetric = rt ? input.runtimeMetric : input.throughputMetric;
    const int base = analysis.baselineGpus();
    QString html = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" style=\"font-size: 7pt;\"><tr>");
    for (const QString &h : {QStringLiteral("GPUs"), QStringLiteral("Runs used"), QStringLiteral("Runtime [s]"),
                             QStringLiteral("Speedup"), QStringLiteral("Parallel efficiency"),
                             QStringLiteral("Throughput [samples/s]"), QStringLiteral("Accuracy"), QStringLiteral("GPU-hours")})
        html += cell(h, true);
    html += QStringLiteral("</tr><tr>");
    // Which metric each number is based on (allocation reviewers copy these).
    const QStringList basedOn{
        QStringLiteral("based on:"),
        QStringLiteral("completed runs"),
        input.runtimeMetric.isEmpty() ? QStringLiteral("none") : input.runtimeMetric + QStringLiteral(", median"),
        QStringLiteral("%1 of %2 GPU(s) ÷ %1").arg(basisMetric.isEmpty() ? QStringLiteral("–") : basisMetric).arg(base),
        QStringLiteral("speedup × %1 ÷ GPUs").arg(base),
        input.throughputMetric.isEmpty() ? QStringLiteral("none") : input.throughputMetric + QStringLiteral(", median"),
        input.accuracyMetric.isEmpty() ? QStringLiteral("none") : input.accuracyMetric + QStringLiteral(", median"),
        QStringLiteral("gpu_hours (sacct), median")};
    for (QString b : basedOn) {
        if (!rt && b.contains(QStringLiteral(" ÷ ")) && b.startsWith(basisMetric))
            b = QStringLiteral("%1 ÷ %1 of %2 GPU(s)").arg(basisMetric).arg(base);
        html += QStringLiteral("<td><i><span style=\"white-space: nowrap;\">%1</span></i></td>").arg(esc(b));
    }
    html += QStringLiteral("</tr>");
    auto failedAt = [&input](int gpus) {
        int n = 0;
        for (const ScalingRun &r : input.runs)
            n += r.gpus == gpus && r.failed;
        return n;
    };
    for (const ScalingPoint &p : analysis.points()) {
        html += QStringLiteral("<tr>");
        html += cell(QString::number(p.gpus));
        const int failed = failedAt(p.gpus);
        html += cell(failed ? QStringLiteral("%1 (+%2 not completed)").arg(p.runs).arg(failed) : QString::number(p.runs));
        html += cell(range(p.runtimeSeconds, p.runtimeMin, p.runtimeMax));
        html += cell(p.runs > 1 && p.speedupMin != p.speedupMax
                         ? QStringLiteral("%1× (%2–%3)").arg(p.speedup, 0, 'f', 2).arg(p.speedupMin, 0, 'f', 2).arg(p.speedupMax, 0, 'f', 2)
                         : QStringLiteral("%1×").arg(p.speedup, 0, 'f', 2));
        html += cell(QStringLiteral("%1 %").arg(p.efficiency * 100.0, 0, 'f', 1));
        html += cell(range(p.throughput, p.throughputMin, p.throughputMax));
        html += cell(p.accuracy ? QString::number(*p.accuracy, 'f', 4) : QStringLiteral("–"));
        html += cell(p.gpuHours ? QString::number(*p.gpuHours, 'f', 4) : QStringLiteral("–"));
        html += QStringLiteral("</tr>");
    }
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
        html += QStringLiteral("<tr>%1%2<td colspan=\"6\">no completed run: not measured</td></tr>")
                    .arg(cell(QString::number(g)), cell(QStringLiteral("0 (+%1 not completed)").arg(failedAt(g))));
    for (const ScalingPoint &p : analysis.predictions())
        html += QStringLiteral("<tr>%1%2%3%4%5<td colspan=\"3\"><i>Amdahl estimate, not measured</i></td></tr>")
                    .arg(cell(QString::number(p.gpus)), cell(QStringLiteral("0")), cell(num(p.runtimeSeconds)),
                         cell(QStringLiteral("%1×").arg(p.speedup, 0, 'f', 2)),
                         cell(QStringLiteral("%1 %").arg(p.efficiency * 100.0, 0, 'f', 1)));
    html += QStringLiteral("</table>");
    return html;
}

QString runsTableHtml(const RunMetricsTable &table, const StudyScalingInput &input)
{
    QString html = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"2\" style=\"font-size: 7pt;\"><tr>");
    const QStringList headers{QStringLiteral("Run"), QStringLiteral("Job"), QStringLiteral("GPUs"), QStringLiteral("Nodes"),
                              QStringLiteral("State"),
                              input.runtimeMetric.isEmpty() ? QStringLiteral("Runtime") : input.runtimeMetric,
                              input.throughputMetric.isEmpty() ? QStringLiteral("Throughput") : input.throughputMetric,
                              input.accuracyMetric.isEmpty() ? QStringLiteral("Accuracy") : input.accuracyMetric,
                              QStringLiteral("GPU util %"), QStringLiteral("GPU-h"), QStringLiteral("Billing h"),
                              QStringLiteral("CPU eff.")};
    for (const QString &h : headers)
        html += cell(h, true);
    html += QStringLiteral("</tr>");
    for (const RunMetricsRow &r : table.rows) {
        html += QStringLiteral("<tr>");
        html += cell(QString::number(r.run.id));
        html += cell(r.run.jobId.isEmpty() ? QStringLiteral("–") : r.run.jobId);
        html += cell(QString::number(StudyScaling::gpusOf(r)));
        html += cell(QString::number(r.run.nodes));
        // "CANCELLED by 1001": the state word is what matters in a narrow cell.
        const QString state = r.accounting ? r.accounting->stateText : r.stateText();
        html += cell(state.section(u' ', 0, 0) + (StudyScaling::completed(r) ? QString() : QStringLiteral(" (left out)")));
        html += cell(input.runtimeMetric.isEmpty() ? QStringLiteral("–") : num(r.value(input.runtimeMetric)));
        html += cell(input.throughputMetric.isEmpty() ? QStringLiteral("–") : num(r.value(input.throughputMetric)));
        html += cell(input.accuracyMetric.isEmpty() ? QStringLiteral("–") : num(r.value(input.accuracyMetric)));
        const bool noSamples = r.value(metric::GpuSamples).value_or(-1) == 0;
        html += cell(!input.utilMetric.isEmpty() && r.value(input.utilMetric) ? num(r.value(input.utilMetric), 3)
                     : noSamples                                               ? QStringLiteral("no samples")
                                                                               : QStringLiteral("–"));
        html += cell(num(r.value(metric::GpuHours)));
        html += cell(num(r.value(metric::BillingHours)));
        const auto eff = r.value(metric::CpuEfficiency);
        html += cell(eff ? QStringLiteral("%1 %").arg(*eff * 100.0, 0, 'f', 1) : QStringLiteral("–"));
        html += QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
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

} // namespace scalelab::report
