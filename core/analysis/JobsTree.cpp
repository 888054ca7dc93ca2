// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/JobsTree.h"

#include "core/slurm/SlurmTime.h"
#include "core/store/RunStore.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <utility>

namespace scalelab {

JobClock JobClock::fromHistory(const QList<StateChange> &history)
{
    JobClock clock;
    for (const StateChange &c : history) {
        if (!clock.started.isValid() && (c.state == JobState::Running || c.state == JobState::Completing))
            clock.started = c.at;
        if (!clock.ended.isValid()
            && (SlurmJobState::isTerminal(c.state)
                || (c.state == JobState::Completing && clock.started.isValid() && clock.started != c.at)))
            clock.ended = c.at;
    }
    return clock;
}

namespace {

// "segment 2 of 4" and each segment's state: ended ones as sacct said, the one
// followed now as the run's state, later ones waiting for it.
void describeSegments(JobsRow &row, const QList<SegmentRecord> &segments)
{
    if (segments.isEmpty())
        return;
    QStringList states;
    int current = 0;
    for (const SegmentRecord &s : segments) {
        if (s.jobId == row.run.jobId)
            current = s.segment;
        const QString state = s.ended()                  ? s.stateText.section(QLatin1Char(' '), 0, 0)
                              : s.jobId == row.run.jobId ? SlurmJobState::id(row.run.state)
                                                         : QStringLiteral("waiting");
        states << QStringLiteral("%1 %2").arg(s.segment).arg(state);
    }
    row.segmentText = QStringLiteral("segment %1 of %2").arg(current).arg(segments.size());
    row.segmentStates = states.join(QStringLiteral(", "));
    row.endedSegmentsElapsed = 0;
    for (const SegmentRecord &s : segments)
        if (s.ended() && s.jobId != row.run.jobId)
            row.endedSegmentsElapsed += SlurmTime::parseSeconds(s.elapsed).value_or(0);
}

// The history of the job followed now: a run of segments goes back to PENDING
// when the poll moves to the next segment, so its clock starts after the last PENDING.
QList<StateChange> followedJobHistory(const QList<StateChange> &history, bool segmented)
{
    if (!segmented)
        return history;
    for (qsizetype i = history.size() - 1; i > 0; --i)
        if (history.at(i).state == JobState::Pending)
            return history.mid(i);
    return history;
}

}   // namespace

JobsRow JobsRow::from(JobsRunRecord &&record)
{
    JobsRow row{.run = std::move(record.run),
                .hasScript = record.hasScript,
                .jobName = std::move(record.specJobName),
                .failureLine = std::move(record.failureLine),
                .hidden = record.hidden};
    describeSegments(row, record.segments);
    if (!record.specTime.isEmpty())
        row.limitSeconds = SlurmTime::parseSeconds(record.specTime).value_or(-1);
    if (!row.run.hasJob())
        return row;   // never reached Slurm: no clock
    const JobClock clock = JobClock::fromHistory(followedJobHistory(record.history, !record.segments.isEmpty()));
    row.started = clock.started;
    row.ended = clock.ended;
    if (row.run.isTerminal() && record.hasAccounting) {
        row.accountedElapsed = SlurmTime::parseSeconds(record.accountedElapsed).value_or(-1);
        if (row.limitSeconds < 0)
            row.limitSeconds = SlurmTime::parseSeconds(record.accountedLimit).value_or(-1);
    }
    if (!record.segments.isEmpty() && row.limitSeconds > 0)
        row.limitSeconds *= record.segments.size();
    return row;
}

qint64 JobsRow::elapsedSeconds(const QDateTime &now) const
{
    if (accountedElapsed >= 0)
        return accountedElapsed;
    // Not started, or back in the queue (requeued): no clock runs.
    if (!started.isValid() || (ended.isValid() && ended < started) || run.state == JobState::Pending)
        return endedSegmentsElapsed > 0 ? endedSegmentsElapsed : -1;
    const QDateTime end = ended.isValid() ? ended : now;
    return std::max<qint64>(0, endedSegmentsElapsed) + std::max<qint64>(0, started.secsTo(end));
}

bool JobsRow::active() const
{
    return run.hasJob() && started.isValid() && !ended.isValid() && !run.isTerminal();
}

double JobsRow::progress(const QDateTime &now) const
{
    const qint64 e = elapsedSeconds(now);
    if (e < 0 || limitSeconds <= 0)
        return -1.0;
    return std::min(1.0, double(e) / double(limitSeconds));
}

bool JobsTree::studyOrder(const JobsRow &a, const JobsRow &b)
{
    return a.run.gpus != b.run.gpus ? a.run.gpus < b.run.gpus : a.run.id < b.run.id;
}

QDateTime JobsTree::topTime(const Top &t) const
{
    return t.study >= 0 ? studies[size_t(t.study)].study.created : loose[size_t(t.run)].run.created;
}

namespace {

// Room for each study's runs and the lone runs before they are placed, so no
// vector grows (and moves its rows) while 100,000 runs are filled in.
void reserveRows(JobsTree &tree, const JobsTreeRecords &records, const QHash<qint64, size_t> &studyIndex,
                 bool showHidden)
{
    std::vector<size_t> perStudy(tree.studies.size(), 0);
    size_t loose = 0;
    for (const JobsRunRecord &r : records.runs) {
        if (r.hidden && !showHidden)
            continue;
        const auto it = studyIndex.constFind(r.run.studyId);
        if (r.run.studyId > 0 && it != studyIndex.constEnd())
            ++perStudy[*it];
        else
            ++loose;
    }
    for (size_t i = 0; i < perStudy.size(); ++i)
        tree.studies[i].runs.reserve(perStudy[i]);
    tree.loose.reserve(loose);
}

}   // namespace

JobsTree JobsTree::build(JobsTreeRecords records, bool showHidden)
{
    JobsTree tree;
    tree.studies.reserve(size_t(records.studies.size()));
    QHash<qint64, size_t> studyIndex;
    studyIndex.reserve(records.studies.size());
    for (const StudyRecord &s : records.studies) {
        studyIndex.insert(s.id, tree.studies.size());
        tree.studies.push_back({s, {}});
    }
    reserveRows(tree, records, studyIndex, showHidden);
    QSet<qint64> studiesWithRuns;
    for (JobsRunRecord &r : records.runs) {
        if (r.run.studyId > 0)
            studiesWithRuns.insert(r.run.studyId);
        if (r.hidden) {
            ++tree.hiddenCount;
            if (!showHidden)
                continue;
        }
        const auto it = studyIndex.constFind(r.run.studyId);
        if (r.run.studyId > 0 && it != studyIndex.constEnd())
            tree.studies[*it].runs.push_back(JobsRow::from(std::move(r)));
        else
            tree.loose.push_back(JobsRow::from(std::move(r)));
    }
    for (JobsStudyRow &s : tree.studies)
        std::sort(s.runs.begin(), s.runs.end(), &JobsTree::studyOrder);
    // A study whose runs are all hidden is hidden with them.
    if (!showHidden)
        tree.studies.erase(std::remove_if(tree.studies.begin(), tree.studies.end(),
                                          [&](const JobsStudyRow &st) {
                                              return st.runs.empty() && studiesWithRuns.contains(st.study.id);
                                          }),
                           tree.studies.end());
    tree.top.reserve(tree.studies.size() + tree.loose.size());
    for (size_t i = 0; i < tree.studies.size(); ++i)
        tree.top.push_back(Top{int(i), -1});
    for (size_t i = 0; i < tree.loose.size(); ++i)
        tree.top.push_back(Top{-1, int(i)});
    std::stable_sort(tree.top.begin(), tree.top.end(),
                     [&](const Top &a, const Top &b) { return tree.topTime(a) > tree.topTime(b); });
    return tree;
}

namespace {

bool sameIds(const std::vector<JobsRow> &a, const std::vector<JobsRow> &b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const JobsRow &x, const JobsRow &y) { return x.run.id == y.run.id; });
}

bool sameShape(const JobsTree &a, const JobsTree &b)
{
    if (a.studies.size() != b.studies.size() || !sameIds(a.loose, b.loose) || a.top.size() != b.top.size())
        return false;
    for (size_t i = 0; i < a.top.size(); ++i)
        if (a.top[i].study != b.top[i].study || a.top[i].run != b.top[i].run)
            return false;
    for (size_t i = 0; i < a.studies.size(); ++i)
        if (a.studies[i].study.id != b.studies[i].study.id || !sameIds(a.studies[i].runs, b.studies[i].runs))
            return false;
    return true;
}

}   // namespace

std::optional<JobsTree::Changes> JobsTree::changesFrom(const JobsTree &before, const JobsTree &after)
{
    if (!sameShape(before, after))
        return std::nullopt;
    Changes changes;
    for (size_t i = 0; i < after.loose.size(); ++i)
        if (!(before.loose[i] == after.loose[i]))
            changes.runs.emplace_back(-1, int(i));
    for (size_t s = 0; s < after.studies.size(); ++s) {
        const auto &was = before.studies[s];
        const auto &now = after.studies[s];
        bool changed = !(was.study == now.study);
        for (size_t i = 0; i < now.runs.size(); ++i)
            if (!(was.runs[i] == now.runs[i])) {
                changes.runs.emplace_back(int(s), int(i));
                changed = true;
            }
        if (changed)
            changes.studies.push_back(int(s));
    }
    return changes;
}

JobsTree JobsTree::load(RunStore &store, bool showHidden)
{
    auto records = store.jobsRecords();
    if (!records.ok()) {
        JobsTree failed;
        failed.error = records.errorText();
        return failed;
    }
    return build(std::move(*records), showHidden);
}

}   // namespace scalelab
