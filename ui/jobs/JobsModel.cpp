// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/JobsModel.h"

#include "core/model/JobSpecJson.h"
#include "core/store/RunStore.h"
#include "core/slurm/SlurmTime.h"

#include <QPainter>
#include <QPixmap>

#include <algorithm>
#include <QSet>

#include <map>

namespace scalelab {

JobsModel::JobsModel(RunStore &store, QObject *parent)
    : QAbstractItemModel(parent)
    , m_store(store)
{}

QString JobsModel::reload()
{
    const auto runs = m_store.runs();
    if (!runs.ok())
        return runs.errorText();
    const auto studies = m_store.studies();
    if (!studies.ok())
        return studies.errorText();

    std::vector<StudyRow> newStudies;
    std::map<qint64, size_t> studyIndex;
    for (const StudyRecord &s : studies.value()) {
        studyIndex[s.id] = newStudies.size();
        newStudies.push_back({s, {}});
    }
    const auto hidden = m_store.hiddenRuns();
    const auto failures = m_store.failureLines();
    std::vector<RunRow> loose;
    int hiddenCount = 0;
    QSet<qint64> studiesWithRuns;
    for (const RunRecord &r : runs.value()) {
        studiesWithRuns.insert(r.studyId);
        RunRow row;
        row.run = r;
        row.hidden = hidden.ok() && hidden.value().contains(r.id);
        if (row.hidden) {
            ++hiddenCount;
            if (!m_showHidden)
                continue;
        }
        if (failures.ok())
            row.failureLine = failures.value().value(r.id);
        if (const auto parsed = parseJobSpec(r.specJson); parsed.spec) {
            row.limitSeconds = SlurmTime::parseSeconds(parsed.spec->time).value_or(-1);
            row.jobName = parsed.spec->jobName;
        }
        if (r.hasJob()) {
            if (const auto history = m_store.stateHistory(r.id); history.ok()) {
                for (const StateChange &c : history.value()) {
                    if (!row.started.isValid() && (c.state == JobState::Running || c.state == JobState::Completing))
                        row.started = c.at;
                    // COMPLETING: the job's processes have ended (a cancel, or the
                    // end), Slurm is cleaning up: the clock stops there.
                    if (!row.ended.isValid()
                        && (SlurmJobState::isTerminal(c.state)
                            || (c.state == JobState::Completing && row.started.isValid() && row.started != c.at)))
                        row.ended = c.at;
                }
            }
            if (r.isTerminal()) {
                if (const auto acct = m_store.accounting(r.id); acct.ok() && acct.value()) {
                    row.accountedElapsed = SlurmTime::parseSeconds(acct.value()->elapsed).value_or(-1);
                    if (row.limitSeconds < 0)
                        row.limitSeconds = SlurmTime::parseSeconds(acct.value()->timelimit).value_or(-1);
                }
            }
        }
        const auto it = studyIndex.find(r.studyId);
        if (r.studyId > 0 && it != studyIndex.end())
            newStudies[it->second].runs.push_back(std::move(row));
        else
            loose.push_back(std::move(row));
    }
    for (StudyRow &s : newStudies)
        std::sort(s.runs.begin(), s.runs.end(), [](const RunRow &a, const RunRow &b) {
            return a.run.gpus != b.run.gpus ? a.run.gpus < b.run.gpus : a.run.id < b.run.id;
        });

    // Newest first: a study counts from its creation, a lone run from its own.
    std::vector<std::pair<QDateTime, Top>> order;
    for (size_t i = 0; i < newStudies.size(); ++i)
        order.push_back({newStudies[i].study.created, Top{int(i), -1}});
    for (size_t i = 0; i < loose.size(); ++i)
        order.push_back({loose[i].run.created, Top{-1, int(i)}});
    std::stable_sort(order.begin(), order.end(), [](const auto &a, const auto &b) { return a.first > b.first; });

    // A study whose runs are all hidden is hidden with them.
    if (!m_showHidden)
        newStudies.erase(std::remove_if(newStudies.begin(), newStudies.end(),
                                        [&](const StudyRow &st) {
                                            return st.runs.empty() && studiesWithRuns.contains(st.study.id);
                                        }),
                         newStudies.end());
    beginResetModel();
    m_hiddenCount = hiddenCount;
    m_studies = std::move(newStudies);
    m_loose = std::move(loose);
    m_top.clear();
    for (const auto &[when, top] : order)
        m_top.push_back(top);
    endResetModel();
    return {};
}

QModelIndex JobsModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    if (!parent.isValid())
        return row < int(m_top.size()) ? createIndex(row, column, quintptr(0)) : QModelIndex();
    // Children carry their study's top-level row + 1.
    if (parent.internalId() != 0 || parent.row() >= int(m_top.size()))
        return {};
    const Top &t = m_top[size_t(parent.row())];
    if (t.study < 0 || row >= int(m_studies[size_t(t.study)].runs.size()))
        return {};
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex JobsModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int JobsModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_top.size());
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    const Top &t = m_top[size_t(parent.row())];
    return t.study >= 0 ? int(m_studies[size_t(t.study)].runs.size()) : 0;
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
    }
    return {};
}

QVariant JobsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    if (index.internalId() != 0) {
        const Top &t = m_top[size_t(index.internalId() - 1)];
        return runData(m_studies[size_t(t.study)].runs[size_t(index.row())], index.column(), role);
    }
    const Top &t = m_top[size_t(index.row())];
    return t.study >= 0 ? studyData(m_studies[size_t(t.study)], index.column(), role)
                        : runData(m_loose[size_t(t.run)], index.column(), role);
}

QColor JobsModel::stateColour(JobState s)
{
    switch (s) {
    case JobState::Pending:
    case JobState::Configuring:
    case JobState::Requeued:
        return QColor(0xb2, 0x8a, 0x00);   // amber
    case JobState::Running:
    case JobState::Completing:
    case JobState::Resizing:
        return QColor(0x1a, 0x73, 0xe8);   // blue
    case JobState::Completed:
        return QColor(0x1e, 0x8e, 0x3e);   // green
    case JobState::Cancelled:
    case JobState::Suspended:
    case JobState::Preempted:
    case JobState::Revoked:
        return QColor(0x70, 0x70, 0x70);   // grey
    case JobState::Failed:
    case JobState::Timeout:
    case JobState::NodeFail:
    case JobState::OutOfMemory:
    case JobState::BootFail:
    case JobState::Deadline:
    case JobState::SpecialExit:
        return QColor(0xc5, 0x22, 0x1f);   // red
    case JobState::Unknown:
        break;
    }
    return QColor(0x9e, 0x9e, 0x9e);
}

QColor JobsModel::runColour(const RunRecord &run)
{
    if (run.hasJob())
        return stateColour(run.state);
    return run.submitState == SubmitState::Rejected ? stateColour(JobState::Failed) : stateColour(JobState::Unknown);
}

QIcon JobsModel::stateIcon(const QColor &colour)
{
    QPixmap pm(12, 12);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(colour.darker(130));
    p.setBrush(colour);
    p.drawEllipse(QRectF(1, 1, 10, 10));
    return QIcon(pm);
}

QString JobsModel::stateText(const RunRecord &run)
{
    if (run.hasJob())
        return SlurmJobState::displayName(run.state);
    switch (run.submitState) {
    case SubmitState::Intent:
        return tr("Not sent yet");
    case SubmitState::Uploaded:
        return tr("Uploaded, not submitted");
    case SubmitState::Unknown:
        return tr("Submission unknown (checking)");
    case SubmitState::Rejected:
        return tr("Rejected");
    case SubmitState::Submitted:
    case SubmitState::Reconciled:
        break;
    }
    return SlurmJobState::displayName(run.state);
}

qint64 JobsModel::elapsedSeconds(const RunRow &row)
{
    if (row.accountedElapsed >= 0)
        return row.accountedElapsed;
    // Not started, or back in the queue (requeued): no clock runs.
    if (!row.started.isValid() || (row.ended.isValid() && row.ended < row.started)
        || row.run.state == JobState::Pending)
        return -1;
    const QDateTime end = row.ended.isValid() ? row.ended : QDateTime::currentDateTimeUtc();
    return std::max<qint64>(0, row.started.secsTo(end));
}

QString JobsModel::elapsedText(const RunRow &row)
{
    const qint64 e = elapsedSeconds(row);
    const QString limit = row.limitSeconds > 0 ? SlurmTime::format(row.limitSeconds) : QStringLiteral("?");
    if (e < 0)
        return row.limitSeconds > 0 ? QStringLiteral("– / ") + limit : QString();
    return SlurmTime::format(e) + QStringLiteral(" / ") + limit;
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
        return runColour(r);
    case ElapsedSecondsRole:
        return elapsedSeconds(row);
    case LimitSecondsRole:
        return row.limitSeconds;
    case ActiveRole:
        return r.hasJob() && row.started.isValid() && !row.ended.isValid() && !r.isTerminal();
    case ProgressRole: {
        const qint64 e = elapsedSeconds(row);
        if (e < 0 || row.limitSeconds <= 0)
            return -1.0;
        return std::min(1.0, double(e) / double(row.limitSeconds));
    }
    case Qt::ForegroundRole:
        if (row.hidden)
            return QColor(0x80, 0x80, 0x80);   // shown only with "Show hidden"
        if (column == State)
            return runColour(r).darker(115);
        if (column == Reason && !row.failureLine.isEmpty() && r.isTerminal())
            return QColor(0xb0, 0x00, 0x20);
        return {};
    case Qt::DecorationRole:
        if (column == State)
            return stateIcon(runColour(r));
        return {};
    case Qt::ToolTipRole:
        if (column == State && !r.rejection.isEmpty())
            return r.rejection;
        if (column == Reason && !row.failureLine.isEmpty())
            return tr("First error in the job's output (%1)").arg(row.failureLine);
        if (column == Name)
            return tr("token %1, remote dir %2").arg(r.token, r.remoteDir.isEmpty() ? tr("(not yet)") : r.remoteDir);
        return {};
    case Qt::TextAlignmentRole:
        if (column == Gpus || column == Nodes || column == JobId)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (column) {
    case Name: {
        QString text = tr("Run %1").arg(r.id);
        if (!row.jobName.isEmpty())
            text += QStringLiteral(" · ") + row.jobName;
        return text;
    }
    case Cluster:
        return r.clusterAlias.isEmpty() ? r.profile : r.clusterAlias;
    case JobId:
        return r.jobId;
    case State:
        return stateText(r);
    case Reason: {
        if (!row.failureLine.isEmpty() && r.isTerminal())
            return row.failureLine;
        if (r.submitState == SubmitState::Rejected)
            return r.rejection.section(QLatin1Char('\n'), 0, 0);
        if (r.state != JobState::Pending)
            return QString();
        return r.reason == QLatin1String("None") ? QString() : r.reason;
    }
    case Gpus:
        return r.gpus;
    case Nodes:
        return r.nodes > 0 ? QVariant(r.nodes) : QVariant(QString());
    case Elapsed:
        return elapsedText(row);
    case Submitted:
        return r.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    }
    return {};
}

QVariant JobsModel::studyData(const StudyRow &row, int column, int role) const
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
        break;
    default:
        return {};
    }
    switch (column) {
    case Name:
        return row.study.name;
    case Cluster: {
        QStringList clusters;
        for (const RunRow &r : row.runs)
            if (!clusters.contains(r.run.clusterAlias))
                clusters << r.run.clusterAlias;
        return clusters.join(QLatin1String(", "));
    }
    case State: {
        // "2 Running, 1 Pending": how far the study is.
        QList<QPair<QString, int>> counts;
        for (const RunRow &r : row.runs) {
            const QString s = stateText(r.run);
            auto it = std::find_if(counts.begin(), counts.end(), [&](const auto &p) { return p.first == s; });
            if (it == counts.end())
                counts.append({s, 1});
            else
                ++it->second;
        }
        QStringList parts;
        for (const auto &[s, n] : counts)
            parts << QStringLiteral("%1 %2").arg(n).arg(s);
        return parts.join(QLatin1String(", "));
    }
    case Gpus: {
        QStringList gpus;
        for (const RunRow &r : row.runs)
            gpus << QString::number(r.run.gpus);
        return gpus.join(QLatin1Char(','));
    }
    case Submitted:
        return row.study.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    default:
        return QString();
    }
}

QModelIndex JobsModel::indexOfRun(qint64 runId, int column) const
{
    for (size_t t = 0; t < m_top.size(); ++t) {
        const Top &top = m_top[t];
        if (top.run >= 0 && m_loose[size_t(top.run)].run.id == runId)
            return index(int(t), column);
        if (top.study >= 0) {
            const auto &runs = m_studies[size_t(top.study)].runs;
            for (size_t i = 0; i < runs.size(); ++i)
                if (runs[i].run.id == runId)
                    return index(int(i), column, index(int(t), 0));
        }
    }
    return {};
}

const JobsModel::RunRow *JobsModel::runRow(qint64 runId) const
{
    for (const RunRow &r : m_loose)
        if (r.run.id == runId)
            return &r;
    for (const StudyRow &s : m_studies)
        for (const RunRow &r : s.runs)
            if (r.run.id == runId)
                return &r;
    return nullptr;
}

bool JobsModel::hasActiveRuns() const
{
    auto active = [](const RunRow &r) { return r.run.hasJob() && !r.run.isTerminal(); };
    return std::any_of(m_loose.begin(), m_loose.end(), active)
           || std::any_of(m_studies.begin(), m_studies.end(),
                          [&](const StudyRow &s) { return std::any_of(s.runs.begin(), s.runs.end(), active); });
}

qint64 JobsModel::studyOfSameSpec(qint64 runId) const
{
    const RunRow *row = runRow(runId);
    if (!row || row->run.studyId > 0 || row->run.specJson.isEmpty())
        return 0;
    for (const StudyRow &st : m_studies)
        for (const RunRow &r : st.runs)
            if (r.run.specJson == row->run.specJson)
                return st.study.id;
    return 0;
}

QString JobsModel::studyName(qint64 studyId) const
{
    for (const StudyRow &st : m_studies)
        if (st.study.id == studyId)
            return st.study.name;
    return {};
}

}   // namespace scalelab
