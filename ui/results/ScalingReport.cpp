// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/ScalingReport.h"

#include "core/base/AtomicFile.h"
#include "core/profiles/ProfileRegistry.h"
#include "core/store/RunStore.h"
#include "ui/results/QCustomPlotInclude.h"
#include "ui/results/StudyCharts.h"

#include <QApplication>
#include <QDateTime>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>

namespace scalelab {

namespace {

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

QString joinSet(const QStringList &values)
{
    QStringList unique;
    for (const QString &v : values)
        if (!v.isEmpty() && !unique.contains(v))
            unique << v;
    return unique.isEmpty() ? QStringLiteral("–") : unique.join(QStringLiteral(", "));
}

// "5 runs: 4 completed and used, 1 did not complete (CANCELLED)".
QString runCounts(const ScalingAnalysis &analysis, const StudyScalingInput &input, qsizetype stored)
{
    QStringList notDone;
    for (const ScalingRun &r : input.runs)
        if (r.failed)
            notDone << r.state.section(u' ', 0, 0);
    QString text = QStringLiteral("%1 stored, %2 submitted; %3 completed and used in the analysis")
                       .arg(stored)
                       .arg(input.runs.size())
                       .arg(analysis.usedRuns());
    if (!notDone.isEmpty())
        text += QStringLiteral("; %1 did not complete (%2) and %3 left out")
                    .arg(notDone.size())
                    .arg(joinSet(notDone), notDone.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"));
    return text;
}

// Context: clusters, profiles (and the Slurm version), dates.
QString contextHtml(const ReportInput &in, const ScalingAnalysis &analysis, const StudyScalingInput &input)
{
    const RunMetricsTable &table = in.table;
    ProfileRegistry profiles;
    profiles.loadDefaults();
    QStringList clusters, profileNames, slurm, documented, partitions, frameworks, submits, ends;
    for (const RunMetricsRow &r : table.rows) {
        clusters << r.run.clusterAlias;
        profileNames << r.run.profile;
        partitions << r.run.partition;
        frameworks << r.run.framework;
        // The version that ran the job (probed over the connection) beats the one the profile documents.
        if (!r.run.slurmVersion.isEmpty())
            slurm << QStringLiteral("%1 (reported by sbatch --version on the cluster)").arg(r.run.slurmVersion);
        else if (const ClusterProfile *p = profiles.find(r.run.profile); p && !p->slurmVersion.isEmpty())
            documented << QStringLiteral("%1 (documented by the %2 profile)").arg(p->slurmVersion, p->id);
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
    html += QStringLiteral("<h1>Scaling report: %1</h1>").arg(esc(in.study.name));
    html += QStringLiteral("<table cellpadding=\"2\">");
    auto info = [&html](const QString &k, const QString &v) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(esc(k), esc(v));
    };
    info(QStringLiteral("Study created"), in.study.created.toString(Qt::ISODate));
    info(QStringLiteral("Cluster"), joinSet(clusters));
    info(QStringLiteral("Profile"), joinSet(profileNames));
    info(QStringLiteral("Slurm version"), !slurm.isEmpty() ? joinSet(slurm)
                                          : !documented.isEmpty()
                                              ? joinSet(documented)
                                              : QStringLiteral("not recorded (no run reached sbatch)"));
    info(QStringLiteral("Partition"), joinSet(partitions));
    info(QStringLiteral("Framework"), joinSet(frameworks));
    info(QStringLiteral("Runs"), runCounts(analysis, input, table.rows.size()));
    info(QStringLiteral("First submitted"), submits.isEmpty() ? QStringLiteral("–") : submits.first());
    info(QStringLiteral("Last ended"), ends.isEmpty() ? QStringLiteral("–") : ends.last());
    info(QStringLiteral("Report written"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    html += QStringLiteral("</table>");
    return html;
}

QString adviceHtml(const ScalingAnalysis &analysis)
{
    QString html;
    html += QStringLiteral("<h2>Advice</h2><p><b>%1</b></p>").arg(esc(analysis.summary()));
    for (const QString &w : analysis.warnings())
        html += QStringLiteral("<p>%1</p>").arg(esc(w));
    if (const auto &fit = analysis.amdahl())
        html += QStringLiteral("<p>Amdahl fit over %1 GPU counts: serial fraction %2 %, R² %3.</p>")
                    .arg(fit->points)
                    .arg(fit->serialFraction * 100.0, 0, 'f', 1)
                    .arg(fit->r2, 0, 'f', 3);
    return html;
}

QString timingHtml(const ScalingAnalysis &analysis)
{
    QString html;
    html += QStringLiteral("<h2>Timing conditions</h2>");
    if (analysis.overlaps().isEmpty())
        html += QStringLiteral("<p>No two runs shared a node at the same time (sacct NodeList, Start and End).</p>");
    else
        for (const RunOverlap &o : analysis.overlaps())
            html += QStringLiteral("<p>%1 and %2 ran together on %3 for %4 s: their timings may be slower than "
                                   "either alone.</p>")
                        .arg(esc(o.first), esc(o.second), esc(o.nodes.join(QStringLiteral(", "))))
                        .arg(o.seconds);
    return html;
}

QString chartsHtml(StudyCharts &charts, QList<QPair<QString, QImage>> &images)
{
    QString html;
    // Charts as images, one per row so their labels stay readable on A4
    // (rendered at 640x400 and drawn 460 pt wide, at twice the pixels).
    html += QStringLiteral("<h2>Charts</h2>");
    for (StudyChart c : StudyChartBuilder::all()) {
        QCustomPlot *plot = charts.chart(c);
        const QImage image = plot->toPixmap(640, 400, 2.0).toImage();
        const QString url = QStringLiteral("chart-%1.png").arg(StudyChartBuilder::id(c));
        images.append({url, image});
        html += QStringLiteral("<p align=\"center\"><img src=\"%1\" width=\"460\" height=\"288\"></p>").arg(url);
    }
    return html;
}

}   // namespace

Result<ReportInput> loadReportInput(RunStore &store, qint64 studyId, HiddenRuns hidden)
{
    ReportInput in;
    const auto study = store.study(studyId);
    if (!study.ok())
        return fail(study.error().code,
                    QStringLiteral("scaling report: study %1: %2").arg(studyId).arg(study.errorText()));
    in.study = study.value();
    in.table = RunMetricsTable::load(store, studyId, hidden);
    if (!in.table.error.isEmpty())
        return fail(ErrorCode::StoreFailed, QStringLiteral("scaling report: %1").arg(in.table.error));
    return in;
}

ReportContent buildReportContent(const ReportInput &in)
{
    ReportContent content;
    content.title = QStringLiteral("ScaleLab scaling report: %1").arg(in.study.name);
    const RunMetricsTable &table = in.table;
    StudyCharts charts;
    charts.resize(1500, 900);
    charts.setRows(table.rows, in.study.name);
    // The numbers of the charts, the table and the advice: StudyChartData, as
    // in the window and `scalelab report --json`.
    const StudyChartData &data = charts.data();
    const ScalingAnalysis &analysis = data.analysis();
    const StudyScalingInput &input = data.input();

    QString html = contextHtml(in, analysis, input);
    html += adviceHtml(analysis);
    html += QStringLiteral("<h2>Scaling per GPU count</h2>");
    html += report::scalingTableHtml(analysis, input);
    html += QStringLiteral("<p>The italic row names the metric each column is based on. Values are medians of the "
                           "completed runs at each GPU count, with the min–max range of repeats in brackets. Runs "
                           "that did not complete (†) are never used.</p>");

    html += timingHtml(analysis);
    html += chartsHtml(charts, content.images);

    html += QStringLiteral("<h2>Runs</h2>") + report::runsTableHtml(table, input);
    html += report::scriptsHtml(table);
    content.html = html;
    return content;
}

Result<void> printReport(const ReportContent &content, const QString &pdfPath)
{
    QTextDocument doc;
    doc.setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 9));
    for (const auto &[url, image] : content.images)
        doc.addResource(QTextDocument::ImageResource, QUrl(url), image);
    doc.setHtml(content.html);
    // Printed into a temporary beside the target, renamed over it only when
    // whole: a full disk or a kill leaves the previous report as it was.
    AtomicFile file(pdfPath);
    if (auto opened = file.open(); !opened)
        return fail(ErrorCode::LocalFile, QStringLiteral("scaling report: %1").arg(opened.errorText()));
    {
        QPdfWriter writer(file.device());   // the PDF is complete when the writer is gone
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        writer.setTitle(content.title);
        writer.setCreator(QStringLiteral("ScaleLab"));
        writer.setResolution(300);
        doc.setPageSize(writer.pageLayout().paintRectPoints().size());
        doc.print(&writer);
    }
    if (file.written() == 0)
        return fail(ErrorCode::LocalFile, QStringLiteral("scaling report: nothing was printed into %1").arg(pdfPath));
    if (auto committed = file.commit(); !committed)
        return fail(ErrorCode::LocalFile, QStringLiteral("scaling report: %1").arg(committed.errorText()));
    return success();
}

Result<void> writeScalingReport(RunStore &store, qint64 studyId, const QString &pdfPath)
{
    if (!qobject_cast<QApplication *>(QCoreApplication::instance()))
        return fail(ErrorCode::InvalidValue, QStringLiteral("scaling report: needs a QApplication (the charts are "
                                                            "widgets); run with QT_QPA_PLATFORM=offscreen when there "
                                                            "is no display"));
    const auto in = loadReportInput(store, studyId);
    if (!in)
        return fail(in.error());
    return printReport(buildReportContent(*in), pdfPath);
}

}   // namespace scalelab
