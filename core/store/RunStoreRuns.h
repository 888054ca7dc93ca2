// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/RunRecord.h"
#include "core/store/RunStoreGroup.h"

#include <QList>
#include <QSet>
#include <QVariant>

namespace scalelab {

// The runs table (RunStoreRuns.cpp): storing a run's intent, reading runs
// back, the columns set along the way. The row reader is written once for
// QSqlQuery and SqliteCursor (RunStoreSql.h's QueryColumns, CursorColumns)
// and read by the bulk readers (RunStoreTable, RunStoreJobs) too.
class RunStoreRuns : public RunStoreGroup {
public:
    using RunStoreGroup::RunStoreGroup;

    static QString newToken();   // "sl-" + 16 lowercase hex digits
    Result<RunRecord> createRun(const RunRecord &run);
    // Inside the caller's transaction (RunStoreBatch): intent, token made when empty.
    static Result<qint64> insertRunIn(QSqlDatabase &db, const RunRecord &run);
    // The runs `where` (an SQL condition on the runs table, "" all) selects, by id.
    Result<QList<RunRecord>> selectRuns(const QString &where, const QVariantList &binds);
    Result<RunRecord> run(qint64 id);
    Result<RunRecord> runByToken(const QString &token);
    Result<QList<RunRecord>> runs();
    Result<QList<RunRecord>> runsInStudy(qint64 studyId);
    Result<QList<RunRecord>> activeRuns(const QString &clusterAlias);
    Result<QList<RunRecord>> unresolvedRuns(const QString &clusterAlias);
    Result<QSet<QString>> clustersWithWork();
    Result<qint64> newestRunId();
    Result<void> setRemoteDir(qint64 runId, const QString &remoteDir);
    Result<void> setSlurmVersion(qint64 runId, const QString &version);
    Result<void> setSubmitState(qint64 runId, SubmitState state, const QString &rejection);
    Result<void> deleteRun(qint64 runId);

    // The runs table's columns in the order readRun expects.
    static const char *runColumns();
    static constexpr int kRunColumnCount = 22;   // how many runColumns() names: a query's own columns come after
    template <class Columns>
    static RunRecord readRun(const Columns &c);
};

}   // namespace scalelab
