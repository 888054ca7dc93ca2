// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/SlurmCommands.h"

#include "app/cli/CliCluster.h"
#include "app/cli/CliParser.h"
#include "app/cli/RunJson.h"
#include "core/base/DiagnosticFormat.h"
#include "core/model/JobSpecJson.h"
#include "core/compose/JobValidator.h"
#include "core/client/RunDraft.h"
#include "core/client/RunLifecycle.h"
#include "core/store/RunStore.h"
#include "core/compose/SbatchRenderer.h"
#include "core/client/SlurmClient.h"
#include "core/ssh/SshSession.h"
#include "core/compose/StudyPlanner.h"
#include "core/ingest/IngestService.h"
#include "core/analysis/RunMetricsTable.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QMap>
#include <QRegularExpression>

#include <functional>

#include <nlohmann/json.hpp>

namespace scalelab {

namespace {

using Json = nlohmann::ordered_json;

struct ConnectionOptions {
    QString alias;
    QString sshConfig;
    bool acceptNew = false;
};

void addConnectionOptions(CliParser &a, const QString &aliasHelp)
{
    a.value({QStringLiteral("connection")}, QStringLiteral("ALIAS"), aliasHelp);
    a.value({QStringLiteral("ssh-config")}, QStringLiteral("FILE"),
            QStringLiteral("OpenSSH-format config (default: $SCALELAB_SSH_CONFIG or ~/.ssh/config)"));
    a.flag({QStringLiteral("accept-new-host-key")},
           QStringLiteral("add an unknown host key to known_hosts (a changed key is always refused)"));
}

ConnectionOptions connectionOptions(const CliParser &a)
{
    ConnectionOptions o;
    o.alias = a.value(QStringLiteral("connection")).value_or(QString());
    o.sshConfig = a.value(QStringLiteral("ssh-config")).value_or(QString());
    o.acceptNew = a.isSet(QStringLiteral("accept-new-host-key"));
    return o;
}

const QString kAliasHelp = QStringLiteral("SSH config Host alias (default: the profile's login host alias)");

bool openStore(CliContext &ctx, RunStore &store)
{
    const QString error = store.open().errorText();
    if (!error.isEmpty()) {
        ctx.err << "scalelab: cannot open the run store: " << error << "\n";
        ctx.err.flush();
        return false;
    }
    return true;
}

// Resolves unresolved submissions of a cluster before anything else is sent,
// so an interrupted submit is completed, never duplicated.
void reconcileCluster(CliContext &ctx, RunLifecycle &lifecycle)
{
    const ReconcileReport report = lifecycle.reconcileUnresolved();
    for (const ReconciledRun &r : report.runs) {
        switch (r.outcome.kind) {
        case ReconcileOutcome::Kind::Found:
            ctx.out << "run " << r.runId << ": reconciled, job " << r.outcome.jobId << "\n";
            break;
        case ReconcileOutcome::Kind::NotSubmitted:
            // Certainly never reached Slurm: RunLifecycle finished the submission.
            ctx.out << "run " << r.runId << ": was not submitted; "
                    << (r.resubmit && r.resubmit->kind == SubmitOutcome::Kind::Submitted
                            ? QStringLiteral("submitted as job %1").arg(r.resubmit->jobId)
                            : (r.resubmit ? r.resubmit->message : QString()))
                    << "\n";
            break;
        case ReconcileOutcome::Kind::StillUnknown:
            ctx.out << "run " << r.runId << ": outcome still unknown (" << r.outcome.message << ")\n";
            break;
        case ReconcileOutcome::Kind::NothingToDo:
            break;
        }
    }
    ctx.out.flush();
}

struct Prepared {
    JobSpec spec;
    const ClusterProfile *profile = nullptr;
};

std::optional<Prepared> prepareSpec(CliContext &ctx, const QString &path, int *rc)
{
    auto spec = ctx.readSpec(path);
    if (!spec) {
        *rc = int(ExitCode::Unusable);
        return std::nullopt;
    }
    const ClusterProfile *profile = ctx.profileFor(spec->profile);
    if (!profile) {
        *rc = int(ExitCode::Unusable);
        return std::nullopt;
    }
    return Prepared{*spec, profile};
}

// The spec file as stored with each run: an absolute path, "" for stdin.
QString specFilePath(const QString &argument)
{
    return argument == QLatin1String("-") ? QString() : QFileInfo(argument).absoluteFilePath();
}

int submitSpecs(CliContext &ctx, const QList<JobSpec> &specs, const ClusterProfile &profile, const ConnectionOptions &o,
                bool dryRun, const QString &studyName, const QString &specFile,
                StudyOrder order = StudyOrder::AllAtOnce)
{
    const char *command = studyName.isEmpty() ? "submit" : "study";
    const QString alias = o.alias.isEmpty() ? defaultClusterAlias(profile) : o.alias;
    CliCluster cluster(ctx, alias, o.sshConfig, o.acceptNew);
    if (!cluster.connect().isEmpty())
        return int(ExitCode::Errors);
    RunStore store;
    if (!openStore(ctx, store))
        return int(ExitCode::Errors);
    SlurmClient client(cluster.executor(), store, alias);

    if (dryRun) {
        bool allOk = true;
        Json verdicts = Json::array();
        for (const auto &spec : specs) {
            const TestOnlyResult t = client.testOnly(renderSbatch(spec, profile));
            ctx.out << QStringLiteral("%1 GPU(s): %2\n")
                           .arg(spec.gpus)
                           .arg(t.ok() ? QStringLiteral("accepted") : QStringLiteral("refused"));
            const QString verdict = t.transportError.isEmpty() ? t.verdict.trimmed() : t.transportError;
            if (!verdict.isEmpty())
                ctx.out << "  " << QString(verdict).replace(QLatin1Char('\n'), QStringLiteral("\n  ")) << "\n";
            allOk = allOk && t.ok();
            verdicts.push_back(Json{{"gpus", spec.gpus}, {"accepted", t.ok()}, {"verdict", verdict.toStdString()}});
        }
        ctx.out.flush();
        if (ctx.jsonMode())
            ctx.printJson(command, Json{{"cluster", alias.toStdString()}, {"dryRun", true}, {"variants", verdicts}});
        return allOk ? 0 : int(ExitCode::Errors);
    }

    RunLifecycle lifecycle(client, store);
    reconcileCluster(ctx, lifecycle);
    // All runs valid and stored (one transaction) before the first is sent:
    // a store failure sends nothing.
    QList<SubmitRequest> requests;
    for (const auto &spec : specs)
        requests << SubmitRequest{spec, &profile, alias, specFile};
    const auto stored = RunLifecycle::storeBatch(store, requests, studyName);
    if (!stored) {
        ctx.err << "scalelab: cannot store the runs (nothing was sent): " << stored.error().message << "\n";
        ctx.err.flush();
        return int(ExitCode::Errors);
    }
    const qint64 studyId = studyName.isEmpty() || stored->isEmpty() ? 0 : stored->front().studyId;
    if (studyId > 0)
        ctx.out << "study " << studyId << " (" << studyName << ")\n";
    QList<qint64> ids;
    for (const RunRecord &run : *stored)
        ids << run.id;
    bool allOk = true;
    const bool chained = order == StudyOrder::OneAtATime;
    const QList<SentRun> sent = lifecycle.sendBatch(ids, chained);   // in the order of `ids`
    QString previousJob;   // chained: each job waits for the one before
    for (qsizetype i = 0; i < sent.size(); ++i) {
        const SubmitOutcome &s = sent[i].outcome;
        const qint64 runId = sent[i].runId;
        const int gpus = stored->at(i).gpus;
        switch (s.kind) {
        case SubmitOutcome::Kind::Submitted:
            ctx.out << "run " << runId << ": submitted as job " << s.jobId << " on " << alias << " (" << gpus
                    << " GPU(s))";
            if (chained && !previousJob.isEmpty())
                ctx.out << ", starts after job " << previousJob;
            ctx.out << "\n";
            previousJob = s.jobId;
            break;
        case SubmitOutcome::Kind::Rejected:
            ctx.out << "run " << runId << ": rejected by Slurm:\n  " << s.message.trimmed() << "\n";
            allOk = false;
            break;
        case SubmitOutcome::Kind::Unknown:
            ctx.out << "run " << runId << ": outcome unknown (" << s.message
                    << "); `scalelab status` reconciles it without submitting twice\n";
            allOk = false;
            break;
        case SubmitOutcome::Kind::NotSent:
        case SubmitOutcome::Kind::Refused:
            ctx.out << "run " << runId << ": not submitted: " << s.message << "\n";
            allOk = false;
            break;
        }
        ctx.out.flush();
    }
    ctx.err.flush();
    if (ctx.jsonMode()) {
        Json body{{"cluster", alias.toStdString()}, {"dryRun", false}};
        if (studyId > 0)
            body["study"] = Json{{"id", studyId}, {"name", studyName.toStdString()}};
        body["runs"] = storedRunsJson(store, ids);
        ctx.printJson(command, body);
    }
    return allOk ? 0 : int(ExitCode::Errors);
}

bool printValidation(CliContext &ctx, const JobSpec &spec, const ClusterProfile &profile, const QString &file)
{
    const Diagnostics ds = validateJob(spec, profile);
    for (const auto &d : ds)
        if (d.severity != Severity::Info)
            ctx.err << DiagnosticFormat::toText(d, file) << "\n";
    ctx.err.flush();
    return !hasErrors(ds);
}

std::optional<qint64> runIdArg(CliContext &ctx, const QStringList &pos, const char *cmd)
{
    bool ok = false;
    const qint64 id = pos.size() == 1 ? pos.front().toLongLong(&ok) : 0;
    if (!ok || id <= 0) {
        ctx.unusable(QStringLiteral("%1 needs one RUN id (see `scalelab runs`)").arg(QString::fromLatin1(cmd)));
        return std::nullopt;
    }
    return id;
}

// The shape of every command about one stored run: parse RUN and the
// connection options, open the store, connect to the run's cluster, act.
int onRunCluster(CliContext &ctx, const CliParser &a, const char *cmd,
                 const std::function<bool(RunStore &, RunLifecycle &, qint64)> &act)
{
    const ConnectionOptions o = connectionOptions(a);
    const auto id = runIdArg(ctx, a.positional(), cmd);
    if (!id)
        return int(ExitCode::Unusable);
    RunStore store;
    if (!openStore(ctx, store))
        return int(ExitCode::Errors);
    const auto run = store.run(*id);
    if (!run.ok())
        return ctx.unusable(QStringLiteral("no run %1 (see `scalelab runs`)").arg(*id));
    CliCluster cluster(ctx, o.alias.isEmpty() ? run.value().clusterAlias : o.alias, o.sshConfig, o.acceptNew);
    if (!cluster.connect().isEmpty())
        return int(ExitCode::Errors);
    SlurmClient client(cluster.executor(), store, cluster.alias());
    RunLifecycle lifecycle(client, store);
    const bool ok = act(store, lifecycle, *id);
    ctx.out.flush();
    ctx.err.flush();
    return ok ? 0 : int(ExitCode::Errors);
}

}   // namespace

int SlurmCommands::submit(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("submit"), QStringLiteral("[options] SPEC.json"),
                QStringLiteral("Validates, renders and submits a job over SSH exactly once: the run is stored\n"
                               "before anything is sent and reconciled if the outcome is unknown.\n"
                               "SPEC.json may be - to read the spec from stdin."));
    a.flag({QStringLiteral("dry-run")}, QStringLiteral("sbatch --test-only: Slurm's verdict, nothing submitted"));
    addConnectionOptions(a, kAliasHelp);
    a.examples({QStringLiteral("scalelab submit job.json"), QStringLiteral("scalelab submit --dry-run job.json"),
                QStringLiteral("scalelab submit --json job.json | jq '.runs[0].jobId'")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    ctx.setJsonMode(a.isSet(QStringLiteral("json")));
    const bool dryRun = a.isSet(QStringLiteral("dry-run"));
    const ConnectionOptions o = connectionOptions(a);
    if (a.positional().size() != 1)
        return ctx.unusable(QStringLiteral("submit needs exactly one SPEC.json"));
    int rc = 0;
    auto p = prepareSpec(ctx, a.positional().front(), &rc);
    if (!p)
        return rc;
    if (!printValidation(ctx, p->spec, *p->profile, CliContext::inputName(a.positional().front())))
        return int(ExitCode::Errors);
    return submitSpecs(ctx, {p->spec}, *p->profile, o, dryRun, {}, specFilePath(a.positional().front()));
}

int SlurmCommands::study(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("study"), QStringLiteral("--gpus 1,2,4,8 [options] SPEC.json"),
                QStringLiteral("Submits one run per GPU count as a scaling study and prints the study id.\n"
                               "SPEC.json may be - to read the spec from stdin."));
    a.value({QStringLiteral("gpus")}, QStringLiteral("N,N,..."), QStringLiteral("the GPU counts, one run each"));
    a.value({QStringLiteral("name")}, QStringLiteral("NAME"),
            QStringLiteral("the study's name (default: framework and counts)"));
    a.value({QStringLiteral("repeats")}, QStringLiteral("N"),
            QStringLiteral("run every GPU count N times (1-%1; default 1); charts show the median and the range")
                .arg(kMaxStudyRepeats));
    a.flag({QStringLiteral("all-at-once")},
           QStringLiteral("submit every run at once (default: one at a time, each job waiting for the previous "
                          "one, so runs do not disturb each other's timings)"));
    a.flag({QStringLiteral("dry-run")}, QStringLiteral("sbatch --test-only for every run: nothing submitted"));
    a.value({QStringLiteral("keep-global-batch")}, QStringLiteral("ARG=VALUE"),
            QStringLiteral("e.g. --batch-size=256: each run gets 256/N per process"));
    a.value({QStringLiteral("keep-per-gpu-batch")}, QStringLiteral("ARG=VALUE"),
            QStringLiteral("e.g. --batch-size=64: each process keeps 64"));
    addConnectionOptions(a, kAliasHelp);
    a.examples({QStringLiteral("scalelab study job.json --gpus 1,2,4,8"),
                QStringLiteral("scalelab study job.json --gpus 1,2,4 --repeats 3"),
                QStringLiteral("scalelab study job.json --gpus 2,4 --keep-global-batch --batch-size=256 --dry-run")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    ctx.setJsonMode(a.isSet(QStringLiteral("json")));
    const bool dryRun = a.isSet(QStringLiteral("dry-run"));
    const auto gpus = a.value(QStringLiteral("gpus"));
    const QString name = a.value(QStringLiteral("name")).value_or(QString());
    int repeats = 1;
    if (const auto r = a.value(QStringLiteral("repeats"))) {
        bool ok = false;
        repeats = r->trimmed().toInt(&ok);
        if (!ok || repeats < 1 || repeats > kMaxStudyRepeats)
            return ctx.unusable(
                QStringLiteral("--repeats: \"%1\" is not a number from 1 to %2").arg(*r).arg(kMaxStudyRepeats));
    }
    const StudyOrder order = a.isSet(QStringLiteral("all-at-once")) ? StudyOrder::AllAtOnce : StudyOrder::OneAtATime;
    BatchScaling scaling;
    for (auto [flag, mode] : {std::pair{QStringLiteral("keep-global-batch"), BatchScalingMode::KeepGlobal},
                              std::pair{QStringLiteral("keep-per-gpu-batch"), BatchScalingMode::KeepPerGpu}}) {
        if (auto v = a.value(flag)) {
            const qsizetype eq = v->lastIndexOf(QLatin1Char('='));
            bool ok = false;
            scaling.baseValue = eq > 0 ? v->mid(eq + 1).toInt(&ok) : 0;
            if (!ok || scaling.baseValue <= 0)
                return ctx.unusable(QStringLiteral("--%1 wants NAME=VALUE, e.g. --batch-size=256").arg(flag));
            scaling.name = v->left(eq);
            scaling.mode = mode;
        }
    }
    const ConnectionOptions o = connectionOptions(a);
    if (a.positional().size() != 1 || !gpus)
        return ctx.unusable(QStringLiteral("study needs SPEC.json and --gpus 1,2,4,8"));
    QList<int> counts;
    for (const auto &part : gpus->split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = part.trimmed().toInt(&ok);
        if (!ok || n < 1)
            return ctx.unusable(QStringLiteral("--gpus: \"%1\" is not a GPU count").arg(part));
        counts << n;
    }
    int rc = 0;
    auto p = prepareSpec(ctx, a.positional().front(), &rc);
    if (!p)
        return rc;
    const QList<StudyVariant> variants = planStudyVariants(p->spec, counts, scaling, *p->profile, repeats);
    bool errors = false;
    QList<JobSpec> specs;
    for (const auto &v : variants) {
        for (const auto &d : v.diagnostics)
            if (d.severity == Severity::Error) {
                ctx.err << QStringLiteral("%1 GPU(s): ").arg(v.spec.gpus) << DiagnosticFormat::toText(d) << "\n";
                errors = true;
            }
        specs << v.spec;
    }
    ctx.err.flush();
    if (errors)
        return int(ExitCode::Errors);
    const QString studyName =
        name.isEmpty() ? QStringLiteral("%1 %2 GPUs").arg(frameworkId(p->spec.framework), *gpus) : name;
    return submitSpecs(ctx, specs, *p->profile, o, dryRun, studyName, specFilePath(a.positional().front()), order);
}

int SlurmCommands::status(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("status"), QStringLiteral("[options]"),
                QStringLiteral("One poll cycle over every active run (one squeue per cluster, one sacct for jobs\n"
                               "that left the queue), reconciling interrupted submissions first; fetches the\n"
                               "outputs of runs that finished. Then prints the runs and exits."));
    addConnectionOptions(a, QStringLiteral("only this cluster (SSH config Host alias): poll it and list its runs"));
    a.examples({QStringLiteral("scalelab status"), QStringLiteral("scalelab status --connection puhti --json")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    if (!a.positional().isEmpty())
        return ctx.unusable(QStringLiteral("status takes no arguments (see `scalelab status --help`)"));
    const bool json = a.isSet(QStringLiteral("json"));
    ctx.setJsonMode(json);
    const ConnectionOptions o = connectionOptions(a);
    // --connection: that cluster alone, polled and listed.
    auto wanted = [&o](const RunRecord &r) { return o.alias.isEmpty() || r.clusterAlias == o.alias; };
    RunStore store;
    if (!openStore(ctx, store))
        return int(ExitCode::Errors);
    const auto all = store.runs();
    QStringList aliases;
    for (const auto &r : all.value()) {
        const bool unresolved = r.submitState == SubmitState::Intent || r.submitState == SubmitState::Uploaded
                                || r.submitState == SubmitState::Unknown;
        if (wanted(r) && (unresolved || (r.hasJob() && !r.isTerminal())) && !aliases.contains(r.clusterAlias))
            aliases << r.clusterAlias;
    }
    bool failed = false;
    Json clusters = Json::array();
    for (const QString &alias : aliases) {
        CliCluster cluster(ctx, alias, o.sshConfig, o.acceptNew);
        Json cj{{"cluster", alias.toStdString()}};
        if (const QString e = cluster.connect(); !e.isEmpty()) {
            cj["error"] = e.toStdString();
            clusters.push_back(cj);
            failed = true;
            continue;
        }
        SlurmClient client(cluster.executor(), store, alias);
        RunLifecycle lifecycle(client, store);
        reconcileCluster(ctx, lifecycle);
        // Poll, then fetch and ingest every run that finished in this cycle.
        const PollCycleReport cycle = lifecycle.pollCycle();
        const PollResult &poll = cycle.poll;
        if (poll.controllerDown) {
            ctx.err << "scalelab: " << alias << ": Slurm controller unreachable: " << poll.message
                    << " (states kept; try again later)\n";
            cj["controllerDown"] = true;
            failed = true;
        } else if (!poll.ok()) {
            ctx.err << "scalelab: " << alias << ": "
                    << (poll.transportError.isEmpty() ? poll.message : poll.transportError) << "\n";
            failed = true;
        }
        for (const QString &e : cycle.fetchErrors)
            ctx.err << "scalelab: " << alias << ": fetch: " << e << "\n";
        for (const QString &e : cycle.ingestErrors)
            ctx.err << "scalelab: " << alias << ": ingest: " << e << "\n";
        cj["squeueCalls"] = poll.squeueCalls;
        cj["sacctCalls"] = poll.sacctCalls;
        clusters.push_back(cj);
    }
    ctx.err.flush();
    const auto after = store.runs();
    if (json) {
        Json runs = Json::array();
        for (const auto &r : after.value())
            if (wanted(r))
                runs.push_back(runJson(r));
        ctx.printJson("status", Json{{"clusters", clusters}, {"runs", runs}});
    } else {
        ctx.out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                       .arg(QStringLiteral("RUN"), 5)
                       .arg(QStringLiteral("CLUSTER"), -12)
                       .arg(QStringLiteral("JOB"), 8)
                       .arg(QStringLiteral("STATE"), -12)
                       .arg(QStringLiteral("GPUS"), 4)
                       .arg(QStringLiteral("REASON / SUBMISSION"));
        for (const auto &r : after.value())
            if (wanted(r))
                ctx.out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                               .arg(r.id, 5)
                               .arg(r.clusterAlias, -12)
                               .arg(r.jobId.isEmpty() ? QStringLiteral("-") : r.jobId, 8)
                               .arg(r.hasJob() ? SlurmJobState::id(r.state) : submitStateId(r.submitState).toUpper(),
                                    -12)
                               .arg(r.gpus, 4)
                               .arg(r.submitState == SubmitState::Rejected ? r.rejection.section(QLatin1Char('\n'), -1)
                                                                           : r.reason);
        ctx.out.flush();
    }
    return failed ? int(ExitCode::Errors) : 0;
}

int SlurmCommands::cancel(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("cancel"), QStringLiteral("[options] RUN"),
                QStringLiteral("Cancels the run's Slurm job (scancel). A run that never reached Slurm\n"
                               "(not sent yet) is withdrawn instead, without connecting: it is never sent."));
    addConnectionOptions(a, QStringLiteral("SSH config Host alias (default: the run's cluster)"));
    a.examples({QStringLiteral("scalelab cancel 12")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    ctx.setJsonMode(a.isSet(QStringLiteral("json")));
    // An unsent run has no job to scancel and maybe no reachable cluster.
    if (const auto id = runIdArg(ctx, a.positional(), "cancel")) {
        RunStore store;
        if (!openStore(ctx, store))
            return int(ExitCode::Errors);
        if (const auto run = store.run(*id);
            run.ok() && !run->hasJob()
            && (run->submitState == SubmitState::Intent || run->submitState == SubmitState::Uploaded)) {
            const QString e = store.withdrawRun(*id).errorText();
            const QString message =
                e.isEmpty() ? QStringLiteral("run %1 withdrawn: it had not reached Slurm and will not be sent").arg(*id)
                            : e;
            (e.isEmpty() ? ctx.out : ctx.err) << (e.isEmpty() ? "" : "scalelab: ") << message << "\n";
            if (ctx.jsonMode())
                ctx.printJson("cancel", Json{{"cancelled", e.isEmpty()},
                                             {"withdrawn", e.isEmpty()},
                                             {"message", message.toStdString()},
                                             {"run", storedRunsJson(store, {*id}).front()}});
            ctx.out.flush();
            ctx.err.flush();
            return e.isEmpty() ? 0 : int(ExitCode::Errors);
        }
    } else {
        return int(ExitCode::Unusable);
    }
    return onRunCluster(ctx, a, "cancel", [&](RunStore &store, RunLifecycle &lifecycle, qint64 id) {
        const Result<QString> c = lifecycle.cancel(id);
        const QString message = c ? *c : c.error().message;
        (c ? ctx.out : ctx.err) << (c ? "" : "scalelab: ") << message << "\n";
        if (ctx.jsonMode())
            ctx.printJson("cancel", Json{{"cancelled", c.ok()},
                                         {"message", message.toStdString()},
                                         {"run", storedRunsJson(store, {id}).front()}});
        return c.ok();
    });
}

int SlurmCommands::fetch(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("fetch"), QStringLiteral("[options] RUN"),
                QStringLiteral("Downloads the run's output and GPU sample files over SFTP\n"
                               "into the local run store and ingests their metrics."));
    addConnectionOptions(a, QStringLiteral("SSH config Host alias (default: the run's cluster)"));
    a.examples(
        {QStringLiteral("scalelab fetch 12"), QStringLiteral("scalelab fetch --json 12 | jq -r '.files[].localPath'")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    ctx.setJsonMode(a.isSet(QStringLiteral("json")));
    return onRunCluster(ctx, a, "fetch", [&](RunStore &store, RunLifecycle &lifecycle, qint64 id) {
        // Fetched and turned into metrics at once, so `runs --json` and the
        // explorer show them without another step.
        const FetchReport report = lifecycle.fetchAndIngest(id);
        const FetchResult &f = report.fetch;
        for (const auto &e : f.errors)
            ctx.err << "scalelab: run " << id << ": fetch: " << e << "\n";
        if (!report.ingest.error.isEmpty())
            ctx.err << "scalelab: run " << id << ": ingest: " << report.ingest.error << "\n";
        Json files = Json::array(), truncated = Json::array(), errors = Json::array();
        for (const auto &file : f.files) {
            ctx.out << file.localPath << " (" << file.size << " bytes)\n";
            files.push_back(Json{{"localPath", file.localPath.toStdString()}, {"size", file.size}});
        }
        for (const auto &t : f.truncated) {
            ctx.out << t << ": larger than the size cap, first part kept\n";
            truncated.push_back(t.toStdString());
        }
        for (const auto &e : f.errors)
            errors.push_back(e.toStdString());
        if (ctx.jsonMode())
            ctx.printJson("fetch", Json{{"run", storedRunsJson(store, {id}).front()},
                                        {"files", files},
                                        {"truncated", truncated},
                                        {"errors", errors}});
        return f.ok();
    });
}

int SlurmCommands::runs(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("runs"), QStringLiteral("[--all] [--json]"),
                QStringLiteral("Lists the stored runs (no network). --json adds each run's job name, Slurm\n"
                               "version, job spec and spec file, metrics and accounting. Runs hidden in the\n"
                               "window are left out unless --all is given."));
    a.flag({QStringLiteral("all")}, QStringLiteral("also list hidden runs (with --json: a \"hidden\" boolean each)"));
    a.examples({QStringLiteral("scalelab runs"),
                QStringLiteral("scalelab runs --json | jq '.runs[] | {id, jobName, state}'"),
                QStringLiteral("scalelab runs --all --json | jq '.runs[] | select(.hidden) | .id'")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    if (!a.positional().isEmpty())
        return ctx.unusable(QStringLiteral("runs takes no arguments (see `scalelab runs --help`)"));
    const bool json = a.isSet(QStringLiteral("json"));
    const HiddenRuns hidden = a.isSet(QStringLiteral("all")) ? HiddenRuns::Include : HiddenRuns::LeaveOut;
    RunStore store;
    if (!openStore(ctx, store))
        return int(ExitCode::Errors);
    const auto all = store.runs();
    const auto hiddenIds = store.hiddenRuns();
    if (!all.ok() || !hiddenIds.ok()) {
        ctx.err << "scalelab: cannot read the run store: " << (all.ok() ? hiddenIds.errorText() : all.errorText())
                << "\n";
        return int(ExitCode::Errors);
    }
    if (json) {
        Json arr = runsWithMetricsJson(store, hidden);
        QHash<qint64, const RunRecord *> byId;
        for (const auto &r : all.value())
            byId.insert(r.id, &r);
        if (arr.is_array())
            for (auto &entry : arr) {
                const qint64 id = entry["id"].get<qint64>();
                if (const RunRecord *r = byId.value(id)) {
                    entry["jobName"] = jobNameOf(*r).toStdString();
                    entry["slurmVersion"] = r->slurmVersion.toStdString();
                    // The file it was submitted from (null: stdin or the window's form).
                    entry["specFile"] = r->specFile.isEmpty() ? Json(nullptr) : Json(r->specFile.toStdString());
                    // The job spec the run was made from, as stored (null if none).
                    entry["spec"] = Json::parse(r->specJson.toStdString(), nullptr, false);
                    if (entry["spec"].is_discarded())
                        entry["spec"] = nullptr;
                }
                entry["accounting"] = accountingJson(store, id);
            }
        ctx.printJson("runs", Json{{"runs", arr}});
        return 0;
    }
    for (const auto &r : all.value()) {
        const bool isHidden = hiddenIds.value().contains(r.id);
        if (isHidden && hidden == HiddenRuns::LeaveOut)
            continue;
        ctx.out << QStringLiteral("%1  study %2  %3  job %4  %5  %6 GPU(s) on %7 node(s)  %8")
                       .arg(r.id)
                       .arg(r.studyId)
                       .arg(r.clusterAlias)
                       .arg(r.jobId.isEmpty() ? QStringLiteral("-") : r.jobId)
                       .arg(r.hasJob() ? SlurmJobState::id(r.state) : submitStateId(r.submitState).toUpper())
                       .arg(r.gpus)
                       .arg(r.nodes)
                       .arg(r.framework)
                << (isHidden ? "  (hidden)\n" : "\n");
    }
    ctx.out.flush();
    return 0;
}

}   // namespace scalelab
