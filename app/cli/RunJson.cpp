// SPDX-License-Identifier: GPL-3.0-or-later
// The runs as `--json` prints them (submit, study, status, cancel, fetch, runs).
#include "app/cli/RunJson.h"

#include "core/analysis/PendingRunText.h"
#include "core/store/RunStore.h"

#include <QRegularExpression>

namespace scalelab {

using Json = nlohmann::ordered_json;

// The job name Slurm was given: the #SBATCH line of the script as uploaded.
QString jobNameOf(const RunRecord &r)
{
    static const QRegularExpression line(QStringLiteral("^#SBATCH\\s+(?:--job-name[= ]|-J\\s*)(\\S+)"),
                                         QRegularExpression::MultilineOption);
    return line.match(r.script).captured(1);
}

Json runJson(const RunRecord &r)
{
    auto str = [](const QString &q) { return q.toStdString(); };
    return Json{{"id", r.id},
                {"study", r.studyId},
                {"cluster", str(r.clusterAlias)},
                {"profile", str(r.profile)},
                {"jobId", str(r.jobId)},
                {"jobName", str(jobNameOf(r))},
                {"state", str(SlurmJobState::id(r.state))},
                {"reason", str(r.reason)},
                {"submitState", str(submitStateId(r.submitState))},
                {"gpus", r.gpus},
                {"nodes", r.nodes},
                {"rejection", str(r.rejection)},
                {"expectedStart", str(r.expectedStart)}};
}

Json pendingJson(const RunRecord &r, const QList<QueueWaitMedian> &medians)
{
    const PendingRunInfo p = PendingRunText::of(r, medians);
    if (!p.pending)
        return nullptr;
    auto str = [](const QString &q) { return q.toStdString(); };
    Json j{{"reason", str(p.reason)},
           {"words", str(p.words)},
           {"advice", str(p.advice)},
           {"blocked", p.blocked},
           {"expectedStart", str(p.expectedStart)},
           {"text", str(p.text())}};
    j["medianPastWaitSeconds"] = p.pastWait ? Json(p.pastWait->medianSeconds) : Json(nullptr);
    j["pastWaitJobs"] = p.pastWait ? p.pastWait->jobs : 0;
    return j;
}

namespace {

// The project folder a run was sent with: its snapshot id, file count, git state.
Json projectJson(const ProjectSnapshot &s)
{
    Json p{{"snapshotId", s.id.toStdString()},
           {"folder", s.folder.toStdString()},
           {"remoteFolder", s.remoteFolder.toStdString()},
           {"files", s.manifest.files.size()},
           {"bytes", s.manifest.totalBytes()}};
    if (!s.gitCommit.isEmpty()) {
        p["gitCommit"] = s.gitCommit.toStdString();
        p["gitDirty"] = s.gitDirty.value_or(false);
    }
    return p;
}

}   // namespace

// With --json the human lines go to stderr and the command prints one
// document at the end; a run given to it by id is read back from the store.
Json storedRunsJson(RunStore &store, const QList<qint64> &ids)
{
    Json arr = Json::array();
    for (qint64 id : ids)
        if (const auto r = store.run(id); r.ok()) {
            Json run = runJson(*r);
            if (const auto s = store.runSnapshot(id); s.ok() && s->has_value())
                run["project"] = projectJson(**s);
            arr.push_back(run);
        }
    return arr;
}

Json accountingJson(RunStore &store, qint64 runId)
{
    const auto acct = store.accounting(runId);
    if (!acct.ok() || !acct.value())
        return nullptr;
    const SacctRecord &a = *acct.value();
    auto str = [](const QString &q) { return q.toStdString(); };
    return Json{{"jobId", str(a.jobId)},       {"state", str(a.stateText)},     {"exitCode", str(a.exitCode)},
                {"submit", str(a.submit)},     {"start", str(a.start)},         {"end", str(a.end)},
                {"elapsed", str(a.elapsed)},   {"allocTres", str(a.allocTres)}, {"maxRss", str(a.maxRss)},
                {"nodeList", str(a.nodeList)}, {"reason", str(a.reason)},       {"totalCpu", str(a.totalCpu)},
                {"allocCpus", a.allocCpus}};
}

}   // namespace scalelab
