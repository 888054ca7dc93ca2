// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/common/RunInBackground.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTreeWidget;

namespace scalelab {

class AppServices;
class OutputTailView;
struct RunDetailsData;
struct RunRecord;

// The lower half of the Jobs place for the selected run: a summary line and
// tabs with its sbatch script, Slurm accounting (every sacct field), state
// history and the live tail of its output. Everything is read on
// backgroundPool() (the run, its accounting and history, the output file)
// and shown when it arrives: the GUI thread never waits for the store.
class RunDetailsView : public QWidget {
    Q_OBJECT
public:
    explicit RunDetailsView(AppServices &services, QWidget *parent = nullptr);

    void showRun(qint64 runId);   // 0 = nothing selected
    void refresh();   // re-read the selected run (state, history, accounting)
    void refreshOutput();   // re-read the local output file only
    qint64 runId() const { return m_runId; }
    // A read of the selected run is under way (its result not shown yet).
    bool isLoading() const { return m_load.isLoading() || m_outputLoad.isLoading(); }
    void setTailBytes(qint64 bytes) { m_tailBytes = bytes; }

    QTabWidget *tabs() const { return m_tabs; }
    QPlainTextEdit *scriptView() const { return m_script; }
    QTreeWidget *accountingView() const { return m_accounting; }
    QTreeWidget *historyView() const { return m_history; }
    OutputTailView *outputView() const { return m_output; }
    // Above the output of a failed run: the first error line of its output.
    QLabel *failureBanner() const { return m_failure; }

private:
    void apply(const RunDetailsData &d);
    void fillAccounting(const RunDetailsData &d);
    void fillHistory(const RunDetailsData &d);
    void updateFailureBanner(const RunRecord &run, const QString &line);

    AppServices &m_services;
    BackgroundLoader m_load;   // the run, accounting, history, failure line, output
    BackgroundLoader m_outputLoad;   // the output alone
    qint64 m_runId = 0;
    qint64 m_tailBytes = 256 * 1024;
    QLabel *m_summary;
    QTabWidget *m_tabs;
    QPlainTextEdit *m_script;
    QTreeWidget *m_accounting;
    QTreeWidget *m_history;
    OutputTailView *m_output;
    QLabel *m_failure;
};

}   // namespace scalelab
