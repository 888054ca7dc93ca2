// SPDX-License-Identifier: GPL-3.0-or-later
// RunStoreBatch: storing a batch of runs (a study) in one transaction.
#include "core/store/RunStoreBatch.h"

#include "core/store/RunStoreRuns.h"
#include "core/store/RunStoreSnapshots.h"
#include "core/store/RunStoreSql.h"
#include "core/store/RunStoreStudies.h"
#include "core/store/RunStoreTransaction.h"

namespace scalelab {

Result<QList<RunRecord>> RunStoreBatch::createRuns(const QList<RunRecord> &runs,
                                                   const std::optional<StudyRecord> &study,
                                                   const QList<std::optional<ProjectSnapshot>> &snapshots)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QList<qint64> ids;
    {
        // Everything or nothing: a half-stored study would leave runs that
        // nobody sends, or send a study missing some of its GPU counts.
        RunStoreTransaction tx(db);
        if (auto e = tx.begin(); !e)
            return fail(e.error());
        qint64 studyId = 0;
        if (study) {
            const Result<qint64> created = RunStoreStudies::insertStudyIn(db, *study);
            if (!created)
                return fail(created.error());
            studyId = *created;
        }
        for (qsizetype i = 0; i < runs.size(); ++i) {
            RunRecord r = runs[i];
            if (study)
                r.studyId = studyId;
            const Result<qint64> id = RunStoreRuns::insertRunIn(db, r);
            if (!id)
                return fail(id.error());
            ids << *id;
            if (const auto &snapshot = snapshots.value(i); snapshot)
                if (auto e = RunStoreSnapshots::insertSnapshotIn(db, *id, *snapshot); !e)
                    return fail(e.error());
        }
        if (auto e = tx.commit(); !e)
            return fail(e.error());
    }
    QList<RunRecord> out;
    for (qint64 id : std::as_const(ids)) {
        const Result<RunRecord> r = RunStoreRuns(connections()).run(id);
        if (!r)
            return fail(r.error());
        out << *r;
    }
    return out;
}

}   // namespace scalelab
