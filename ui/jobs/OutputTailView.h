// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPlainTextEdit>

namespace scalelab {

struct RunRecord;

// The last part of a run's job output (the local copy of
// scalelab-<jobid>.out that SlurmClient::tailOutput/fetch keep current).
// Control characters are stripped before showing: remote output is not
// trusted to drive the widget. Stays scrolled to the end unless the
// researcher scrolled up.
class OutputTailView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit OutputTailView(QWidget *parent = nullptr);

    // What to show for `run`: the last `maxBytes` of its local output in
    // `runFilesDir` (RunStore::runFilesDirectory), sanitized, or a note why
    // there is none. Reads the file: called on a pool thread.
    static QString readTail(const QString &runFilesDir, const RunRecord &run, qint64 maxBytes);
    // Shows what readTail gave, staying at the end unless scrolled up.
    void showText(const QString &text);
    void clearRun();

    static QString localOutputPath(const QString &runFilesDir, const QString &jobId);
};

}   // namespace scalelab
