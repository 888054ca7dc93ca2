// SPDX-License-Identifier: GPL-3.0-or-later
// SlurmClient: version, submission, reconciliation, --test-only, cancel.
// Polling is JobPoller's, file transfer RunFileFetcher's, a run of segments'
// chained submit and cancel SegmentChain's.
#include "core/client/SlurmClient.h"

#include "core/client/SegmentChain.h"

#include "core/base/RemoteValidation.h"
#include "core/compose/SegmentScript.h"
#include "core/model/JobSpecJson.h"
#include "core/slurm/SacctParser.h"
#include "core/base/ShellQuote.h"
#include "core/slurm/SqueueParser.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>

namespace scalelab {

namespace {
constexpr int kSbatchTimeoutMs = 120000;

QString sbatchErrorText(const QByteArray &err)
{
    // Slurm's own lines, verbatim but printable.
    return RemoteValidation::sanitize(err, 2000);
}
}   // namespace

SlurmClient::SlurmClient(RemoteExecutor &executor, RunStore &store, QString clusterAlias)
    : m_exec(executor)
    , m_store(store)
    , m_alias(std::move(clusterAlias))
    , m_poller(executor, store, m_alias)
    , m_files(executor, store)
{}

QString SlurmClient::runsRoot()
{
    return QStringLiteral(".scalelab/runs");
}

QString SlurmClient::scriptFileName()
{
    return QStringLiteral("job.sbatch");
}

QString SlurmClient::outputFileName(const QString &jobId)
{
    return QStringLiteral("scalelab-%1.out").arg(jobId);
}

QString SlurmClient::submitShellBody(const QString &remoteDir, const QString &token, const QString &afterJobId,
                                     int segments, int jobs)
{
    // A dependency only on a plain, validated job id: nothing else reaches the shell.
    const QString dependency =
        RemoteValidation::isJobId(afterJobId) ? QStringLiteral(" --dependency=afterany:%1").arg(afterJobId) : QString();
    // One line (tcsh breaks on multi-line quoted words), no '!' (csh history)
    // and no backslashes (fish). jobid.tmp is created by the redirection
    // BEFORE sbatch starts: its presence tells reconcile() sbatch was tried.
    const QString dir = ShellQuote::quote(remoteDir);
    if (segments < 1)
        return QStringLiteral("cd %1 || exit 97; sbatch --parsable --comment=%2 --chdir=%1%4 %3 > jobid.tmp; rc=$?; "
                              "if [ $rc -eq 0 ]; then mv -f jobid.tmp jobid && cat jobid; else exit $rc; fi")
            .arg(dir, token, scriptFileName(), dependency);
    return SegmentChain::submitBody(dir, token, dependency, scriptFileName(), segments, jobs);
}

QStringList SlurmClient::queryArgv(const QStringList &argv)
{
    static const char *const shaping[] = {
        "SQUEUE_FORMAT", "SQUEUE_FORMAT2",   "SQUEUE_SORT", "SQUEUE_STATES",  "SQUEUE_ALL",   "SQUEUE_ARRAY",
        "SQUEUE_NAMES",  "SQUEUE_PARTITION", "SQUEUE_QOS",  "SQUEUE_ACCOUNT", "SQUEUE_USERS", "SQUEUE_LICENSES",
        "SACCT_FORMAT",  "SACCT_FEDERATION", "SACCT_LOCAL", "SINFO_FORMAT",   "SINFO_SORT",   "SINFO_PARTITION"};
    QStringList out{QStringLiteral("env")};
    for (const char *v : shaping)
        out << QStringLiteral("-u") << QString::fromLatin1(v);
    // "standard" = ISO 8601 without the time zone, what the parsers read.
    out << QStringLiteral("SLURM_TIME_FORMAT=standard");
    return out + argv;
}

QString SlurmClient::reconcileShellBody(const QString &remoteDir)
{
    // Prints a status word, then the id file's content. "tmp-recent": sbatch
    // was started less than 5 minutes ago and may still be waiting for slurmctld.
    return QStringLiteral("cd %1 2>/dev/null || { echo nodir; exit 0; }; "
                          "if [ -s jobid ]; then echo jobid; head -c 2000 jobid; "
                          "elif [ -e jobid.tmp ]; then if [ -n \"$(find jobid.tmp -mmin -5)\" ]; "
                          "then echo tmp-recent; else echo tmp; fi; head -c 2000 jobid.tmp; "
                          "elif [ -e %2 ]; then echo uploaded; else echo empty; fi")
        .arg(ShellQuote::quote(remoteDir), scriptFileName());
}

Result<QString> SlurmClient::detectVersion()
{
    if (!m_version.isEmpty())
        return m_version;
    const RemoteResult r = m_exec.run({QStringLiteral("sbatch"), QStringLiteral("--version")}, kQueryTimeoutMs);
    const QString text = RemoteValidation::sanitize(r.out, 200);
    if (!r.transportOk())
        return fail(ErrorCode::Transport, r.transportError);
    if (!r.ok() || !text.startsWith(QLatin1String("slurm")))
        return fail(ErrorCode::RemoteFailed, QStringLiteral("sbatch --version failed (exit %1): %2")
                                                 .arg(r.exitCode)
                                                 .arg(RemoteValidation::sanitize(r.err + r.out, 400)));
    // "slurm 22.05.8" / "slurm-wlm 22.05.8"
    m_version = text.section(QLatin1Char(' '), 1, 1).trimmed();
    return m_version;
}

Result<QString> SlurmClient::remoteHome()
{
    if (!m_home.isEmpty())
        return m_home;
    const QString home = m_exec.homeDirectory();
    if (home.isEmpty())
        return fail(ErrorCode::Transport, QStringLiteral("the remote home directory is unknown (connection lost?)"));
    QString h = home;
    while (h.size() > 1 && h.endsWith(QLatin1Char('/')))
        h.chop(1);
    if (!RemoteValidation::isSafePath(h))
        return fail(ErrorCode::InvalidValue,
                    QStringLiteral("the remote home directory \"%1\" has characters ScaleLab does not send in "
                                   "commands (allowed: letters, digits, . _ - + /)")
                        .arg(RemoteValidation::sanitize(home.toUtf8(), 200)));
    m_home = h;
    return m_home;
}

Result<QString> SlurmClient::resolveRemoteFolder(const QString &folder, const QString &home)
{
    QString f = folder.trimmed();
    for (const QString &prefix : {QStringLiteral("~"), QStringLiteral("$HOME"), QStringLiteral("${HOME}")}) {
        if (f == prefix)
            f = home;
        else if (f.startsWith(prefix + QLatin1Char('/')))
            f = home + f.mid(prefix.size());
    }
    if (!f.startsWith(QLatin1Char('/')))
        f = home + QLatin1Char('/') + f;
    while (f.size() > 1 && f.endsWith(QLatin1Char('/')))
        f.chop(1);
    const QStringList parts = f.split(QLatin1Char('/'));
    if (!RemoteValidation::isSafePath(f) || f == QLatin1String("/") || parts.contains(QStringLiteral(".."))
        || parts.contains(QStringLiteral(".")))
        return fail(ErrorCode::InvalidValue,
                    QStringLiteral("the remote folder \"%1\" (project.remoteFolder, or the profile's "
                                   "remoteProjectFolder) is not a folder ScaleLab sends in commands: use an absolute "
                                   "path, ~/x, $HOME/x or a path under the home, of letters, digits and . _ - + / "
                                   "(no other variable expands)")
                        .arg(RemoteValidation::sanitize(folder.toUtf8(), 200)));
    return f;
}

bool SlurmClient::isReservedRunFileName(const QString &projectPath)
{
    if (projectPath.contains(QLatin1Char('/')))
        return false;
    return projectPath == scriptFileName() || projectPath == QLatin1String("jobid")
           || projectPath == QLatin1String("jobid.tmp") || projectPath.startsWith(QLatin1String("scalelab-"))
           || projectPath == QLatin1String(".scalelab-snapshot.sha256");
}

Result<QString> SlurmClient::remoteDirFor(const RunRecord &run)
{
    if (!run.remoteDir.isEmpty()) {
        if (!RemoteValidation::isSafePath(run.remoteDir))
            return fail(ErrorCode::InvalidValue,
                        QStringLiteral("stored remote directory \"%1\" has characters ScaleLab does not send in "
                                       "commands")
                            .arg(run.remoteDir));
        return run.remoteDir;
    }
    const Result<QString> home = remoteHome();
    if (!home)
        return home;
    // A run with a project folder: its run folder under the remote folder.
    const auto snapshot = run.id > 0 ? m_store.runSnapshot(run.id) : Result<std::optional<ProjectSnapshot>>();
    if (!snapshot)
        return fail(snapshot.error());
    if (snapshot->has_value()) {
        const Result<QString> root = resolveRemoteFolder((*snapshot)->remoteFolder, *home);
        if (!root)
            return root;
        return *root + QStringLiteral("/runs/") + run.token;
    }
    return *home + QLatin1Char('/') + runsRoot() + QLatin1Char('/') + run.token;
}

namespace {

SubmitOutcome refused(const QString &message)
{
    return SubmitOutcome{SubmitOutcome::Kind::Refused, {}, message, false};
}

SubmitOutcome notSent(const QString &message)
{
    return SubmitOutcome{SubmitOutcome::Kind::NotSent, {}, message, false};
}

// The job ids of sbatch's reply or of the jobid file: one per line ("id;cluster"), in order.
QStringList jobIdLines(const QStringList &lines)
{
    QStringList ids;
    for (const QString &line : lines) {
        const QString id = line.trimmed().section(QLatin1Char(';'), 0, 0);
        if (!RemoteValidation::isJobId(id))
            break;
        ids << id;
    }
    return ids;
}

}   // namespace

// The job id(s) of a submission: a run of segments keeps them all, in order.
Result<void> SlurmClient::storeJobIds(qint64 runId, const QStringList &ids, int planned, SubmitState how)
{
    if (planned < 1)
        return m_store.markSubmitted(runId, ids.first(), how);
    return m_store.markSubmittedSegments(runId, ids, how);
}

SubmitOutcome SlurmClient::submit(qint64 runId, const QString &afterJobId)
{
    const auto stored = m_store.run(runId);
    if (!stored)
        return refused(stored.error().message);
    const RunRecord run = *stored;
    if (auto problem = sendableProblem(runId, run))
        return *problem;
    const Result<QString> dirResult = remoteDirFor(run);
    if (!dirResult)
        return notSent(dirResult.error().message);
    const QString dir = *dirResult;
    if (auto problem = uploadBeforeSbatch(runId, run, dir))
        return *problem;
    // (c) From here sbatch may run: record that BEFORE sending, so a crash
    // leaves "unknown" (reconcile) and never a silent second submission.
    if (auto e = m_store.setSubmitState(runId, SubmitState::Unknown, QStringLiteral("sbatch sent, no reply yet")); !e)
        return refused(e.error().message);
    m_exec.reached(SubmitStep::UnknownStored);
    const int jobs = SegmentChain::firstJobs(run);
    const RemoteResult r = m_exec.run({QStringLiteral("sh"), QStringLiteral("-c"),
                                       submitShellBody(dir, run.token, afterJobId, SegmentChain::planned(run), jobs)},
                                      kSbatchTimeoutMs);
    m_exec.reached(SubmitStep::SbatchReturned);
    return recordSbatchReply(runId, r, jobs);
}

// Why a run cannot be sent as it is stored: already sent, rejected, another cluster's, no script.
std::optional<SubmitOutcome> SlurmClient::sendableProblem(qint64 runId, const RunRecord &run) const
{
    switch (run.submitState) {
    case SubmitState::Intent:
    case SubmitState::Uploaded:
        break;
    case SubmitState::Submitted:
    case SubmitState::Reconciled:
        return refused(QStringLiteral("run %1 was already submitted as job %2").arg(runId).arg(run.jobId));
    case SubmitState::Rejected:
        return refused(
            QStringLiteral("run %1 was rejected by Slurm; create a new run with a corrected spec").arg(runId));
    case SubmitState::Unknown:
        return refused(QStringLiteral("run %1 may already have been submitted; reconcile it first").arg(runId));
    }
    if (!run.clusterAlias.isEmpty() && run.clusterAlias != m_alias)
        return refused(
            QStringLiteral("run %1 belongs to cluster %2, not %3").arg(runId).arg(run.clusterAlias, m_alias));
    if (!RemoteValidation::isRunToken(run.token))
        return refused(QStringLiteral("run %1 has an invalid token \"%2\"").arg(runId).arg(run.token));
    if (run.script.trimmed().isEmpty())
        return refused(QStringLiteral("run %1 has no rendered script").arg(runId));
    return std::nullopt;
}

// Everything before sbatch: nothing here can create a job. Returns the outcome when it stops.
std::optional<SubmitOutcome> SlurmClient::uploadBeforeSbatch(qint64 runId, const RunRecord &run, const QString &dir)
{
    // (a) Store writes before anything can create a job: a failure stops here
    // with nothing sent, and the run stays as it was (intent/uploaded).
    if (run.remoteDir != dir)
        if (auto e = m_store.setRemoteDir(runId, dir); !e)
            return refused(e.error().message);
    m_exec.reached(SubmitStep::DirectoryStored);
    // (b) directory + script. Nothing here can create a job, so failures are NotSent.
    if (auto e = m_exec.mkdirs(dir); !e)
        return notSent(QStringLiteral("creating %1 failed: %2").arg(dir, e.error().message));
    // The project's snapshot, sent and verified in the run folder before the
    // script: a job can only start on a whole snapshot.
    if (auto problem = sendProject(runId, run, dir))
        return *problem;
    if (auto e = m_exec.upload(dir + QLatin1Char('/') + scriptFileName(), run.script.toUtf8(), 0644); !e)
        return notSent(QStringLiteral("uploading the job script failed: %1").arg(e.error().message));
    if (auto e = m_store.setSubmitState(runId, SubmitState::Uploaded); !e)
        return refused(e.error().message);
    m_exec.reached(SubmitStep::ScriptUploaded);
    // Which Slurm will run it: probed once per client (per connection) and
    // kept with the run before sending, so a failed write sends nothing.
    // Not known (an odd sbatch, a brief outage): the run is sent without it.
    if (const Result<QString> slurmVersion = detectVersion(); slurmVersion)
        if (auto e = m_store.setSlurmVersion(runId, *slurmVersion); !e)
            return refused(e.error().message);
    // A run withdrawn while its script was uploading stays unsent.
    if (const auto again = m_store.run(runId); again.ok() && again.value().submitState == SubmitState::Rejected)
        return refused(QStringLiteral("run %1 was withdrawn: %2").arg(runId).arg(again.value().rejection));
    return std::nullopt;
}

// The run's project snapshot into its run folder (nothing for a run without
// one). Nothing here can create a job: failures are NotSent, retried whole.
std::optional<SubmitOutcome> SlurmClient::sendProject(qint64 runId, const RunRecord &run, const QString &dir)
{
    m_lastSync.reset();
    const auto snapshot = m_store.runSnapshot(runId);
    if (!snapshot)
        return refused(snapshot.error().message);
    if (!snapshot->has_value()) {
        const JobSpecParseResult spec = parseJobSpec(run.specJson);
        if (!spec.spec || spec.spec->project.folder.isEmpty())
            return std::nullopt;
        // Never sendable: withdrawn, so reconcile does not try it again.
        const QString why = QStringLiteral("run %1 names a project folder but no snapshot of it is stored; submit "
                                           "the spec again")
                                .arg(runId);
        (void)m_store.setSubmitState(runId, SubmitState::Rejected, why);
        return refused(why);
    }
    const QString tail = QStringLiteral("/runs/") + run.token;
    if (!dir.endsWith(tail))
        return refused(
            QStringLiteral("run %1's folder %2 is not a run folder under a remote folder").arg(runId).arg(dir));
    ProjectSync sync(m_exec);
    const auto sent = sync.send(**snapshot, dir.left(dir.size() - tail.size()), dir, m_syncProgress);
    if (!sent)
        return notSent(QStringLiteral("sending the project folder failed: %1").arg(sent.error().message));
    m_lastSync = *sent;
    return std::nullopt;
}

// (d) After sbatch the stored state is "unknown". Each write below only
// narrows it; when one fails the run stays "unknown" and reconcile()
// resolves it from the remote jobid file, so the outcome is Unknown.
SubmitOutcome SlurmClient::recordSbatchReply(qint64 runId, const RemoteResult &r, int planned)
{
    using K = SubmitOutcome::Kind;
    auto unresolved = [&](const QString &what, const Error &e, const QString &jobId = {}) {
        return SubmitOutcome{
            K::Unknown, jobId,
            QStringLiteral("%1, but the store could not record it (%2); reconcile the run").arg(what, e.message),
            false};
    };
    // Every answer below is stored before it is returned.
    auto recorded = [&](SubmitOutcome o) {
        m_exec.reached(SubmitStep::OutcomeStored);
        return o;
    };
    if (!r.transportOk()) {
        const QString m =
            QStringLiteral("connection lost while sbatch ran (%1); reconcile the run").arg(r.transportError);
        if (auto e = m_store.setSubmitState(runId, SubmitState::Unknown, m); !e)
            return unresolved(QStringLiteral("connection lost while sbatch ran (%1)").arg(r.transportError), e.error());
        return recorded(SubmitOutcome{K::Unknown, {}, m, false});
    }
    if (r.exitCode == 0) {
        const QStringList ids = jobIdLines(QString::fromUtf8(r.out).trimmed().split(QLatin1Char('\n')));
        const QString jobId = ids.value(0);   // "id;cluster"
        if (!RemoteValidation::isJobId(jobId)) {
            const QString m =
                QStringLiteral("sbatch succeeded but printed \"%1\" instead of a job id; reconcile the run")
                    .arg(RemoteValidation::sanitize(r.out, 200));
            if (auto e = m_store.setSubmitState(runId, SubmitState::Unknown, m); !e)
                return unresolved(QStringLiteral("sbatch printed no job id"), e.error());
            return recorded(SubmitOutcome{K::Unknown, {}, m, false});
        }
        if (auto e = storeJobIds(runId, ids, planned, SubmitState::Submitted); !e)
            return unresolved(QStringLiteral("job %1 was submitted").arg(jobId), e.error(), jobId);
        // A chain cut short (sbatch refused a later segment) keeps the segments it has.
        const QString shortChain = planned > ids.size() ? QStringLiteral("only %1 of %2 segments were created: %3")
                                                              .arg(ids.size())
                                                              .arg(planned)
                                                              .arg(sbatchErrorText(r.err))
                                                        : QString();
        return recorded(SubmitOutcome{K::Submitted, jobId, shortChain, false});
    }
    const QString text = sbatchErrorText(r.err);
    if (r.err.contains("sbatch: error:")) {
        if (SqueueParser::isControllerDown(r.err)) {
            // sbatch reported failure itself: no job. Safe to submit again later.
            if (auto e = m_store.setSubmitState(runId, SubmitState::Uploaded, text); !e)
                return unresolved(QStringLiteral("the controller was down and no job was created"), e.error());
            return recorded(SubmitOutcome{K::NotSent, {}, text, true});
        }
        if (auto e = m_store.setSubmitState(runId, SubmitState::Rejected, text); !e)
            return unresolved(QStringLiteral("Slurm rejected the job (%1)").arg(text), e.error());
        return recorded(SubmitOutcome{K::Rejected, {}, text, false});
    }
    const QString m = QStringLiteral("the submit command failed (exit %1): %2; reconcile the run")
                          .arg(r.exitCode)
                          .arg(text.isEmpty() ? RemoteValidation::sanitize(r.out, 400) : text);
    if (auto e = m_store.setSubmitState(runId, SubmitState::Unknown, m); !e)
        return unresolved(QStringLiteral("the submit command failed (exit %1)").arg(r.exitCode), e.error());
    return recorded(SubmitOutcome{K::Unknown, {}, m, false});
}

ReconcileOutcome SlurmClient::reconcile(qint64 runId)
{
    using K = ReconcileOutcome::Kind;
    const auto stored = m_store.run(runId);
    if (!stored)
        return {K::StillUnknown, {}, stored.error().message};
    const RunRecord run = *stored;
    if (run.submitState != SubmitState::Intent && run.submitState != SubmitState::Uploaded
        && run.submitState != SubmitState::Unknown)
        return {K::NothingToDo, run.jobId,
                QStringLiteral("run %1 is %2").arg(runId).arg(submitStateId(run.submitState))};
    if (!RemoteValidation::isRunToken(run.token))
        return {K::StillUnknown, {}, QStringLiteral("run %1 has an invalid token").arg(runId)};
    const Result<QString> dirResult = remoteDirFor(run);
    if (!dirResult)
        return {K::StillUnknown, {}, dirResult.error().message};
    const QString dir = *dirResult;

    const RemoteResult r =
        m_exec.run({QStringLiteral("sh"), QStringLiteral("-c"), reconcileShellBody(dir)}, kQueryTimeoutMs);
    if (!r.ok())
        return {K::StillUnknown,
                {},
                r.transportOk()
                    ? QStringLiteral("reading %1 failed: %2").arg(dir, RemoteValidation::sanitize(r.err, 300))
                    : r.transportError};
    const QStringList lines = QString::fromUtf8(r.out).split(QLatin1Char('\n'));
    const QString status = lines.value(0).trimmed();
    const QStringList ids = jobIdLines(lines.mid(1));
    const QString idText = ids.value(0);

    if ((status == QLatin1String("jobid") || status.startsWith(QLatin1String("tmp")))
        && RemoteValidation::isJobId(idText)) {
        if (auto e = storeJobIds(runId, ids, SegmentChain::planned(run), SubmitState::Reconciled); !e)
            return {K::StillUnknown, idText, e.error().message};
        return {K::Found, idText, QStringLiteral("job %1 found in %2").arg(idText, dir)};
    }
    if (status == QLatin1String("nodir") || status == QLatin1String("empty") || status == QLatin1String("uploaded")) {
        // The wrapper creates jobid.tmp before sbatch starts; without it sbatch never ran.
        const SubmitState back = status == QLatin1String("uploaded") ? SubmitState::Uploaded : SubmitState::Intent;
        if (auto e = m_store.setSubmitState(runId, back); !e)
            return {K::StillUnknown, {}, e.error().message};
        return {K::NotSubmitted, {}, QStringLiteral("sbatch never ran for this run; it can be submitted")};
    }
    if (status == QLatin1String("tmp") || status == QLatin1String("tmp-recent"))
        return lookUpByToken(run, dir, status == QLatin1String("tmp-recent"));
    return {K::StillUnknown,
            {},
            QStringLiteral("unexpected reply while reconciling: %1").arg(RemoteValidation::sanitize(r.out, 200))};
}

ReconcileOutcome SlurmClient::lookUpByToken(const RunRecord &run, const QString &dir, bool attemptRecent)
{
    using K = ReconcileOutcome::Kind;
    auto matches = [&](const QString &comment, const QString &workDir) {
        return comment == run.token || workDir == dir;
    };
    // A run of segments has a job per segment, all with its token: each is kept, in chain (id) order.
    const int planned = SegmentChain::planned(run);
    auto found = [&](QStringList ids, JobState state, const QString &how) -> ReconcileOutcome {
        std::sort(ids.begin(), ids.end(),
                  [](const QString &a, const QString &b) { return a.toLongLong() < b.toLongLong(); });
        ids.removeDuplicates();
        const QString jobId = ids.first();
        if (auto e = storeJobIds(run.id, ids, planned, SubmitState::Reconciled); !e)
            return {K::StillUnknown, jobId, e.error().message};
        QString message = QStringLiteral("job %1 found by its token in %2").arg(jobId, how);
        // The job id is stored: the run is resolved. A failed state write only
        // delays the state until the next poll, which reads it again.
        if (planned < 1 && state != JobState::Unknown && state != JobState::Pending)
            if (auto e = m_store.updateState(run.id, state, {}); !e)
                message += QStringLiteral(" (its state %1 is not stored yet: %2)")
                               .arg(SlurmJobState::id(state), e.error().message);
        return {K::Found, jobId, message};
    };
    QStringList segmentJobs;

    const RemoteResult sq =
        m_exec.run(queryArgv({QStringLiteral("squeue"), QStringLiteral("--me"), QStringLiteral("--states=all"),
                              QStringLiteral("--noheader"), SqueueParser::formatArgument()}),
                   kQueryTimeoutMs);
    bool squeueSure = false;
    if (sq.transportOk()) {
        const auto parsed = SqueueParser().parse(sq.out, sq.err);
        squeueSure = sq.exitCode == 0 && !parsed.controllerDown;
        for (const auto &row : parsed.rows)
            if (matches(row.comment, row.workDir)) {
                if (planned < 1)
                    return found({row.jobId}, row.state, QStringLiteral("squeue"));
                segmentJobs << row.jobId;
            }
    }

    const qint64 ageSeconds = run.created.isValid() ? run.created.secsTo(QDateTime::currentDateTimeUtc()) : 0;
    const qint64 hours = std::max<qint64>(1, qint64(std::ceil(double(std::max<qint64>(0, ageSeconds)) / 3600.0)) + 1);
    QStringList sacctArgs{QStringLiteral("sacct"), QStringLiteral("-X"),
                          QStringLiteral("--starttime=now-%1hours").arg(hours)};
    sacctArgs << SacctParser::formatArguments();
    const RemoteResult sa = m_exec.run(queryArgv(sacctArgs), kQueryTimeoutMs);
    bool sacctSure = false;
    if (sa.ok()) {
        sacctSure = true;
        const auto parsed = SacctParser().parse(sa.out);
        for (const auto &rec : parsed.records)
            if (matches(rec.comment, rec.workDir)) {
                if (planned < 1)
                    return found({rec.jobId}, rec.state, QStringLiteral("sacct"));
                segmentJobs << rec.jobId;
            }
    }
    if (!segmentJobs.isEmpty())
        return found(segmentJobs, JobState::Unknown, QStringLiteral("squeue and sacct"));
    if (!squeueSure || !sacctSure)
        return {K::StillUnknown,
                {},
                QStringLiteral("sbatch was started but its job cannot be looked up now (%1); try again later")
                    .arg(!sq.transportOk()   ? sq.transportError
                         : !sa.transportOk() ? sa.transportError
                                             : QStringLiteral("controller or accounting unavailable"))};
    if (attemptRecent)
        return {K::StillUnknown,
                {},
                QStringLiteral("sbatch was started less than 5 minutes ago and may still be waiting; try again later")};
    if (auto e = m_store.setSubmitState(run.id, SubmitState::Uploaded,
                                        QStringLiteral("an earlier sbatch attempt left no job"));
        !e)
        return {K::StillUnknown, {}, e.error().message};
    return {K::NotSubmitted,
            {},
            QStringLiteral("sbatch was tried but no job carries this run's token; it can be submitted")};
}

TestOnlyResult SlurmClient::testOnly(const QString &script)
{
    TestOnlyResult result;
    RunRecord scratch;
    scratch.token = RunStore::newToken();
    // Only for its side effect of learning (and checking) the remote home.
    if (const Result<QString> runDir = remoteDirFor(scratch); !runDir) {
        result.transportError = runDir.error().message;
        return result;
    }
    // Beside the runs, never inside one.
    const QString dir = m_home + QStringLiteral("/.scalelab/test-only/") + scratch.token;
    if (auto e = m_exec.mkdirs(dir); !e) {
        result.transportError = QStringLiteral("creating %1 failed: %2").arg(dir, e.error().message);
        return result;
    }
    const QString path = dir + QLatin1Char('/') + scriptFileName();
    if (auto e = m_exec.upload(path, script.toUtf8(), 0644); !e) {
        result.transportError = QStringLiteral("uploading the script failed: %1").arg(e.error().message);
        return result;
    }
    const RemoteResult r =
        m_exec.run({QStringLiteral("sbatch"), QStringLiteral("--test-only"), QStringLiteral("--chdir=") + dir, path},
                   kSbatchTimeoutMs);
    result.exitCode = r.exitCode;
    result.transportError = r.transportError;
    result.verdict = RemoteValidation::sanitize(r.err.isEmpty() ? r.out : r.err, 2000);
    // Best effort: a leftover scratch dir holds no job and is never read again.
    m_exec.run({QStringLiteral("rm"), QStringLiteral("-rf"), QStringLiteral("--"), dir}, kQueryTimeoutMs);
    return result;
}

PollResult SlurmClient::pollOnce()
{
    return m_poller.pollOnce();
}

Result<QString> SlurmClient::cancel(qint64 runId)
{
    const auto stored = m_store.run(runId);
    if (!stored)
        return fail(stored.error());
    const RunRecord &run = *stored;
    if (run.submitState == SubmitState::Unknown)
        return fail(ErrorCode::WrongState,
                    QStringLiteral("run %1 may have a job whose id is not known yet; reconcile it first").arg(runId));
    if (!RemoteValidation::isJobId(run.jobId))
        return fail(ErrorCode::WrongState, QStringLiteral("run %1 has no Slurm job to cancel").arg(runId));
    if (run.isTerminal())
        return fail(ErrorCode::WrongState,
                    QStringLiteral("job %1 already ended (%2)").arg(run.jobId, SlurmJobState::displayName(run.state)));
    // A run of segments: the job followed now and every segment waiting after it.
    const auto segments = m_store.segments(runId);
    if (!segments)
        return fail(segments.error());
    const QStringList jobs = SegmentChain::jobsToCancel(run, *segments);
    const QStringList argv = SegmentChain::cancelArgv(run, jobs);
    const RemoteResult r = m_exec.run(argv, kQueryTimeoutMs);
    const QString list = jobs.join(QLatin1Char(' '));
    if (!r.transportOk())
        return fail(ErrorCode::Transport, r.transportError);
    if (r.exitCode != 0)
        return fail(ErrorCode::RemoteFailed,
                    QStringLiteral("scancel %1 failed: %2").arg(list, RemoteValidation::sanitize(r.err, 400)));
    return jobs.size() == 1 ? QStringLiteral("cancel requested for job %1").arg(run.jobId)
                            : QStringLiteral("cancel requested for jobs %1 (the run's remaining %2 segments)")
                                  .arg(list)
                                  .arg(jobs.size());
}

FetchResult SlurmClient::fetch(qint64 runId, qint64 maxBytesPerFile)
{
    return m_files.fetch(runId, maxBytesPerFile);
}

TailResult SlurmClient::tailOutput(qint64 runId, qint64 maxBytes)
{
    return m_files.tailOutput(runId, maxBytes);
}

}   // namespace scalelab
