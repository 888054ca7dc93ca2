// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/RunRecord.h"
#include "core/model/StudyRecord.h"

#include <QAbstractItemModel>
#include <QColor>
#include <QDateTime>
#include <QIcon>
#include <QList>

#include <vector>

namespace scalelab {

class RunStore;

// The Jobs table: studies as parent rows with their runs as children; runs
// outside a study are top-level rows. Reloaded from the run store (reload())
// whenever AppServices::runsChanged fires. Elapsed time is computed when
// asked, from the state history, so a 1 s repaint keeps it current.
class JobsModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Name, Cluster, JobId, State, Reason, Gpus, Nodes, Elapsed, Submitted, ColumnCount };
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

    struct RunRow {
        RunRecord run;
        QDateTime started;   // UTC, first RUNNING seen; invalid = not started
        QDateTime ended;   // UTC, first final state seen
        qint64 limitSeconds = -1;
        QString jobName;
        qint64 accountedElapsed = -1;   // sacct Elapsed when known (wins over the history)
        QString failureLine;   // "line 42: ValueError: …" for a failed run, "" = none found
        bool hidden = false;
    };
    struct StudyRow {
        StudyRecord study;
        std::vector<RunRow> runs;
    };

    explicit JobsModel(RunStore &store, QObject *parent = nullptr);

    QString reload();   // "" = ok, else the store's error (the old rows stay)
    // Hidden runs (RunStore::setHidden) are left out unless shown; takes effect on reload().
    void setShowHidden(bool show) { m_showHidden = show; }
    bool showHidden() const { return m_showHidden; }
    int hiddenCount() const { return m_hiddenCount; }

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

    static QColor stateColour(JobState state);
    static QIcon stateIcon(const QColor &colour);
    // "Running", or for runs without a job their submission state.
    static QString stateText(const RunRecord &run);
    static QColor runColour(const RunRecord &run);
    static QString elapsedText(const RunRow &row);
    static qint64 elapsedSeconds(const RunRow &row);

private:
    // Top-level entries: a study (index into m_studies) or a lone run.
    struct Top {
        int study = -1;
        int run = -1;   // index into m_loose
    };
    QVariant runData(const RunRow &row, int column, int role) const;
    QVariant studyData(const StudyRow &row, int column, int role) const;

    RunStore &m_store;
    std::vector<StudyRow> m_studies;
    std::vector<RunRow> m_loose;
    std::vector<Top> m_top;
    bool m_showHidden = false;
    int m_hiddenCount = 0;
};

}   // namespace scalelab
