// SPDX-License-Identifier: GPL-3.0-or-later
// ResultsPlace: the Scaling report button (file dialog: PDF, Markdown or CSV;
// then the store read and the report written on pool threads).
#include "ui/results/ResultsPlace.h"

#include "core/base/AtomicFile.h"
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/results/ScalingReport.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>

namespace scalelab {

void ResultsPlace::exportReport()
{
    if (m_chartStudy <= 0)
        return;
    const qint64 study = m_chartStudy;
    auto *dlg = new QFileDialog(this, tr("Scaling report"), QStringLiteral("scaling-report.pdf"),
                                tr("PDF document (*.pdf);;Markdown tables (*.md);;CSV strong-scaling table (*.csv)"));
    dlg->setAcceptMode(QFileDialog::AcceptSave);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &QFileDialog::fileSelected, this, [this, study, dlg](const QString &file) {
        // The chosen filter's suffix unless the name already ends in one of the three.
        const QString chosen = dlg->selectedNameFilter().section(QStringLiteral("(*"), 1).chopped(1);
        const QString suffix = QFileInfo(file).suffix().toLower();
        const bool known =
            suffix == QLatin1String("pdf") || suffix == QLatin1String("md") || suffix == QLatin1String("csv");
        writeReportInBackground(study, known || chosen.isEmpty() ? file : file + chosen);
    });
    dlg->open();
}

void ResultsPlace::writeReportInBackground(qint64 studyId, const QString &path)
{
    // Reading the store and printing the PDF run on pool threads; only the
    // charts (widgets) and the HTML are made here, in milliseconds. Markdown
    // and CSV need no widgets: made and written on the pool thread.
    m_status->setText(tr("Writing the scaling report to %1…").arg(path));
    m_report->setEnabled(false);
    RunStore *store = &m_services.store();
    // The runs the charts show: hidden ones only while "Show hidden" is on.
    const HiddenRuns hidden = m_showHidden->isChecked() ? HiddenRuns::Include : HiddenRuns::LeaveOut;
    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool text = suffix == QLatin1String("md") || suffix == QLatin1String("csv");
    runInBackground(
        this,
        [store, studyId, hidden, path, text, suffix] {
            Result<ReportInput> in = loadReportInput(*store, studyId, hidden);
            store->closeThreadConnection();   // this pool thread may be reused by others
            if (in && text) {
                const ScalingReportModel model = buildReportModel(*in, StudyChartData::build(in->table.rows));
                const QString out = suffix == QLatin1String("md") ? model.markdown() : model.strongScaling.csv();
                if (auto written = AtomicFile::write(path, out.toUtf8()); !written)
                    return Result<ReportInput>(fail(written.error()));
            }
            return in;
        },
        [this, path, text](const Result<ReportInput> &in) {
            if (!in || text) {
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
