// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/JobsTree.h"
#include "core/ingest/LiveRunView.h"

#include <QAbstractItemModel>
#include <QColor>
#include <QDateTime>
#include <QHash>
#include <QFuture>
#include <QIcon>
#include <QList>

#include <algorithm>
#include <memory>
#include <vector>

namespace scalelab {

class RunStore;

// The Jobs table: studies as parent rows with their runs as children; runs
// outside a study are top-level rows. The tree (core/analysis JobsTree) is read,
// built, ordered and filtered on backgroundPool(): reload() reads every run,
// refreshRuns() only the runs that changed and patches their rows in place (new
// runs are inserted), so selections and folded studies stay. The view is given
// the top-level rows a chunk at a time (canFetchMore/fetchMore, as it scrolls),
// so showing 100,000 runs lays out only the first rows. Elapsed time is computed
// when asked (JobsRow::elapsedSeconds), so a 1 s repaint keeps it current; the
// words of each column are JobsRowText's.
class JobsModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Name, Cluster, JobId, State, Reason, Gpus, Nodes, Elapsed, Submitted, Live, ColumnCount };
    enum Role {
        RunIdRole = Qt::UserRole + 1,   // qint64, 0 on study rows
        StudyIdRole,   // qint64
        IsStudyRole,   // bool
        StateIdRole,   // "RUNNING", or the submit state ("intent") without a job
        StateColourRole,   // QColor
        ProgressRole,   // double 0..1 of the time limit, -1 when unknown
        ElapsedSecondsRole,   // qint64, -1 when not started
        LimitSecondsRole,   // qint64, -1 when unknown
        ActiveRole,   // bool: running now (the elapsed text changes)
    };
    using RunRow = JobsRow;

    explicit JobsModel(RunStore &store, QObject *parent = nullptr);
    ~JobsModel() override;   // waits for a read in flight (it uses the store)

    // Reads every run on a pool thread; loaded() when the rows show it. Asked
    // for while a read runs, it is done once after that one.
    void reload();
    // Reads only these runs and patches their rows; empty = reload().
    void refreshRuns(const QList<qint64> &runIds);
    bool isLoading() const;
    // Hidden runs (RunStore::setHidden) are left out unless shown; takes effect on reload().
    void setShowHidden(bool show) { m_showHidden = show; }
    bool showHidden() const { return m_showHidden; }
    int hiddenCount() const { return m_tree.hiddenCount; }
    // Only the rows whose text holds `text` (JobsRowText::filter, on the pool);
    // "" shows all. Takes effect with the read it starts.
    void setFilter(const QString &text);
    QString filter() const { return m_filter; }
    // Top-level rows given to the view per fetchMore (and at a reset).
    void setFetchChunk(int rows) { m_chunk = std::max(1, rows); }
    // Gives the view the top-level rows down to the run's; false when the run is not in the tree.
    bool exposeRun(qint64 runId);
    // Runs in the tree read, given to the view yet or not.
    int runCount() const;

    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    QModelIndex indexOfRun(qint64 runId, int column = 0) const;
    const RunRow *runRow(qint64 runId) const;
    bool hasActiveRuns() const;
    // For a run outside any study (a resubmitted point): the study holding a
    // run with the very same spec, i.e. the point it repeats; 0 = none.
    qint64 studyOfSameSpec(qint64 runId) const;
    QString studyName(qint64 studyId) const;

    // What the live watch last saw of a running run (the Live column:
    // LiveStripDelegate draws it); a view with runId 0 forgets the run.
    void setLive(qint64 runId, const LiveRunView &view);
    const LiveRunView *liveView(qint64 runId) const;

    static qint64 elapsedSeconds(const RunRow &row);

Q_SIGNALS:
    // A read was applied (error "" = read; otherwise the old rows stay).
    void loaded(const QString &error);

private:
    struct Read {   // what a pool thread read
        bool full = false;
        JobsTree tree;   // full: the whole tree
        std::optional<JobsTree::Changes> changes;   // full: what differs from the tree shown, when only rows changed
        JobsTreeRecords records;   // patch: the runs asked for
        QList<qint64> asked;
        QString error;
    };
    struct Place {   // where a run's row is
        int study = -1;   // index into m_tree.studies, -1 = a lone run
        int pos = -1;   // its row in the study, or its index into m_tree.loose
    };
    void startRead();
    void applyRead(Read &read);
    void setTree(JobsTree tree);
    void replaceRows(JobsTree tree, const JobsTree::Changes &changes);
    bool patch(const JobsTreeRecords &records, const QList<qint64> &asked);
    bool patchRow(JobsRow row, const QList<StudyRecord> &studies);
    bool patchStudyRun(int study, JobsRow row, const QList<StudyRecord> &studies);
    void insertTop(JobsTree::Top entry);
    Place placeOf(qint64 runId) const;
    int topRowOf(const Place &at) const;
    bool studyShown(int study) const;
    void rowChanged(const QModelIndex &first, const QModelIndex &last);
    QModelIndex studyIndex(int study) const;
    QVariant runData(const RunRow &row, int column, int role) const;
    QVariant runToolTip(const RunRow &row, int column) const;
    QVariant studyData(const JobsStudyRow &row, int column, int role) const;

    RunStore &m_store;
    QHash<qint64, LiveRunView> m_live;
    JobsTree m_tree;   // changed only when a read is applied, so a running read may compare with it
    std::vector<int> m_studyTop;   // study index -> its top-level row
    int m_shownTop = 0;   // top-level rows given to the view (fetchMore)
    int m_chunk = 200;
    bool m_showHidden = false;
    QString m_filter;
    QFuture<std::shared_ptr<Read>> m_reading;   // a pointer: the GUI thread never copies a tree
    bool m_busy = false;   // a read is running or its result not yet applied
    bool m_wantFull = false;   // a full read is asked for
    QList<qint64> m_wantRuns;   // runs to patch, when no full read is asked for
};

}   // namespace scalelab
