// SPDX-License-Identifier: GPL-3.0-or-later
// ResultsPlace: the Scaling report button (file dialog, then the store read
// and the PDF printed on pool threads).
#include "ui/results/ResultsPlace.h"

#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/BackgroundPool.h"
#include "ui/results/ScalingReport.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QLabel>
#include <QPushButton>
#include <QtConcurrent/QtConcurrentRun>

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
    auto *loaded = new QFutureWatcher<ReportInput>(this);
    connect(loaded, &QFutureWatcher<ReportInput>::finished, this, [this, loaded, path] {
        loaded->deleteLater();
        const ReportInput in = loaded->result();
        if (!in.error.isEmpty()) {
            m_report->setEnabled(m_chartStudy > 0);
            m_status->setText(in.error);
            Q_EMIT reportWritten(path, in.error);
            return;
        }
        const ReportContent content = buildReportContent(in);
        auto *printed = new QFutureWatcher<QString>(this);
        connect(printed, &QFutureWatcher<QString>::finished, this, [this, printed, path] {
            printed->deleteLater();
            const QString e = printed->result();
            m_report->setEnabled(m_chartStudy > 0);
            m_status->setText(e.isEmpty() ? tr("Report written to %1.").arg(path) : e);
            Q_EMIT reportWritten(path, e);
        });
        printed->setFuture(
            QtConcurrent::run(&backgroundPool(), [content, path] { return printReport(content, path); }));
    });
    // The runs the charts show: hidden ones only while "Show hidden" is on.
    const HiddenRuns hidden = m_showHidden->isChecked() ? HiddenRuns::Include : HiddenRuns::LeaveOut;
    loaded->setFuture(QtConcurrent::run(&backgroundPool(), [store, studyId, hidden] {
        ReportInput in = loadReportInput(*store, studyId, hidden);
        store->closeThreadConnection();   // this pool thread may be reused by others
        return in;
    }));
}

}   // namespace scalelab
