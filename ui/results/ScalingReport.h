// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/RunMetricsTable.h"
#include "core/analysis/ScalingReportModel.h"
#include "core/base/Result.h"
#include "core/model/StudyRecord.h"

#include <QImage>
#include <QList>
#include <QPair>
#include <QSizeF>
#include <QString>

class QTextDocument;

namespace scalelab {

class RunStore;

// What a report is written from: read from the store on any thread.
struct ReportInput {
    StudyRecord study;
    RunMetricsTable table;
};
// Hidden runs are left out unless asked for (Results' "Show hidden"), as in the charts.
Result<ReportInput> loadReportInput(RunStore &store, qint64 studyId, HiddenRuns hidden = HiddenRuns::LeaveOut);

// The report's words and tables (core's ScalingReportModel), with what the
// shipped profiles document for runs whose records do not say it (Slurm
// version, GPU type). Any thread; no widgets.
ScalingReportModel buildReportModel(const ReportInput &input, const StudyChartData &data);

// The report's content: a one-page summary (conditions, recommendation,
// strong-scaling table, speedup and efficiency charts), then the advice,
// timing conditions, all charts, the runs and resources tables and each
// distinct job script once, the others as diffs against it.
struct ReportContent {
    QString title;
    QString html;
    QList<QPair<QString, QImage>> images;   // resource name -> chart image
};
// GUI thread (the charts are widgets); needs a QApplication.
ReportContent buildReportContent(const ReportInput &input);
// The content laid out on pages of `page` points, headings kept with what follows.
void layoutReport(const ReportContent &content, QTextDocument &doc, const QSizeF &page);
// The printable area of the report's A4 page with its margins, in points.
QSizeF reportPageSize();
// Lays the content out and prints it to an A4 PDF; any thread (the document
// is made there). A failure names the file (ErrorCode::LocalFile).
Result<void> printReport(const ReportContent &content, const QString &pdfPath);

// All three in a row (the CLI and tests); a failure names what failed.
Result<void> writeScalingReport(RunStore &store, qint64 studyId, const QString &pdfPath);

// The HTML parts (ScalingReportTables.cpp).
namespace report {
// A report table with bordered cells that never break a number; `widths` in
// per cent of the page, one per column.
QString tableHtml(const ReportTable &table, const QList<int> &widths);
// Key and value rows without borders (the conditions).
QString conditionsHtml(const ReportTable &conditions);
// The first script whole, every other one as its changed lines.
QString scriptsHtml(const QList<ScriptVariant> &scripts);
// Wraps lines longer than `width` characters; continuation lines start with "↪ ".
// 84 fit the page: the document is laid out at the screen's 96 dpi, so its
// 7 pt fixed font prints at 9.3 pt, about 90 characters across A4's 180 mm.
QString wrapScript(const QString &script, int width = 84);
}   // namespace report

}   // namespace scalelab
