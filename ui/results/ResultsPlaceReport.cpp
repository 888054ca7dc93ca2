// SPDX-License-Identifier: GPL-3.0-or-later
// ResultsPlace: the Scaling report button (file dialog, then the store read
// and the PDF printed on pool threads).
#include "ui/results/ResultsPlace.h"

#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/results/ScalingReport.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QLabel>
#include <QPushButton>

namespace scalelab {

void ResultsPlace::exportReport()
{
    if (m_chartStudy <= 0)
        return;
    const qint64 study = m_chartStudy;
    auto *dlg =
        new QFileDialog(this, tr("Scaling report"), QStringLiteral("scaling-report.pdf"), tr("PDF document (*.pdf)"));
    dlg->setAcceptMode(QFileDialog::AcceptSave);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &QFileDialog::fileSelected, this, [this, study](const QString &file) {
        const QString path =
            file.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive) ? file : file + QStringLiteral(".pdf");
        writeReportInBackground(study, path);
    });
    dlg->open();
}

void ResultsPlace::writeReportInBackground(qint64 studyId, const QString &path)
{
    // Reading the store and printing the PDF run on pool threads; only the
    // charts (widgets) and the HTML are made here, in milliseconds.
    m_status->setText(tr("Writing the scaling report to %1…").arg(path));
    m_report->setEnabled(false);
    RunStore *store = &m_services.store();
    // The runs the charts show: hidden ones only while "Show hidden" is on.
    const HiddenRuns hidden = m_showHidden->isChecked() ? HiddenRuns::Include : HiddenRuns::LeaveOut;
    runInBackground(
        this,
        [store, studyId, hidden] {
            Result<ReportInput> in = loadReportInput(*store, studyId, hidden);
            store->closeThreadConnection();   // this pool thread may be reused by others
            return in;
        },
        [this, path](const Result<ReportInput> &in) {
            if (!in) {
                reportFinished(path, in.errorText());
                return;
            }
            const ReportContent content = buildReportContent(*in);
            runInBackground(
                this, [content, path] { return printReport(content, path); },
                [this, path](const Result<void> &printed) { reportFinished(path, printed.errorText()); });
        });
}

void ResultsPlace::reportFinished(const QString &path, const QString &error)
{
    m_report->setEnabled(m_chartStudy > 0);
    m_status->setText(error.isEmpty() ? tr("Report written to %1.").arg(path) : error);
    Q_EMIT reportWritten(path, error);
}

}   // namespace scalelab
