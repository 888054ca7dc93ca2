// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/JobsModel.h"

#include "core/analysis/PendingRunText.h"
#include "core/store/RunStore.h"
#include "ui/common/BackgroundPool.h"
#include "ui/common/RunInBackground.h"
#include "ui/jobs/JobStateLook.h"
#include "ui/jobs/JobsRowText.h"

#include <QFont>
#include <QSet>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <utility>

namespace scalelab {

namespace {

// More changed runs than this are read as a whole tree: one list of ids in
// the SQL text stays short.
constexpr qsizetype kMaxPatchRuns = 500;

}   // namespace

JobsModel::JobsModel(RunStore &store, QObject *parent)
    : QAbstractItemModel(parent)
    , m_store(store)
{}

JobsModel::~JobsModel()
{
    m_reading.waitForFinished();
}

void JobsModel::reload()
{
    m_wantFull = true;
    m_wantRuns.clear();
    startRead();
}

void JobsModel::setFilter(const QString &text)
{
    if (text == m_filter)
        return;
    m_filter = text;
    reload();
}

void JobsModel::refreshRuns(const QList<qint64> &runIds)
{
    // A filtered tree is read whole: a changed run may come into it or leave it.
    if (runIds.isEmpty() || !m_filter.isEmpty()) {
        reload();
        return;
    }
    if (!m_wantFull)
        for (qint64 id : runIds)
            if (!m_wantRuns.contains(id))
                m_wantRuns << id;
    if (m_wantRuns.size() > kMaxPatchRuns)
        reload();
    else
        startRead();
}

bool JobsModel::isLoading() const
{
    return m_busy || m_wantFull || !m_wantRuns.isEmpty();
}

void JobsModel::startRead()
{
    // One read at a time, applied in the order asked: what is asked for
    // meanwhile is read once after it.
    if (m_busy || (!m_wantFull && m_wantRuns.isEmpty()))
        return;
    m_busy = true;   // until its result is applied, which is after the thread ends
    const bool full = std::exchange(m_wantFull, false);
    const QList<qint64> asked = std::exchange(m_wantRuns, {});
    RunStore *store = &m_store;
    const bool showHidden = m_showHidden;
    const QString filter = m_filter;
    // The tree shown stays as it is until this read is applied (m_busy): the
    // pool thread compares the new one with it.
    const JobsTree *shown = &m_tree;
    auto work = [store, full, asked, showHidden, filter, shown] {
        auto read = std::make_shared<Read>();
        read->full = full;
        read->asked = asked;
        if (full) {
            read->tree = JobsTree::load(*store, showHidden);
            read->error = read->tree.error;
            JobsRowText::filter(read->tree, filter);
            if (read->error.isEmpty())
                read->changes = JobsTree::changesFrom(*shown, read->tree);
        } else if (auto records = store->jobsRecords(asked); records.ok()) {
            read->records = std::move(*records);
        } else {
            read->error = records.errorText();
        }
        store->closeThreadConnection();   // this pool thread may be reused by others
        return read;
    };
    m_reading = runInBackground(this, std::move(work), [this](const std::shared_ptr<Read> &read) {
        m_busy = false;
        applyRead(*read);
        startRead();
        Q_EMIT loaded(read->error);
    });
}

void JobsModel::applyRead(Read &read)
{
    if (!read.error.isEmpty())
        return;   // the old rows stay
    if (read.full && read.changes)
        replaceRows(std::move(read.tree), *read.changes);
    else if (read.full)
        setTree(std::move(read.tree));
    else if (!patch(read.records, read.asked))
        reload();   // the change moves rows: read the whole tree
}

void JobsModel::setTree(JobsTree tree)
{
    beginResetModel();
    JobsTree old = std::exchange(m_tree, std::move(tree));
    m_studyTop.assign(m_tree.studies.size(), -1);
    for (size_t t = 0; t < m_tree.top.size(); ++t)
        if (m_tree.top[t].study >= 0)
            m_studyTop[size_t(m_tree.top[t].study)] = int(t);
    // The first rows only: the view lays out what it is given, and asks for
    // more as it scrolls.
    m_shownTop = std::min(int(m_tree.top.size()), m_chunk);
    endResetModel();
    // 100,000 rows of strings: freed on a pool thread, not here.
    (void)QtConcurrent::run(&backgroundPool(), [gone = std::move(old)]() mutable { gone = JobsTree(); });
}

void JobsModel::replaceRows(JobsTree tree, const JobsTree::Changes &changes)
{
    // The same rows in the same places: the changed ones are said so, in
    // runs of neighbours, and the view keeps its layout, selection and folds.
    JobsTree old = std::exchange(m_tree, std::move(tree));
    std::vector<int> looseTop(m_tree.loose.size(), -1);
    for (size_t t = 0; t < m_tree.top.size(); ++t)
        if (m_tree.top[t].run >= 0)
            looseTop[size_t(m_tree.top[t].run)] = int(t);
    auto rowIndex = [&](const std::pair<int, int> &at) {   // invalid when not given to the view yet
        if (at.first >= 0)
            return studyShown(at.first) ? createIndex(at.second, 0, quintptr(at.first + 1)) : QModelIndex();
        return index(looseTop[size_t(at.second)], 0);
    };
    for (size_t i = 0; i < changes.runs.size();) {
        const QModelIndex first = rowIndex(changes.runs[i]);
        QModelIndex last = first;
        for (++i; i < changes.runs.size(); ++i) {
            const QModelIndex next = rowIndex(changes.runs[i]);
            if (!first.isValid() || next.parent() != first.parent() || next.row() != last.row() + 1)
                break;
            last = next;
        }
        rowChanged(first, last);
    }
    for (int study : changes.studies)
        if (studyShown(study))
            rowChanged(studyIndex(study), studyIndex(study));
    (void)QtConcurrent::run(&backgroundPool(), [gone = std::move(old)]() mutable { gone = JobsTree(); });
}

bool JobsModel::patch(const JobsTreeRecords &records, const QList<qint64> &asked)
{
    QSet<qint64> found;
    for (const JobsRunRecord &r : records.runs) {
        found.insert(r.run.id);
        if (!patchRow(JobsRow::from(r), records.studies))
            return false;
    }
    for (qint64 id : asked)
        if (!found.contains(id) && placeOf(id).pos >= 0)
            return false;   // deleted
    return true;
}

bool JobsModel::patchRow(JobsRow row, const QList<StudyRecord> &studies)
{
    const Place at = placeOf(row.run.id);
    int study = -1;   // where the row belongs now
    for (size_t i = 0; i < m_tree.studies.size() && row.run.studyId > 0; ++i)
        if (m_tree.studies[i].study.id == row.run.studyId)
            study = int(i);
    const bool visible = (m_showHidden || !row.hidden) && m_filter.isEmpty();
    if (at.pos >= 0) {
        std::vector<JobsRow> &runs = at.study >= 0 ? m_tree.studies[size_t(at.study)].runs : m_tree.loose;
        JobsRow &old = runs[size_t(at.pos)];
        if (!visible || study != at.study || old.run.gpus != row.run.gpus || old.run.created != row.run.created)
            return false;   // it leaves, moves or is ordered elsewhere
        m_tree.hiddenCount += int(row.hidden) - int(old.hidden);
        old = std::move(row);
        const QModelIndex first = indexOfRun(old.run.id);
        rowChanged(first, first);
        if (at.study >= 0 && studyShown(at.study))   // the study's summary (states, GPUs) counts its runs
            rowChanged(studyIndex(at.study), studyIndex(at.study));
        return true;
    }
    m_tree.hiddenCount += int(row.hidden);
    if (!visible)
        return m_filter.isEmpty();
    if (row.run.studyId > 0)
        return patchStudyRun(study, std::move(row), studies);
    m_tree.loose.push_back(std::move(row));
    insertTop(JobsTree::Top{-1, int(m_tree.loose.size() - 1)});
    return true;
}

bool JobsModel::patchStudyRun(int study, JobsRow row, const QList<StudyRecord> &studies)
{
    if (study < 0) {   // a new study: its record came with the read
        const auto s = std::find_if(studies.begin(), studies.end(),
                                    [&](const StudyRecord &st) { return st.id == row.run.studyId; });
        if (s == studies.end())
            return false;
        m_tree.studies.push_back({*s, {std::move(row)}});
        m_studyTop.push_back(-1);
        insertTop(JobsTree::Top{int(m_tree.studies.size() - 1), -1});
        return true;
    }
    std::vector<JobsRow> &runs = m_tree.studies[size_t(study)].runs;
    const int pos = int(std::upper_bound(runs.begin(), runs.end(), row, &JobsTree::studyOrder) - runs.begin());
    if (!studyShown(study)) {   // below the rows the view was given: it sees it when it gets there
        runs.insert(runs.begin() + pos, std::move(row));
        return true;
    }
    beginInsertRows(studyIndex(study), pos, pos);
    runs.insert(runs.begin() + pos, std::move(row));
    endInsertRows();
    rowChanged(studyIndex(study), studyIndex(study));
    return true;
}

void JobsModel::insertTop(JobsTree::Top entry)
{
    // Newest first; after the entries of the same time, as build() orders them.
    const QDateTime when = m_tree.topTime(entry);
    int row = 0;
    while (row < int(m_tree.top.size()) && m_tree.topTime(m_tree.top[size_t(row)]) >= when)
        ++row;
    // Among the rows the view has (or right after them, when it has them all) it is told.
    const bool told = row < m_shownTop || m_shownTop == int(m_tree.top.size());
    if (told)
        beginInsertRows(QModelIndex(), row, row);
    m_tree.top.insert(m_tree.top.begin() + row, entry);
    for (int &t : m_studyTop)
        if (t >= row)
            ++t;
    if (entry.study >= 0)
        m_studyTop[size_t(entry.study)] = row;
    if (told) {
        ++m_shownTop;
        endInsertRows();
    }
}

bool JobsModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_shownTop < int(m_tree.top.size());
}

void JobsModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    const int more = std::min(m_chunk, int(m_tree.top.size()) - m_shownTop);
    beginInsertRows(QModelIndex(), m_shownTop, m_shownTop + more - 1);
    m_shownTop += more;
    endInsertRows();
}

bool JobsModel::exposeRun(qint64 runId)
{
    const int top = topRowOf(placeOf(runId));
    if (top < 0)
        return false;
    if (top >= m_shownTop) {
        beginInsertRows(QModelIndex(), m_shownTop, top);
        m_shownTop = top + 1;
        endInsertRows();
    }
    return true;
}

int JobsModel::runCount() const
{
    size_t n = m_tree.loose.size();
    for (const JobsStudyRow &s : m_tree.studies)
        n += s.runs.size();
    return int(n);
}

JobsModel::Place JobsModel::placeOf(qint64 runId) const
{
    for (size_t i = 0; i < m_tree.loose.size(); ++i)
        if (m_tree.loose[i].run.id == runId)
            return {-1, int(i)};
    for (size_t s = 0; s < m_tree.studies.size(); ++s)
        for (size_t i = 0; i < m_tree.studies[s].runs.size(); ++i)
            if (m_tree.studies[s].runs[i].run.id == runId)
                return {int(s), int(i)};
    return {};
}

int JobsModel::topRowOf(const Place &at) const
{
    if (at.pos < 0)
        return -1;
    if (at.study >= 0)
        return m_studyTop[size_t(at.study)];
    for (size_t t = 0; t < m_tree.top.size(); ++t)
        if (m_tree.top[t].study < 0 && m_tree.top[t].run == at.pos)
            return int(t);
    return -1;
}

bool JobsModel::studyShown(int study) const
{
    return m_studyTop[size_t(study)] < m_shownTop;
}

void JobsModel::rowChanged(const QModelIndex &first, const QModelIndex &last)
{
    if (first.isValid())
        Q_EMIT dataChanged(first, last.siblingAtColumn(ColumnCount - 1));
}

QModelIndex JobsModel::studyIndex(int study) const
{
    return createIndex(m_studyTop[size_t(study)], 0, quintptr(0));
}

QModelIndex JobsModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    if (!parent.isValid())
        return row < m_shownTop ? createIndex(row, column, quintptr(0)) : QModelIndex();
    // Children carry their study's index + 1 (stable while rows are inserted above).
    if (parent.internalId() != 0 || parent.row() >= m_shownTop)
        return {};
    const JobsTree::Top &t = m_tree.top[size_t(parent.row())];
    if (t.study < 0 || row >= int(m_tree.studies[size_t(t.study)].runs.size()))
        return {};
    return createIndex(row, column, quintptr(t.study + 1));
}

QModelIndex JobsModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return studyIndex(int(child.internalId() - 1));
}

int JobsModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return m_shownTop;
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    const JobsTree::Top &t = m_tree.top[size_t(parent.row())];
    return t.study >= 0 ? int(m_tree.studies[size_t(t.study)].runs.size()) : 0;
}

int JobsModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant JobsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Study / run");
    case Cluster:
        return tr("Cluster");
    case JobId:
        return tr("Job ID");
    case State:
        return tr("State");
    case Reason:
        return tr("Reason / cause");
    case Gpus:
        return tr("GPUs");
    case Nodes:
        return tr("Nodes");
    case Elapsed:
        return tr("Elapsed / limit");
    case Submitted:
        return tr("Submitted");
    case Live:
        return tr("GPU use (live)");
    }
    return {};
}

QVariant JobsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    if (index.internalId() != 0) {
        const JobsStudyRow &study = m_tree.studies[size_t(index.internalId() - 1)];
        return runData(study.runs[size_t(index.row())], index.column(), role);
    }
    const JobsTree::Top &t = m_tree.top[size_t(index.row())];
    return t.study >= 0 ? studyData(m_tree.studies[size_t(t.study)], index.column(), role)
                        : runData(m_tree.loose[size_t(t.run)], index.column(), role);
}

void JobsModel::setLive(qint64 runId, const LiveRunView &view)
{
    if (view.runId == 0)
        m_live.remove(runId);
    else
        m_live.insert(runId, view);
    if (const QModelIndex i = indexOfRun(runId, Live); i.isValid())
        Q_EMIT dataChanged(i, i);
}

const LiveRunView *JobsModel::liveView(qint64 runId) const
{
    const auto it = m_live.constFind(runId);
    return it == m_live.cend() ? nullptr : &*it;
}

qint64 JobsModel::elapsedSeconds(const RunRow &row)
{
    return row.elapsedSeconds(QDateTime::currentDateTimeUtc());
}

QVariant JobsModel::runData(const RunRow &row, int column, int role) const
{
    const RunRecord &r = row.run;
    switch (role) {
    case RunIdRole:
        return r.id;
    case StudyIdRole:
        return r.studyId;
    case IsStudyRole:
        return false;
    case StateIdRole:
        return r.hasJob() ? SlurmJobState::id(r.state) : submitStateId(r.submitState);
    case StateColourRole:
        return JobStateLook::runColour(r);
    case ElapsedSecondsRole:
        return elapsedSeconds(row);
    case LimitSecondsRole:
        return row.limitSeconds;
    case ActiveRole:
        return row.active();
    case ProgressRole:
        return row.progress(QDateTime::currentDateTimeUtc());
    case Qt::ForegroundRole:
        if (row.hidden)
            return QColor(0x80, 0x80, 0x80);   // shown only with "Show hidden"
        if (column == State)
            return JobStateLook::runColour(r).darker(115);
        if (column == Reason && !row.failureLine.isEmpty() && r.isTerminal())
            return QColor(0xb0, 0x00, 0x20);
        return {};
    case Qt::DecorationRole:
        if (column == State)
            return JobStateLook::stateIcon(JobStateLook::runColour(r));
        return {};
    case Qt::ToolTipRole:
        return runToolTip(row, column);
    case Qt::TextAlignmentRole:
        if (column == Gpus || column == Nodes || column == JobId)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::DisplayRole:
        return JobsRowText::run(row, column, liveView(r.id));
    default:
        return {};
    }
}

QVariant JobsModel::runToolTip(const RunRow &row, int column) const
{
    const RunRecord &r = row.run;
    if (column == State && !r.rejection.isEmpty())
        return r.rejection;
    if (column == State && !row.segmentStates.isEmpty())
        return tr("Segments: %1").arg(row.segmentStates);
    if (column == Reason && !row.failureLine.isEmpty())
        return tr("First error in the job's output (%1)").arg(row.failureLine);
    if (column == Reason && r.state == JobState::Pending)
        return PendingRunText::of(r, {}).text();
    if (column == Live)
        return JobsRowText::liveToolTip(liveView(r.id));
    if (column == Name)
        return tr("token %1, remote dir %2").arg(r.token, r.remoteDir.isEmpty() ? tr("(not yet)") : r.remoteDir);
    return {};
}

QVariant JobsModel::studyData(const JobsStudyRow &row, int column, int role) const
{
    switch (role) {
    case RunIdRole:
        return qint64(0);
    case StudyIdRole:
        return row.study.id;
    case IsStudyRole:
        return true;
    case ProgressRole:
        return -1.0;
    case Qt::FontRole:
        if (column == Name) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        if (column == State || column == Name)
            return studyData(row, column, Qt::DisplayRole);
        return {};
    case Qt::DisplayRole:
        return JobsRowText::study(row, column);
    default:
        return {};
    }
}

QModelIndex JobsModel::indexOfRun(qint64 runId, int column) const
{
    const Place at = placeOf(runId);
    const int top = topRowOf(at);
    if (top < 0 || top >= m_shownTop)
        return {};   // not in the tree, or not given to the view yet (exposeRun)
    if (at.study >= 0)
        return createIndex(at.pos, column, quintptr(at.study + 1));
    return index(top, column);
}

const JobsModel::RunRow *JobsModel::runRow(qint64 runId) const
{
    const Place at = placeOf(runId);
    if (at.pos < 0)
        return nullptr;
    return at.study >= 0 ? &m_tree.studies[size_t(at.study)].runs[size_t(at.pos)] : &m_tree.loose[size_t(at.pos)];
}

bool JobsModel::hasActiveRuns() const
{
    auto active = [](const RunRow &r) { return r.run.hasJob() && !r.run.isTerminal(); };
    return std::any_of(m_tree.loose.begin(), m_tree.loose.end(), active)
           || std::any_of(m_tree.studies.begin(), m_tree.studies.end(),
                          [&](const JobsStudyRow &s) { return std::any_of(s.runs.begin(), s.runs.end(), active); });
}

qint64 JobsModel::studyOfSameSpec(qint64 runId) const
{
    const RunRow *row = runRow(runId);
    if (!row || row->run.studyId > 0 || row->run.specJson.isEmpty())
        return 0;
    for (const JobsStudyRow &st : m_tree.studies)
        for (const RunRow &r : st.runs)
            if (r.run.specJson == row->run.specJson)
                return st.study.id;
    return 0;
}

QString JobsModel::studyName(qint64 studyId) const
{
    for (const JobsStudyRow &st : m_tree.studies)
        if (st.study.id == studyId)
            return st.study.name;
    return {};
}

}   // namespace scalelab
