// SPDX-License-Identifier: GPL-3.0-or-later
// RunStoreJobs: the bulk read behind the Jobs tree (see JobsTreeRecords.h), in a
// fixed five queries through SqliteCursor (and a count of the runs when all are
// read), for every run or for a few.
#include "core/store/RunStoreJobs.h"

#include "core/store/RunStoreReadSnapshot.h"
#include "core/store/RunStoreRuns.h"
#include "core/store/RunStoreSql.h"
#include "core/store/RunStoreStudies.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace scalelab {

namespace {

// " WHERE <column> IN (1,2,3)" for the runs asked for; "" for every run. The
// ids are numbers written by this code, never text from outside.
QByteArray idFilter(const char *column, const QList<qint64> &runIds)
{
    if (runIds.isEmpty())
        return {};
    QByteArray out = QByteArray(" WHERE ") + column + " IN (";
    for (qsizetype i = 0; i < runIds.size(); ++i) {
        if (i > 0)
            out += ',';
        out += QByteArray::number(runIds[i]);
    }
    return out + ')';
}

// Finds runs in `runs` (sorted by id) for rows that mostly come in id order:
// the run after the last one found is tried first, then a binary search.
class RunFinder {
public:
    explicit RunFinder(QList<JobsRunRecord> &runs)
        : m_runs(runs)
    {}
    // The run with this id, or null.
    JobsRunRecord *find(qint64 id)
    {
        const qsizetype n = m_runs.size();
        if (m_next < n && m_runs[m_next].run.id == id)
            return &m_runs[m_next++];
        const auto it = std::lower_bound(m_runs.begin(), m_runs.end(), id,
                                         [](const JobsRunRecord &r, qint64 v) { return r.run.id < v; });
        if (it == m_runs.end() || it->run.id != id)
            return nullptr;
        m_next = qsizetype(it - m_runs.begin()) + 1;
        return &*it;
    }

private:
    QList<JobsRunRecord> &m_runs;
    qsizetype m_next = 0;
};

// Job state names repeat in every history row: each distinct text is parsed once.
class StateNames {
public:
    JobState parse(std::string_view text)
    {
        for (const auto &[name, state] : m_seen)
            if (name == text)
                return state;
        const JobState s = SlurmJobState::parse(QString::fromUtf8(text.data(), qsizetype(text.size())));
        m_seen.emplace_back(std::string(text), s);
        return s;
    }

private:
    std::vector<std::pair<std::string, JobState>> m_seen;
};

// The runs, by id. The script is kilobytes per run: only whether there is
// one. The two spec fields come from SQLite's JSON functions (a spec that is
// not JSON gives NULL there, never an error).
Result<void> readRuns(QSqlDatabase &db, const QList<qint64> &runIds, TextPool &pool, QList<JobsRunRecord> &out)
{
    if (runIds.isEmpty()) {   // room for every run at once: growing moves each record again and again
        auto count = SqliteCursor::prepare(db, "SELECT count(*) FROM runs");
        if (!count)
            return fail(count.error());
        if (auto e = count->eachRow([&](const SqliteCursor &c) { out.reserve(qsizetype(c.integer(0))); }); !e)
            return e;
    } else {
        out.reserve(runIds.size());
    }
    QByteArray columns = RunStoreRuns::runColumns();
    columns.replace(" script,", " '' AS script,");
    auto runs = SqliteCursor::prepare(
        db, "SELECT " + columns
                + ", script <> '', CASE WHEN json_valid(spec_json) THEN json_extract(spec_json, '$.time') END,"
                  " CASE WHEN json_valid(spec_json) THEN json_extract(spec_json, '$.jobName') END FROM runs"
                + idFilter("id", runIds) + " ORDER BY id");
    if (!runs)
        return fail(runs.error());
    return runs->eachRow([&](const SqliteCursor &c) {
        JobsRunRecord &r = out.emplaceBack();   // filled in place: no record moved
        r.run = RunStoreRuns::readRun(CursorColumns{c, pool});
        constexpr int n = RunStoreRuns::kRunColumnCount;
        r.hasScript = c.integer(n) != 0;
        r.specTime = c.pooled(n + 1, pool);
        // Job names are mostly one per run: pooled, they would fill the pool
        // and leave the labels that do repeat out of it.
        r.specJobName = c.text(n + 2);
    });
}

// Each run's state history, in the order seen (rows come by run).
Result<void> readHistory(QSqlDatabase &db, const QList<qint64> &runIds, QList<JobsRunRecord> &runs)
{
    auto history = SqliteCursor::prepare(db, "SELECT run_id, state, at FROM state_history" + idFilter("run_id", runIds)
                                                 + " ORDER BY run_id, id");
    if (!history)
        return fail(history.error());
    StateNames states;
    RunFinder finder(runs);
    JobsRunRecord *current = nullptr;
    return history->eachRow([&](const SqliteCursor &c) {
        const qint64 id = c.integer(0);
        if (!current || current->run.id != id) {   // one search per run
            current = finder.find(id);
            if (current)
                current->history.reserve(4);   // a few states each: one allocation, not one per growth
        }
        if (current)
            current->history.emplaceBack(
                StateChange{id, states.parse(c.utf8(1)), {}, RunStoreSql::fromText(c.utf8(2))});
    });
}

// The accounting clock and the flags of the runs read.
Result<void> readAccountingAndFlags(QSqlDatabase &db, const QList<qint64> &runIds, TextPool &pool,
                                    QList<JobsRunRecord> &runs)
{
    auto accounting =
        SqliteCursor::prepare(db, "SELECT run_id, elapsed, timelimit FROM accounting" + idFilter("run_id", runIds));
    if (!accounting)
        return fail(accounting.error());
    RunFinder accounted(runs);
    if (auto e = accounting->eachRow([&](const SqliteCursor &c) {
            if (JobsRunRecord *r = accounted.find(c.integer(0))) {
                r->hasAccounting = true;
                r->accountedElapsed = c.pooled(1, pool);
                r->accountedLimit = c.pooled(2, pool);
            }
        });
        !e)
        return e;
    auto flags =
        SqliteCursor::prepare(db, "SELECT run_id, hidden, failure_line FROM run_flags" + idFilter("run_id", runIds));
    if (!flags)
        return fail(flags.error());
    RunFinder flagged(runs);
    return flags->eachRow([&](const SqliteCursor &c) {
        if (JobsRunRecord *r = flagged.find(c.integer(0))) {
            r->hidden = c.integer(1) != 0;
            r->failureLine = c.text(2);
        }
    });
}

// The segments of the runs read (runs of one job have none): job, state and elapsed.
Result<void> readSegments(QSqlDatabase &db, const QList<qint64> &runIds, TextPool &pool, QList<JobsRunRecord> &runs)
{
    auto segments = SqliteCursor::prepare(db, "SELECT run_id, segment, job_id, state, elapsed FROM run_segments"
                                                  + idFilter("run_id", runIds) + " ORDER BY run_id, segment");
    if (!segments)
        return fail(segments.error());
    RunFinder finder(runs);
    return segments->eachRow([&](const SqliteCursor &c) {
        if (JobsRunRecord *r = finder.find(c.integer(0))) {
            SegmentRecord s;
            s.runId = c.integer(0);
            s.segment = int(c.integer(1));
            s.jobId = c.text(2);
            s.stateText = c.pooled(3, pool);
            s.state = s.stateText.isEmpty() ? JobState::Pending : SlurmJobState::parse(s.stateText);
            s.elapsed = c.text(4);
            r->segments << s;
        }
    });
}

}   // namespace

Result<JobsTreeRecords> RunStoreJobs::jobsRecords(const QList<qint64> &runIds)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    RunStoreReadSnapshot snapshot(db);
    if (auto e = snapshot.begin(); !e)
        return fail(e.error());

    JobsTreeRecords out;
    auto studies = RunStoreStudies(connections()).studies();
    if (!studies.ok())
        return fail(studies.error());
    out.studies = std::move(*studies);
    TextPool pool;
    if (auto e = readRuns(db, runIds, pool, out.runs); !e)
        return fail(e.error());
    if (auto e = readHistory(db, runIds, out.runs); !e)
        return fail(e.error());
    if (auto e = readAccountingAndFlags(db, runIds, pool, out.runs); !e)
        return fail(e.error());
    if (auto e = readSegments(db, runIds, pool, out.runs); !e)
        return fail(e.error());
    return out;
}

}   // namespace scalelab
