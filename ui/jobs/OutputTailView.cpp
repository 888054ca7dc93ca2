// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/OutputTailView.h"

#include "core/base/InputLimits.h"
#include "core/store/RunStore.h"
#include "core/client/SlurmClient.h"

#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QRegularExpression>
#include <QScrollBar>

namespace scalelab {

OutputTailView::OutputTailView(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setObjectName(QStringLiteral("outputTail"));
    setPlaceholderText(tr("Select a run to see its output."));
}

QString OutputTailView::sanitize(const QByteArray &bytes)
{
    QString text = QString::fromUtf8(bytes);
    // ANSI CSI / OSC sequences (colours, cursor movement) first, as a whole.
    static const QRegularExpression ansi(
        QStringLiteral("\x1b\\[[0-9;?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(\x07|\x1b\\\\)?"));
    text.remove(ansi);
    text.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString &line : lines) {
        // A progress bar redraws its line with "\r": keep what was drawn last.
        const qsizetype cr = line.lastIndexOf(QLatin1Char('\r'), line.size() - 2);
        if (cr >= 0)
            line = line.mid(cr + 1);
        QString clean;
        clean.reserve(line.size());
        for (QChar c : line) {
            const ushort u = c.unicode();
            if (c == QLatin1Char('\t') || !(u < 0x20 || u == 0x7f || (u >= 0x80 && u < 0xa0)))
                clean += c;
        }
        line = clean;
    }
    return lines.join(QLatin1Char('\n'));
}

QString OutputTailView::localOutputPath(RunStore &store, qint64 runId, const QString &jobId)
{
    return store.runFilesDirectory(runId) + QLatin1Char('/') + SlurmClient::outputFileName(jobId);
}

void OutputTailView::clearRun()
{
    clear();
}

void OutputTailView::showRun(RunStore &store, qint64 runId, qint64 maxBytes)
{
    const auto run = store.run(runId);
    if (!run.ok()) {
        setPlainText(run.errorText());
        return;
    }
    if (!run.value().hasJob()) {
        setPlainText(tr("No output: the run has no Slurm job."));
        return;
    }
    const QString path = localOutputPath(store, runId, run.value().jobId);
    // Only a regular file is opened (InputLimits): whatever sits at that path, the view never waits on it.
    auto opened = InputLimits::openFile(path, tr("job output"));
    if (!opened) {
        setPlainText(run.value().isTerminal()
                         ? tr("No output was fetched for job %1 (%2).").arg(run.value().jobId, path)
                         : tr("Waiting for output of job %1…").arg(run.value().jobId));
        return;
    }
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
    QString text = sanitize(data);
    if (size > maxBytes)
        text =
            tr("[… first %1 KiB not shown; the whole file is %2]\n").arg((size - data.size()) / 1024).arg(path) + text;
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
