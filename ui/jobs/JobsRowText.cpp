// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/JobsRowText.h"

#include "core/slurm/SlurmTime.h"
#include "ui/jobs/JobStateLook.h"
#include "ui/jobs/JobsModel.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <utility>

namespace scalelab {

namespace {

QString jobsTr(const char *text)
{
    return QCoreApplication::translate("JobsModel", text);
}

QString reasonText(const RunRecord &r, const QString &failureLine)
{
    if (!failureLine.isEmpty() && r.isTerminal())
        return failureLine;
    if (r.submitState == SubmitState::Rejected)
        return r.rejection.section(QLatin1Char('\n'), 0, 0);
    if (r.state != JobState::Pending)
        return QString();
    const QString reason = r.reason == QLatin1String("None") ? QString() : r.reason;
    if (r.expectedStart.isEmpty())
        return reason;
    return jobsTr("%1 · starts ~%2").arg(reason, QString(r.expectedStart).replace(QLatin1Char('T'), QLatin1Char(' ')));
}

QString studyStates(const JobsStudyRow &row)
{
    // "2 Running, 1 Pending": how far the study is.
    QList<QPair<QString, int>> counts;
    for (const JobsRow &r : row.runs) {
        const QString s = JobStateLook::stateText(r.run);
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

bool runHolds(const JobsRow &row, const QString &needle)
{
    for (int c = 0; c < JobsModel::ColumnCount; ++c)
        if (c != JobsModel::Live && JobsRowText::run(row, c, nullptr).toString().contains(needle, Qt::CaseInsensitive))
            return true;
    return false;
}

bool studyHolds(const JobsStudyRow &row, const QString &needle)
{
    for (int c = 0; c < JobsModel::ColumnCount; ++c)
        if (JobsRowText::study(row, c).toString().contains(needle, Qt::CaseInsensitive))
            return true;
    return false;
}

}   // namespace

QVariant JobsRowText::run(const JobsRow &row, int column, const LiveRunView *live)
{
    const RunRecord &r = row.run;
    switch (column) {
    case JobsModel::Name:
        return row.jobName.isEmpty() ? jobsTr("Run %1").arg(r.id)
                                     : jobsTr("Run %1").arg(r.id) + QStringLiteral(" · ") + row.jobName;
    case JobsModel::Cluster:
        return r.clusterAlias.isEmpty() ? r.profile : r.clusterAlias;
    case JobsModel::JobId:
        return r.jobId;
    case JobsModel::State:
        return state(row);
    case JobsModel::Reason:
        return reasonText(r, row.failureLine);
    case JobsModel::Gpus:
        return r.gpus;
    case JobsModel::Live:
        return live && r.state == JobState::Running ? throughput(*live) : QString();
    case JobsModel::Nodes:
        return r.nodes > 0 ? QVariant(r.nodes) : QVariant(QString());
    case JobsModel::Elapsed:
        return elapsed(row);
    case JobsModel::Submitted:
        return r.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    default:
        return {};
    }
}

QVariant JobsRowText::study(const JobsStudyRow &row, int column)
{
    switch (column) {
    case JobsModel::Name:
        return row.study.name;
    case JobsModel::Cluster: {
        QStringList clusters;
        for (const JobsRow &r : row.runs)
            if (!clusters.contains(r.run.clusterAlias))
                clusters << r.run.clusterAlias;
        return clusters.join(QLatin1String(", "));
    }
    case JobsModel::State:
        return studyStates(row);
    case JobsModel::Gpus: {
        QStringList gpus;
        for (const JobsRow &r : row.runs)
            gpus << QString::number(r.run.gpus);
        return gpus.join(QLatin1Char(','));
    }
    case JobsModel::Submitted:
        return row.study.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    default:
        return QString();
    }
}

QString JobsRowText::state(const JobsRow &row)
{
    // A run of segments: which one runs now ("segment 2 of 4").
    const QString text = JobStateLook::stateText(row.run);
    return row.segmentText.isEmpty() ? text : text + QStringLiteral(" · ") + row.segmentText;
}

QString JobsRowText::elapsed(const JobsRow &row)
{
    const qint64 e = row.elapsedSeconds(QDateTime::currentDateTimeUtc());
    const QString limit = row.limitSeconds > 0 ? SlurmTime::format(row.limitSeconds) : QStringLiteral("?");
    if (e < 0)
        return row.limitSeconds > 0 ? QStringLiteral("– / ") + limit : QString();
    return SlurmTime::format(e) + QStringLiteral(" / ") + limit;
}

QString JobsRowText::throughput(const LiveRunView &view)
{
    if (!view.throughput)
        return {};
    return QStringLiteral("%1 %2")
        .arg(*view.throughput, 0, 'f', *view.throughput >= 100 ? 0 : 1)
        .arg(view.throughputUnit);
}

QString JobsRowText::liveToolTip(const LiveRunView *v)
{
    if (!v || v->gpus.isEmpty())
        return {};
    QStringList lines;
    for (const LiveGpuView &g : v->gpus) {
        const QString mem =
            std::isnan(g.memUsedMiB) ? jobsTr("memory ?")
            : g.memTotalMiB
                ? jobsTr("%1 of %2 GiB").arg(g.memUsedMiB / 1024, 0, 'f', 1).arg(*g.memTotalMiB / 1024, 0, 'f', 1)
                : jobsTr("%1 GiB").arg(g.memUsedMiB / 1024, 0, 'f', 1);
        lines << jobsTr("GPU %1: %2 % · %3")
                     .arg(g.key)
                     .arg(std::isnan(g.utilPercent) ? 0 : g.utilPercent, 0, 'f', 0)
                     .arg(mem);
    }
    if (const QString t = throughput(*v); !t.isEmpty())
        lines << jobsTr("Throughput: %1 (%2)").arg(t, v->throughputName);
    return lines.join(u'\n');
}

void JobsRowText::filter(JobsTree &tree, const QString &needle)
{
    if (needle.isEmpty())
        return;
    JobsTree kept;
    kept.hiddenCount = tree.hiddenCount;
    for (const JobsTree::Top &t : tree.top) {
        if (t.study < 0) {
            JobsRow &run = tree.loose[size_t(t.run)];
            if (!runHolds(run, needle))
                continue;
            kept.loose.push_back(std::move(run));
            kept.top.push_back({-1, int(kept.loose.size() - 1)});
            continue;
        }
        JobsStudyRow &study = tree.studies[size_t(t.study)];
        if (!study.study.name.contains(needle, Qt::CaseInsensitive)) {
            std::erase_if(study.runs, [&](const JobsRow &r) { return !runHolds(r, needle); });
            if (study.runs.empty() && !studyHolds(study, needle))
                continue;
        }
        kept.studies.push_back(std::move(study));
        kept.top.push_back({int(kept.studies.size() - 1), -1});
    }
    tree = std::move(kept);
}

}   // namespace scalelab
