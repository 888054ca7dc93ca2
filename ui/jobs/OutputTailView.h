// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPlainTextEdit>

namespace scalelab {

class RunStore;

// The last part of a run's job output (the local copy of
// scalelab-<jobid>.out that SlurmClient::tailOutput/fetch keep current).
// Control characters are stripped before showing: remote output is not
// trusted to drive the widget. Stays scrolled to the end unless the
// researcher scrolled up.
class OutputTailView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit OutputTailView(QWidget *parent = nullptr);

    // Shows the local output of `runId` (last `maxBytes`), or a note why there is none.
    void showRun(RunStore &store, qint64 runId, qint64 maxBytes);
    void clearRun();

    static QString localOutputPath(RunStore &store, qint64 runId, const QString &jobId);
};

}   // namespace scalelab
