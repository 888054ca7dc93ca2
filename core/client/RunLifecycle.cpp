// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/client/RunLifecycle.h"

#include "core/ingest/FailureCause.h"

#include "core/base/Logging.h"
#include "core/client/RunDraft.h"
#include "core/client/SlurmClient.h"
#include "core/compose/SbatchRenderer.h"
#include "core/model/JobSpecJson.h"
#include "core/model/SpecFields.h"
#include "core/store/RunStore.h"

#include <QDateTime>

namespace scalelab {

namespace {

// Outcomes are logged by kind and job id: their messages can quote Slurm's
// text or remote paths, which the log leaves out.
QString kindName(SubmitOutcome::Kind k)
{
    switch (k) {
    case SubmitOutcome::Kind::Submitted:
        return QStringLiteral("submitted");
    case SubmitOutcome::Kind::Rejected:
        return QStringLiteral("rejected by Slurm");
    case SubmitOutcome::Kind::Unknown:
        return QStringLiteral("outcome unknown (reconcile pending)");
    case SubmitOutcome::Kind::NotSent:
        return QStringLiteral("not sent");
    case SubmitOutcome::Kind::Refused:
        return QStringLiteral("refused by ScaleLab");
    }
    return {};
}

QString kindName(ReconcileOutcome::Kind k)
{
    switch (k) {
    case ReconcileOutcome::Kind::Found:
        return QStringLiteral("job found");
    case ReconcileOutcome::Kind::NotSubmitted:
        return QStringLiteral("never reached Slurm");
    case ReconcileOutcome::Kind::StillUnknown:
        return QStringLiteral("still unknown");
    case ReconcileOutcome::Kind::NothingToDo:
        return QStringLiteral("nothing to do");
    }
    return {};
}

void logSubmit(const QString &alias, qint64 runId, const SubmitOutcome &o)
{
    qCInfo(lcSlurm).noquote() << QStringLiteral("%1: run %2 %3%4")
                                     .arg(alias)
                                     .arg(runId)
                                     .arg(kindName(o.kind),
                                          o.jobId.isEmpty() ? QString() : QStringLiteral(", job %1").arg(o.jobId));
}

Diagnostic projectError(const QString &field, const QString &message)
{
    return Diagnostic{Severity::Error, QStringLiteral("project-invalid"), field, 0, 0, message, {}};
}

// A project folder needs its snapshot, a remote folder ScaleLab can send, and
// no file in the place of the run folder's own.
Diagnostics projectProblems(const SubmitRequest &r, const QString &who)
{
    Diagnostics out;
    if (r.spec.project.folder.isEmpty())
        return out;
    const QString remote = r.snapshot ? r.snapshot->remoteFolder : r.spec.project.remoteFolder;
    if (!remote.trimmed().isEmpty())
        if (const auto root = SlurmClient::resolveRemoteFolder(remote, QStringLiteral("/home/h")); !root)
            out << projectError(QLatin1String(SpecField::projectRemoteFolder), who + root.error().message);
    if (!r.snapshot)
        return out;   // taken before storeBatch, which requires it
    for (const ProjectFile &f : r.snapshot->manifest.files)
        if (SlurmClient::isReservedRunFileName(f.path))
            out << projectError(QLatin1String(SpecField::projectFolder),
                                who
                                    + QStringLiteral("%1/%2 would take the place of ScaleLab's own file in the run "
                                                     "folder; rename it or name it in %1/.scalelabignore")
                                          .arg(r.snapshot->folder, f.path));
    return out;
}

}   // namespace

bool ReconcileReport::changed() const
{
    for (const ReconciledRun &r : runs)
        if (r.outcome.kind == ReconcileOutcome::Kind::Found || r.resubmit)
            return true;
    return false;
}

RunLifecycle::RunLifecycle(SlurmClient &client, RunStore &store)
    : m_client(client)
    , m_store(store)
{}

Result<ProjectSnapshot> RunLifecycle::snapshotProject(const JobSpec &spec, const ClusterProfile &profile,
                                                      const SnapshotLimits &limits)
{
    Result<ProjectSnapshot> s = ProjectSnapshotter::take(spec.project.folder, limits);
    if (s)
        s->remoteFolder = spec.project.remoteFolder.trimmed().isEmpty() ? profile.remoteProjectFolder
                                                                        : spec.project.remoteFolder.trimmed();
    return s;
}

Diagnostics RunLifecycle::validateBatch(const QList<SubmitRequest> &requests)
{
    Diagnostics out;
    if (requests.isEmpty())
        out << Diagnostic{
            Severity::Error, QStringLiteral("empty-batch"), {}, 0, 0, QStringLiteral("nothing to submit"), {}};
    for (const SubmitRequest &r : requests) {
        const QString who = QStringLiteral("%1 GPU(s): ").arg(r.spec.gpus);
        if (!r.profile) {
            out << Diagnostic{Severity::Error,
                              QStringLiteral("unknown-profile"),
                              QStringLiteral("profile"),
                              0,
                              0,
                              who
                                  + QStringLiteral("unknown cluster profile \"%1\"; choose one of the loaded profiles")
                                        .arg(r.spec.profile),
                              {}};
            continue;
        }
        out << projectProblems(r, who);
        for (Diagnostic d : renderAndValidate(r.spec, *r.profile).diagnostics) {
            if (d.severity != Severity::Error)
                continue;
            d.message = who + d.message;
            out << d;
        }
    }
    return out;
}

Result<QList<RunRecord>> RunLifecycle::storeBatch(RunStore &store, const QList<SubmitRequest> &requests,
                                                  const QString &studyName)
{
    if (hasErrors(validateBatch(requests)))
        return fail(ErrorCode::InvalidValue, QStringLiteral("the batch has errors; nothing was stored"));
    for (const SubmitRequest &r : requests)
        if (!r.spec.project.folder.isEmpty() && !r.snapshot)
            return fail(ErrorCode::InvalidValue,
                        QStringLiteral("no snapshot of the project folder %1 was taken; nothing was stored")
                            .arg(r.spec.project.folder));
    QList<RunRecord> drafts;
    QList<std::optional<ProjectSnapshot>> snapshots;
    for (const SubmitRequest &r : requests) {
        drafts << draftRun(r.spec, *r.profile, r.alias);
        drafts.last().specFile = r.specFile;
        snapshots << r.snapshot;
    }
    std::optional<StudyRecord> study;
    if (!studyName.trimmed().isEmpty()) {
        study = StudyRecord{};
        study->name = studyName.trimmed();
        study->created = QDateTime::currentDateTimeUtc();
        study->specTemplateJson = jobSpecToJson(requests.front().spec);
    }
    return store.createRuns(drafts, study, snapshots);
}

void RunLifecycle::setSyncProgress(ProjectSync::Progress progress)
{
    m_client.setSyncProgress(std::move(progress));
}

QList<SentRun> RunLifecycle::sendBatch(const QList<qint64> &runIds, bool chained)
{
    QList<SentRun> out;
    QString previous;   // the last job sent, when chained
    for (qint64 id : runIds) {
        out << SentRun{id, m_client.submit(id, chained ? previous : QString())};
        logSubmit(m_client.clusterAlias(), id, out.last().outcome);
        if (chained && out.last().outcome.kind == SubmitOutcome::Kind::Submitted) {
            previous = out.last().outcome.jobId;
            // A run of segments ends with its last segment: the next run waits for that one.
            if (const auto segments = m_store.segments(id); segments && !segments->isEmpty())
                previous = segments->last().jobId;
        }
    }
    return out;
}

ReconcileReport RunLifecycle::reconcileUnresolved(qint64 newestRunId)
{
    ReconcileReport report;
    const auto unresolved = m_store.unresolvedRuns(m_client.clusterAlias());
    if (!unresolved)
        return report;
    for (const RunRecord &r : *unresolved) {
        if (r.id > newestRunId)
            continue;   // a run stored after the caller looked: its own send task handles it
        ReconciledRun item{r.id, m_client.reconcile(r.id), std::nullopt};
        qCInfo(lcSlurm).noquote() << QStringLiteral("%1: reconcile run %2: %3%4")
                                         .arg(m_client.clusterAlias())
                                         .arg(r.id)
                                         .arg(kindName(item.outcome.kind),
                                              item.outcome.jobId.isEmpty()
                                                  ? QString()
                                                  : QStringLiteral(", job %1").arg(item.outcome.jobId));
        // The researcher asked for this run and no job exists: send it now, once.
        if (item.outcome.kind == ReconcileOutcome::Kind::NotSubmitted) {
            item.resubmit = m_client.submit(r.id);
            logSubmit(m_client.clusterAlias(), r.id, *item.resubmit);
        }
        report.runs << item;
    }
    return report;
}

PollCycleReport RunLifecycle::pollCycle(const PollCycleOptions &options)
{
    PollCycleReport rep;
    const QString alias = m_client.clusterAlias();
    // The watched run's state before polling: a run that ends in this poll
    // still gets its last output bytes through fetch below.
    std::optional<RunRecord> before;
    if (options.watchedRun > 0)
        if (auto r = m_store.run(options.watchedRun); r)
            before = *r;
    rep.poll = m_client.pollOnce();
    if (rep.poll.activeRuns > 0 || !rep.poll.ok())
        qCInfo(lcSlurm).noquote() << QStringLiteral("%1: poll of %2 active run(s): %3 squeue, %4 sacct, %5 change(s)%6")
                                         .arg(alias)
                                         .arg(rep.poll.activeRuns)
                                         .arg(rep.poll.squeueCalls)
                                         .arg(rep.poll.sacctCalls)
                                         .arg(rep.poll.updates.size())
                                         .arg(rep.poll.controllerDown ? QStringLiteral(", controller down")
                                              : rep.poll.ok()         ? QString()
                                                                      : QStringLiteral(", failed"));
    for (const RunStateUpdate &u : rep.poll.updates) {
        if (!u.final)
            continue;
        rep.finalRuns << u.runId;
        // Metrics are stored in the same cycle that saw the run finish, so
        // Results and `scalelab runs --json` have them without another step.
        const FetchReport f = fetchAndIngest(u.runId, options.fetchBytes);
        rep.fetchErrors << f.fetch.errors;
        if (!f.ingest.error.isEmpty())
            rep.ingestErrors << QStringLiteral("run %1: %2").arg(u.runId).arg(f.ingest.error);
        rep.metricsStored += int(f.ingest.written.size());
    }
    // Runs that finished in an earlier cycle (or session) without metrics.
    const MissedIngestReport late = ingestMissed(m_store, alias, rep.finalRuns);
    rep.lateRuns = late.runs;
    rep.ingestErrors << late.errors;
    rep.metricsStored += late.metricsStored;
    const bool liveTail = liveStep(options, rep);
    if (before && before->clusterAlias == alias && before->hasJob() && !before->isTerminal()
        && !rep.finalRuns.contains(options.watchedRun) && !liveTail) {
        const TailResult t = m_client.tailOutput(options.watchedRun, options.tailBytes);
        rep.tailRun = options.watchedRun;
        rep.tailChanged = !t.data.isEmpty();
    }
    const auto active = m_store.activeRuns(alias);
    const auto unresolved = m_store.unresolvedRuns(alias);
    rep.moreActive = !active || !active->isEmpty();
    if (unresolved)
        for (const RunRecord &r : *unresolved)
            rep.moreActive = rep.moreActive || r.submitState != SubmitState::Intent;
    return rep;
}

bool RunLifecycle::liveStep(const PollCycleOptions &options, PollCycleReport &rep)
{
    if (!options.live)
        return false;
    const auto active = m_store.activeRuns(m_client.clusterAlias());
    if (!active) {
        rep.fetchErrors << active.error().message;
        return false;
    }
    const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    rep.live = options.live->cycle(m_client.executor(), m_store, *active, options.alerts, now);
    rep.fetchErrors << rep.live.errors;
    for (const AlertRecord &a : rep.live.newAlerts)
        qCInfo(lcSlurm).noquote() << QStringLiteral("%1: run %2: alert %3: %4")
                                         .arg(m_client.clusterAlias())
                                         .arg(a.runId)
                                         .arg(a.rule, a.evidence);
    if (options.watchedRun <= 0 || !rep.live.runs.contains(options.watchedRun))
        return false;
    rep.tailRun = options.watchedRun;
    rep.tailChanged = rep.live.outputGrew.contains(options.watchedRun);
    return true;
}

FetchReport RunLifecycle::fetchAndIngest(qint64 runId, qint64 maxBytesPerFile)
{
    FetchReport out;
    out.fetch = m_client.fetch(runId, maxBytesPerFile);
    out.ingest = ingestAndExplain(m_store, runId);
    qCInfo(lcIngest).noquote() << QStringLiteral("run %1: %2 file(s) fetched, %3 metric(s) stored%4")
                                      .arg(runId)
                                      .arg(out.fetch.files.size())
                                      .arg(out.ingest.written.size())
                                      .arg(out.ingest.error.isEmpty() ? QString() : QStringLiteral(", ingest failed"));
    return out;
}

IngestResult RunLifecycle::ingestAndExplain(RunStore &store, qint64 runId)
{
    IngestResult out = IngestService::ingestRun(store, runId);
    // Why a run failed, found once here so views need not read its files.
    if (const auto run = store.run(runId); run && run->isTerminal() && run->state != JobState::Completed)
        recordFailureLine(store, runId,
                          store.runFilesDirectory(runId) + QLatin1Char('/') + SlurmClient::outputFileName(run->jobId));
    return out;
}

MissedIngestReport RunLifecycle::ingestMissed(RunStore &store, const QString &clusterAlias,
                                              const QList<qint64> &handled)
{
    MissedIngestReport report;
    const auto due = store.runsAwaitingIngest(clusterAlias);
    if (!due) {
        report.errors << due.errorText();
        return report;
    }
    for (const RunRecord &r : *due) {
        if (handled.contains(r.id))
            continue;
        const IngestResult in = ingestAndExplain(store, r.id);
        report.runs << r.id;
        report.metricsStored += int(in.written.size());
        if (!in.error.isEmpty())
            report.errors << QStringLiteral("run %1: %2").arg(r.id).arg(in.error);
        qCInfo(lcIngest).noquote() << QStringLiteral("run %1: finished earlier, ingested now: %2 metric(s) stored%3")
                                          .arg(r.id)
                                          .arg(in.written.size())
                                          .arg(in.error.isEmpty() ? QString() : QStringLiteral(", ingest failed"));
    }
    return report;
}

Result<QString> RunLifecycle::cancel(qint64 runId)
{
    Result<QString> r = m_client.cancel(runId);
    qCInfo(lcSlurm).noquote() << QStringLiteral("%1: cancel run %2: %3")
                                     .arg(m_client.clusterAlias())
                                     .arg(runId)
                                     .arg(r ? QStringLiteral("requested") : QStringLiteral("failed"));
    return r;
}

TailResult RunLifecycle::tail(qint64 runId, qint64 maxBytes)
{
    return m_client.tailOutput(runId, maxBytes);
}

}   // namespace scalelab
