// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/ScalingReport.h"

#include "core/base/AtomicFile.h"
#include "core/profiles/ProfileRegistry.h"
#include "core/store/RunStore.h"
#include "ui/results/QCustomPlotInclude.h"
#include "ui/results/ReportLayout.h"
#include "ui/results/StudyCharts.h"

#include <QApplication>
#include <QDateTime>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>

#include <optional>

namespace scalelab {

namespace {

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

// A chart as an image: rendered at 360×225 logical pixels (three times the
// pixels) and drawn 245 pt wide, two side by side within the page, so its
// labels print at about 70 % of their screen size.
QString chartImage(StudyCharts &charts, StudyChart c, QList<QPair<QString, QImage>> &images)
{
    const QString url = QStringLiteral("chart-%1.png").arg(StudyChartBuilder::id(c));
    bool have = false;
    for (const auto &image : images)
        have = have || image.first == url;
    if (!have)
        images.append({url, charts.chart(c)->toPixmap(360, 225, 3.0).toImage()});
    return QStringLiteral("<img src=\"%1\" width=\"245\" height=\"153\">").arg(url);
}

QString chartRow(StudyCharts &charts, StudyChart left, std::optional<StudyChart> right,
                 QList<QPair<QString, QImage>> &images)
{
    return QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"0\"><tr><td>%1</td><td>%2</td></tr>"
                          "</table>")
        .arg(chartImage(charts, left, images), right ? chartImage(charts, *right, images) : QString());
}

// Page 1: what a proposal reviewer reads.
QString summaryHtml(const ScalingReportModel &m, StudyCharts &charts, QList<QPair<QString, QImage>> &images)
{
    QString html = QStringLiteral("<h1>Scaling report: %1</h1>").arg(esc(m.studyName));
    html += report::conditionsHtml(m.conditions);
    html += QStringLiteral("<h2>Recommendation</h2><p><b>%1</b></p>").arg(esc(m.recommendation));
    html += QStringLiteral("<h2>%1</h2>").arg(esc(m.strongScaling.title));
    html += report::tableHtml(m.strongScaling, {7, 12, 15, 13, 11, 15, 14, 13});
    html += chartRow(charts, StudyChart::Speedup, StudyChart::Efficiency, images);
    return html;
}

QString detailsHtml(const ScalingReportModel &m, StudyCharts &charts, QList<QPair<QString, QImage>> &images)
{
    QString html = QStringLiteral("<h2 style=\"page-break-before: always;\">Advice</h2>");
    html += QStringLiteral("<p><b>%1</b></p>").arg(esc(m.recommendation));
    for (const QString &a : m.advice)
        html += QStringLiteral("<p>%1</p>").arg(esc(a));
    html += QStringLiteral("<h2>Timing conditions</h2>");
    for (const QString &o : m.overlaps)
        html += QStringLiteral("<p>%1</p>").arg(esc(o));
    html += QStringLiteral("<h2>Charts</h2>");
    const QList<StudyChart> all = StudyChartBuilder::all();
    for (int i = 0; i < all.size(); i += 2)
        html += chartRow(charts, all[i], i + 1 < all.size() ? std::optional(all[i + 1]) : std::nullopt, images);
    html +=
        QStringLiteral("<h2>%1</h2>").arg(esc(m.runs.title)) + report::tableHtml(m.runs, {8, 10, 8, 17, 19, 19, 19});
    html += QStringLiteral("<h2>%1</h2>").arg(esc(m.resources.title))
            + report::tableHtml(m.resources, m.resources.columns.size() > 6 ? QList<int>{8, 8, 14, 14, 14, 14, 14, 14}
                                                                            : QList<int>{10, 12, 20, 20, 20, 18});
    html += report::scriptsHtml(m.scripts);
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

ScalingReportModel buildReportModel(const ReportInput &in, const StudyChartData &data)
{
    auto profiles = std::make_shared<ProfileRegistry>();
    profiles->loadDefaults();
    const DocumentedFactsOf documented = [profiles](const RunRecord &run) {
        DocumentedFacts facts;
        const ClusterProfile *p = profiles->find(run.profile);
        if (!p)
            return facts;
        facts.slurmVersion = p->slurmVersion;
        if (const Partition *part = p->partition(run.partition); part && !part->gpuType.isEmpty()) {
            const GpuType *type = p->gpuType(part->gpuType);
            facts.gpuType =
                type && !type->model.isEmpty() ? QStringLiteral("%1 (%2)").arg(type->model, type->id) : part->gpuType;
        }
        return facts;
    };
    return ScalingReportModel::build(in.study, in.table, data, documented, QDateTime::currentDateTimeUtc());
}

ReportContent buildReportContent(const ReportInput &in)
{
    ReportContent content;
    content.title = QStringLiteral("ScaleLab scaling report: %1").arg(in.study.name);
    StudyCharts charts;
    charts.resize(1500, 900);
    charts.setRows(in.table.rows, in.study.name);
    // The numbers of the charts, the tables and the advice: StudyChartData, as
    // in the window and `scalelab report --json`.
    const ScalingReportModel model = buildReportModel(in, charts.data());
    content.html = summaryHtml(model, charts, content.images) + detailsHtml(model, charts, content.images);
    return content;
}

QSizeF reportPageSize()
{
    QPageLayout layout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(15, 15, 15, 15),
                       QPageLayout::Millimeter);
    return layout.paintRectPoints().size();
}

void layoutReport(const ReportContent &content, QTextDocument &doc, const QSizeF &page)
{
    doc.setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 9));
    // Lines break between words only: Qt's default also breaks anywhere, which
    // split numbers in narrow cells ("1.203–1.58 / 9"); a table now widens a
    // column to its longest number instead (ReportLayout checks it still fits).
    QTextOption wrap = doc.defaultTextOption();
    wrap.setWrapMode(QTextOption::WordWrap);
    doc.setDefaultTextOption(wrap);
    for (const auto &[url, image] : content.images)
        doc.addResource(QTextDocument::ImageResource, QUrl(url), image);
    doc.setHtml(content.html);
    doc.setPageSize(page);
    ReportLayout::keepHeadingsWithNext(doc);
}

Result<void> printReport(const ReportContent &content, const QString &pdfPath)
{
    QTextDocument doc;
    layoutReport(content, doc, reportPageSize());
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
