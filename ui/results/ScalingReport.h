// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/RunMetricsTable.h"
#include "core/analysis/StudyScaling.h"
#include "core/base/Result.h"
#include "core/model/StudyRecord.h"

#include <QImage>
#include <QList>
#include <QPair>
#include <QString>

namespace scalelab {

class RunStore;

// What a report is written from: read from the store on any thread.
struct ReportInput {
    StudyRecord study;
    RunMetricsTable table;
};
// Hidden runs are left out unless asked for (Results' "Show hidden"), as in the charts.
Result<ReportInput> loadReportInput(RunStore &store, qint64 studyId, HiddenRuns hidden = HiddenRuns::LeaveOut);

// The report's content: the scaling advisor's sentence and warnings, a
// scaling table per GPU count (runtime, speedup, efficiency, throughput,
// accuracy, GPU-hours as text, each naming its metric), the charts as images,
// the runs table, cluster, profile and Slurm version, dates, how the runs
// overlapped, and every run's job script (long lines wrapped with a marker).
struct ReportContent {
    QString title;
    QString html;
    QList<QPair<QString, QImage>> images;   // resource name -> chart image
};
// GUI thread (the charts are widgets); needs a QApplication.
ReportContent buildReportContent(const ReportInput &input);
// Lays the content out and prints it to an A4 PDF; any thread (the document
// is made there). A failure names the file (ErrorCode::LocalFile).
Result<void> printReport(const ReportContent &content, const QString &pdfPath);

// All three in a row (the CLI and tests); a failure names what failed.
Result<void> writeScalingReport(RunStore &store, qint64 studyId, const QString &pdfPath);

// The HTML parts (ScalingReportTables.cpp).
namespace report {
QString scalingTableHtml(const ScalingAnalysis &analysis, const StudyScalingInput &input);
QString runsTableHtml(const RunMetricsTable &table, const StudyScalingInput &input);
QString scriptsHtml(const RunMetricsTable &table);
// Wraps lines longer than `width` characters; continuation lines start with "↪ ".
QString wrapScript(const QString &script, int width = 100);
}   // namespace report

}   // namespace scalelab
