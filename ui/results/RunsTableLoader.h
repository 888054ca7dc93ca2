// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/RunMetricsTable.h"
#include "ui/common/RunInBackground.h"

#include <QFuture>
#include <QHash>
#include <QList>
#include <QObject>

#include <functional>

namespace scalelab {

class AppServices;

// The Results table's reads of the run store, on backgroundPool(): the whole
// table, the patch of the runs a change names, and the scripts of the
// selected runs (a table of every run leaves them out). Whole reads and
// patches never overlap: one asked for while another runs is done once after
// it, with whatever changed meanwhile. A whole read counts as running until
// its table is handed over (tableRead), not until the pool thread is done
// with it: two reads in flight could hand their tables over in the wrong
// order and leave an older table shown.
class RunsTableLoader : public QObject {
    Q_OBJECT
public:
    // What a whole read reads: one study (or -1 for every run), hidden runs or not.
    struct Query {
        qint64 studyFilter = -1;
        HiddenRuns hidden = HiddenRuns::LeaveOut;
    };
    // `query` is asked at the start of every read (the place's study and "Show hidden").
    RunsTableLoader(AppServices &services, std::function<Query()> query, QObject *parent);
    ~RunsTableLoader() override;

    void reload();
    // Runs named: only those are read and patched; no ids, one study shown,
    // a whole read under way or a failed one: the whole table again.
    void onRunsChanged(const QList<qint64> &runIds);
    bool isLoading() const { return m_loading || m_reloadAgain || m_patching; }
    int wholeReadsStarted() const { return m_wholeReads; }   // tests: reads never overlap

    // Reads these runs' scripts (a newer call supersedes an older one); scriptsRead() when they arrive.
    void readScripts(const QList<qint64> &runIds);
    bool hasScript(qint64 runId) const { return m_scripts.contains(runId); }
    QString script(qint64 runId) const { return m_scripts.value(runId); }

Q_SIGNALS:
    void tableRead(const RunMetricsTable &table);   // a whole read, to be shown now
    void patchRead(const RunMetricsTable &patch, const QList<qint64> &runIds);
    void tableLoaded();   // nothing more to read: the table shown is the newest
    void scriptsRead();

private:
    void startPatch(const QList<qint64> &runIds);

    AppServices &m_services;
    std::function<Query()> m_query;
    QFuture<RunMetricsTable> m_loadFuture;   // for the destructor to wait on
    bool m_loading = false;   // from a whole read's start until its table is handed over
    int m_wholeReads = 0;
    bool m_reloadAgain = false;
    bool m_lastReadFailed = false;   // the table shown is a failed read's: patches cannot mend it
    quint64 m_tableGeneration = 0;   // moves on with every whole reload: an older patch is dropped
    bool m_patching = false;
    QList<qint64> m_patchAgain;   // runs changed while a patch was read
    QHash<qint64, QString> m_scripts;   // scripts of selected runs, read on a pool thread
    BackgroundLoader m_scriptLoad;   // the scripts of the newest selection
};

}   // namespace scalelab
