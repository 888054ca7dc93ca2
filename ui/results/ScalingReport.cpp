// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/ScalingReport.h"

#include "core/model/MetricNames.h"
#include "core/profiles/ProfileRegistry.h"
#include "ui/results/QCustomPlotInclude.h"
#include "core/analysis/RunMetricsTable.h"
#include "core/store/RunStore.h"
#include "ui/results/StudyCharts.h"

#include <QApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QPageSize>
#include <QPdfWriter>
#include <QSet>
#include <QTextDocument>

namespace scalelab {

namespace {

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

QString num(const std::optional<double> &v, int precision = 4)
{
    return v ? QString::number(*v, 'g', precision) : QStringLiteral("–");
}

QString joinSet(const QStringList &values)
{
    QStringList unique;
    for (const QString &v : values)
        if (!v.isEmpty() && !unique.contains(v))
            unique << v;
    return unique.isEmpty() ? QStringLiteral("–") : unique.join(QStringLiteral(", "));
}

} // namespace

QString writeScalingReport(RunStore &store, qint64 studyId, const QString &pdfPath)
{
    if (!qobject_cast<QApplication *>(QCoreApplication::instance()))
        return QStringLiteral("scaling report: needs a QApplication (the charts are widgets); "
                              "run with QT_QPA_PLATFORM=offscreen when there is no display");
    const auto study = store.study(studyId);
    if (!study.ok())
        return QStringLiteral("scaling report: study %1: %2").arg(studyId).arg(study.errorText());
    const RunMetricsTable table = RunMetricsTable::load(store, studyId);
    if (!table.error.isEmpty())
        return QStringLiteral("scaling report: %1").arg(table.error);

    StudyCharts charts;
    charts.resize(1500, 900);
    charts.setRows(table.rows, study.value().name);
    const ScalingAnalysis &analysis = charts.analysis();
    const StudyScalingInput &input = charts.input();

    QTextDocument doc;
    doc.setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 9));

    // Context: clusters, profiles (and the Slurm version they document), dates.
    ProfileRegistry profiles;
    profiles.loadDefaults();
    QStringList clusters, profileNames, slurm, partitions, frameworks, submits, ends;
    for (const RunMetricsRow &r : table.rows) {
        clusters << r.run.clusterAlias;
        profileNames << r.run.profile;
        partitions << r.run.partition;
        frameworks << r.run.framework;
        // The version that ran the job beats the one the profile documents.
        if (!r.run.slurmVersion.isEmpty())
            slurm << QStringLiteral("%1 (ran the jobs)").arg(r.run.slurmVersion);
        else if (const ClusterProfile *p = profiles.find(r.run.profile); p && !p->slurmVersion.isEmpty())
            slurm << QStringLiteral("%1 (%2 profile)").arg(p->slurmVersion, p->id);
        if (r.accounting) {
            submits << r.accounting->submit;
            ends << r.accounting->end;
        }
    }
    submits.removeAll(QStringLiteral("Unknown"));
    ends.removeAll(QStringLiteral("Unknown"));
    std::sort(submits.begin(), submits.end());
    std::sort(ends.begin(), ends.end());

    QString html;
    html += QStringLiteral("<h1>Scaling report: %1</h1>").arg(esc(study.value().name));
    html += QStringLiteral("<table cellpadding=\"2\">");
    auto info = [&html](const QString &k, const QString &v) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(esc(k), esc(v));
    };
    info(QStringLiteral("Study created"), study.value().created.toString(Qt::ISODate));
    info(QStringLiteral("Cluster"), joinSet(clusters));
    info(QStringLiteral("Profile"), joinSet(profileNames));
    info(QStringLiteral("Slurm version"), joinSet(slurm) == QStringLiteral("–") ? QStringLiteral("not documented in the profile")
                                                                                 : joinSet(slurm));
    info(QStringLiteral("Partition"), joinSet(partitions));
    info(QStringLiteral("Framework"), joinSet(frameworks));
    info(QStringLiteral("Runs"), QString::number(table.rows.size()));
    info(QStringLiteral("First submitted"), submits.isEmpty() ? QStringLiteral("–") : submits.first());
    info(QStringLiteral("Last ended"), ends.isEmpty() ? QStringLiteral("–") : ends.last());
    info(QStringLiteral("Report written"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    html += QStringLiteral("</table>");

    html += QStringLiteral("<h2>Advice</h2><p><b>%1</b></p>").arg(esc(analysis.summary()));
    for (const QString &w : analysis.warnings())
        html += QStringLiteral("<p>%1</p>").arg(esc(w));
    if (const auto &fit = analysis.amdahl())
        html += QStringLiteral("<p>Amdahl fit over %1 GPU count(s): serial fraction %2 %, R² %3. "
                               "Runtime metric: %4; throughput metric: %5.</p>")
                    .arg(fit->points)
                    .arg(fit->serialFraction * 100.0, 0, 'f', 1)
                    .arg(fit->r2, 0, 'f', 3)
                    .arg(esc(input.runtimeMetric.isEmpty() ? QStringLiteral("none") : input.runtimeMetric),
                         esc(input.throughputMetric.isEmpty() ? QStringLiteral("none") : input.throughputMetric));

    // Charts as images, one per row so their labels stay readable on A4
    // (rendered at 640x360 and drawn 460 pt wide, at twice the pixels).
    html += QStringLiteral("<h2>Charts</h2>");
    for (StudyChart c : StudyChartBuilder::all()) {
        QCustomPlot *plot = charts.chart(c);
        const QImage image = plot->toPixmap(640, 360, 2.0).toImage();
        const QString url = QStringLiteral("chart-%1.png").arg(StudyChartBuilder::id(c));
        doc.addResource(QTextDocument::ImageResource, QUrl(url), image);
        html += QStringLiteral("<p align=\"center\"><img src=\"%1\" width=\"460\" height=\"259\"></p>").arg(url);
    }

    // Runs table.
    html += QStringLiteral("<h2>Runs</h2><table border=\"1\" cellspacing=\"0\" cellpadding=\"2\" width=\"100%\" "
                           "style=\"font-size: 7pt;\"><tr>");
    const QStringList headers{QStringLiteral("Run"), QStringLiteral("Job"), QStringLiteral("GPUs"),
                              QStringLiteral("Nodes"), QStringLiteral("State"),
                              input.runtimeMetric.isEmpty() ? QStringLiteral("Runtime") : input.runtimeMetric + QStringLiteral(" [s]"),
                              input.throughputMetric.isEmpty() ? QStringLiteral("Throughput") : input.throughputMetric,
                              input.accuracyMetric.isEmpty() ? QStringLiteral("Accuracy") : input.accuracyMetric,
                              QStringLiteral("GPU util [%]"), QStringLiteral("GPU-hours"),
                              QStringLiteral("Billing h"), QStringLiteral("CPU eff.")};
    for (const QString &h : headers)
        html += QStringLiteral("<th>%1</th>").arg(esc(h));
    html += QStringLiteral("</tr>");
    for (const RunMetricsRow &r : table.rows) {
        auto cell = [&html](const QString &v) { html += QStringLiteral("<td>%1</td>").arg(esc(v)); };
        html += QStringLiteral("<tr>");
        cell(QString::number(r.run.id));
        cell(r.run.jobId.isEmpty() ? QStringLiteral("–") : r.run.jobId);
        cell(QString::number(StudyScaling::gpusOf(r)));
        cell(QString::number(r.run.nodes));
        cell(r.accounting ? r.accounting->stateText : r.stateText());
        cell(input.runtimeMetric.isEmpty() ? QStringLiteral("–") : num(r.value(input.runtimeMetric)));
        cell(input.throughputMetric.isEmpty() ? QStringLiteral("–") : num(r.value(input.throughputMetric)));
        cell(input.accuracyMetric.isEmpty() ? QStringLiteral("–") : num(r.value(input.accuracyMetric)));
        const bool noSamples = r.value(metric::GpuSamples).value_or(-1) == 0;
        cell(!input.utilMetric.isEmpty() && r.value(input.utilMetric) ? num(r.value(input.utilMetric), 3)
             : noSamples                                               ? QStringLiteral("no GPU samples")
                                                                       : QStringLiteral("–"));
        cell(num(r.value(metric::GpuHours)));
        cell(num(r.value(metric::BillingHours)));
        const auto eff = r.value(metric::CpuEfficiency);
        cell(eff ? QStringLiteral("%1 %").arg(*eff * 100.0, 0, 'f', 1) : QStringLiteral("–"));
        html += QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");

    // Job scripts.
    html += QStringLiteral("<h2>Job scripts</h2>");
    for (const RunMetricsRow &r : table.rows) {
        html += QStringLiteral("<h3>Run %1 (job %2, %3 GPUs)</h3>")
                    .arg(r.run.id)
                    .arg(esc(r.run.jobId.isEmpty() ? QStringLiteral("–") : r.run.jobId))
                    .arg(r.run.gpus);
        html += QStringLiteral("<pre style=\"font-size: 7pt;\">%1</pre>")
                    .arg(esc(r.run.script.isEmpty() ? QStringLiteral("(no script stored)") : r.run.script));
    }
    doc.setHtml(html);

    {
        QPdfWriter writer(pdfPath);   // the file is complete when the writer is gone
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        writer.setTitle(QStringLiteral("ScaleLab scaling report: %1").arg(study.value().name));
        writer.setCreator(QStringLiteral("ScaleLab"));
        writer.setResolution(300);
        doc.setPageSize(writer.pageLayout().paintRectPoints().size());
        doc.print(&writer);
    }
    const QFileInfo fi(pdfPath);
    if (!fi.exists() || fi.size() == 0)
        return QStringLiteral("scaling report: %1 could not be written; check the folder exists and is writable")
            .arg(pdfPath);
    return {};
}

} // namespace scalelab
