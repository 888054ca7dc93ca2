// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/ScalingReportExport.h"

#include "core/base/AtomicFile.h"
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/RunInBackground.h"
#include "ui/results/ScalingReport.h"

#include <QFileDialog>
#include <QFileInfo>

namespace scalelab {

ScalingReportExport::ScalingReportExport(AppServices &services, QWidget *dialogParent)
    : QObject(dialogParent)
    , m_services(services)
    , m_dialogParent(dialogParent)
{}

void ScalingReportExport::ask(qint64 studyId, HiddenRuns hidden)
{
    if (studyId <= 0)
        return;
    auto *dlg = new QFileDialog(m_dialogParent, tr("Scaling report"), QStringLiteral("scaling-report.pdf"),
                                tr("PDF document (*.pdf);;Markdown tables (*.md);;CSV strong-scaling table (*.csv)"));
    dlg->setAcceptMode(QFileDialog::AcceptSave);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &QFileDialog::fileSelected, this, [this, studyId, hidden, dlg](const QString &file) {
        // The chosen filter's suffix unless the name already ends in one of the three.
        const QString chosen = dlg->selectedNameFilter().section(QStringLiteral("(*"), 1).chopped(1);
        const QString suffix = QFileInfo(file).suffix().toLower();
        const bool known =
            suffix == QLatin1String("pdf") || suffix == QLatin1String("md") || suffix == QLatin1String("csv");
        write(studyId, hidden, known || chosen.isEmpty() ? file : file + chosen);
    });
    dlg->open();
}

void ScalingReportExport::write(qint64 studyId, HiddenRuns hidden, const QString &path)
{
    // Markdown and CSV need no widgets: made and written on the pool thread.
    ++m_writing;
    Q_EMIT started(path);
    RunStore *store = &m_services.store();
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
            if (!in || text)
                done(path, in.errorText());
            else
                print(path, *in);
        });
}

void ScalingReportExport::print(const QString &path, const ReportInput &input)
{
    const ReportContent content = buildReportContent(input);   // charts are widgets: GUI thread
    runInBackground(
        this, [content, path] { return printReport(content, path); },
        [this, path](const Result<void> &printed) { done(path, printed.errorText()); });
}

void ScalingReportExport::done(const QString &path, const QString &error)
{
    --m_writing;
    Q_EMIT finished(path, error);
}

}   // namespace scalelab
