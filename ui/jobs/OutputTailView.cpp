// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/OutputTailView.h"

#include "core/base/InputLimits.h"
#include "core/base/RemoteValidation.h"
#include "core/model/RunRecord.h"
#include "core/client/SlurmClient.h"

#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QScrollBar>

namespace scalelab {

namespace {

// Job output as a terminal showed it: colours and titles gone, a progress
// bar's last drawing, tabs and lines kept, nothing cut (the tail is capped).
const RemoteValidation::Printable kTerminal{.maxChars = 0, .terminal = true, .trim = false};

}   // namespace

OutputTailView::OutputTailView(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setObjectName(QStringLiteral("outputTail"));
    setPlaceholderText(tr("Select a run to see its output."));
}

QString OutputTailView::localOutputPath(const QString &runFilesDir, const QString &jobId)
{
    return runFilesDir + QLatin1Char('/') + SlurmClient::outputFileName(jobId);
}

void OutputTailView::clearRun()
{
    clear();
}

QString OutputTailView::readTail(const QString &runFilesDir, const RunRecord &run, qint64 maxBytes)
{
    if (!run.hasJob())
        return tr("No output: the run has no Slurm job.");
    const QString path = localOutputPath(runFilesDir, run.jobId);
    // Only a regular file is opened (InputLimits): whatever sits at that path, the view never waits on it.
    auto opened = InputLimits::openFile(path, tr("job output"));
    if (!opened)
        return run.isTerminal() ? tr("No output was fetched for job %1 (%2).").arg(run.jobId, path)
                                : tr("Waiting for output of job %1…").arg(run.jobId);
    QFile &f = **opened;
    const qint64 size = f.size();
    QByteArray data;
    if (size > maxBytes) {
        f.seek(size - maxBytes);
        data = f.read(maxBytes);
        const qsizetype nl = data.indexOf('\n');   // start at a whole line
        if (nl >= 0)
            data = data.mid(nl + 1);
    } else {
        data = f.read(maxBytes);   // counted: the file may grow while it is read
    }
    QString text = RemoteValidation::sanitize(data, kTerminal);
    if (size > maxBytes)
        text =
            tr("[… first %1 KiB not shown; the whole file is %2]\n").arg((size - data.size()) / 1024).arg(path) + text;
    return text;
}

void OutputTailView::showText(const QString &text)
{
    QScrollBar *bar = verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    const int keep = bar->value();
    if (text == toPlainText())
        return;
    setPlainText(text);
    if (atEnd)
        bar->setValue(bar->maximum());
    else
        bar->setValue(keep);
}

}   // namespace scalelab
