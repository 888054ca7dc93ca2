#include "app/cli/SlurmCommands.h"

#include "app/cli/CliCluster.h"
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

#include <QMap>

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

ConnectionOptions connectionOptions(CliArgs &a)
{
    ConnectionOptions o;
    o.alias = a.value(QStringLiteral("--connection")).value_or(QString());
    o.sshConfig = a.value(QStringLiteral("--ssh-config")).value_or(QString());
    o.acceptNew = a.flag(QStringLiteral("--accept-new-host-key"));
    return o;
}

const char *kConnectionHelp =
    "  --connection ALIAS       SSH config Host alias (default: the profile's login host alias)\n"
    "  --ssh-config FILE        OpenSSH-format config (default: $SCALELAB_SSH_CONFIG or ~/.ssh/config)\n"
    "  --accept-new-host-key    add an unknown host key to known_hosts (a changed key is always refused)\n";

bool wantsHelp(const QStringList &args)
{
    return args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"));
}

int rejectUnknown(CliContext &ctx, const CliArgs &a, const char *cmd)
{
    const auto unknown = a.unknownOptions();
    if (unknown.isEmpty())
        return -1;
    return ctx.unusable(QStringLiteral("%1: unknown option %2 (see `scalelab %1 --help`)").arg(QString::fromLatin1(cmd), unknown.front()));
}

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

int submitSpecs(CliContext &ctx, const QList<JobSpec> &specs, const ClusterProfile &profile, const ConnectionOptions &o,
                bool dryRun, const QString &studyName)
{
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
        for (const auto &spec : specs) {
            const TestOnlyResult t = client.testOnly(renderSbatch(spec, profile));
            ctx.out << QStringLiteral("%1 GPU(s): %2\n").arg(spec.gpus).arg(t.ok() ? QStringLiteral("accepted") : QStringLiteral("refused"));
            const QString verdict = t.transportError.isEmpty() ? t.verdict.trimmed() : t.transportError;
            if (!verdict.isEmpty())
                ctx.out << "  " << QString(verdict).replace(QLatin1Char('\n'), QStringLiteral("\n  ")) << "\n";
            allOk = allOk && t.ok();
        }
        ctx.out.flush();
        return allOk ? 0 : int(ExitCode::Errors);
    }

    RunLifecycle lifecycle(client, store);
    reconcileCluster(ctx, lifecycle);
    // All runs valid and stored (one transaction) before the first is sent:
    // a store failure sends nothing.
    QList<SubmitRequest> requests;
    for (const auto &spec : specs)
        requests << SubmitRequest{spec, &profile, alias};
    const auto stored = RunLifecycle::storeBatch(store, requests, studyName);
    if (!stored) {
        ctx.err << "scalelab: cannot store the runs (nothing was sent): " << stored.error().message << "\n";
        ctx.err.flush();
        return int(ExitCode::Errors);
    }
    if (!studyName.isEmpty() && !stored->isEmpty())
        ctx.out << "study " << stored->front().studyId << " (" << studyName << ")\n";
    QList<qint64> ids;
    for (const RunRecord &run : *stored)
        ids << run.id;
    bool allOk = true;
    const QList<SentRun> sent = lifecycle.sendBatch(ids);   // in the order of `ids`
    for (qsizetype i = 0; i < sent.size(); ++i) {
        const SubmitOutcome &s = sent[i].outcome;
        const qint64 runId = sent[i].runId;
        const int gpus = stored->at(i).gpus;
        switch (s.kind) {
        case SubmitOutcome::Kind::Submitted:
            ctx.out << "run " << runId << ": submitted as job " << s.jobId << " on " << alias << " (" << gpus
                    << " GPU(s))\n";
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

// A finished run's files are fetched and turned into metrics at once, so
// `runs --json` and the explorer show them without another step.
FetchResult fetchAndIngest(CliContext &ctx, RunStore &store, SlurmClient &client, qint64 runId)
{
    const FetchResult f = client.fetch(runId);
    for (const auto &e : f.errors)
        ctx.err << "scalelab: run " << runId << ": fetch: " << e << "\n";
    const IngestResult ingest = IngestService::ingestRun(store, runId);
    if (!ingest.error.isEmpty())
        ctx.err << "scalelab: run " << runId << ": ingest: " << ingest.error << "\n";
    ctx.err.flush();
    return f;
}

Json accountingJson(RunStore &store, qint64 runId)
{
    const auto acct = store.accounting(runId);
    if (!acct.ok() || !acct.value())
        return nullptr;
    const SacctRecord &a = *acct.value();
    auto str = [](const QString &q) { return q.toStdString(); };
    return Json{{"jobId", str(a.jobId)},   {"state", str(a.stateText)}, {"exitCode", str(a.exitCode)},
                {"submit", str(a.submit)}, {"start", str(a.start)},     {"end", str(a.end)},
                {"elapsed", str(a.elapsed)}, {"allocTres", str(a.allocTres)}, {"maxRss", str(a.maxRss)},
                {"nodeList", str(a.nodeList)}, {"reason", str(a.reason)}, {"totalCpu", str(a.totalCpu)},
                {"allocCpus", a.allocCpus}};
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
int onRunCluster(CliContext &ctx, const QStringList &args, const char *cmd,
                 const std::function<bool(RunStore &, SlurmClient &, qint64)> &act)
{
    CliArgs a(args);
    const ConnectionOptions o = connectionOptions(a);
    if (int rc = rejectUnknown(ctx, a, cmd); rc >= 0)
        return rc;
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
    const bool ok = act(store, client, *id);
    ctx.out.flush();
    ctx.err.flush();
    return ok ? 0 : int(ExitCode::Errors);
}

} // namespace

int SlurmCommands::submit(CliContext &ctx, const QStringList &args)
{
    if (wantsHelp(args)) {
        ctx.out << "Usage: scalelab submit SPEC.json [--connection ALIAS] [--dry-run]\n\n"
                   "Validates, renders and submits a job over SSH exactly once: the run is stored\n"
                   "before anything is sent and reconciled if the outcome is unknown.\n"
                   "  --dry-run                sbatch --test-only: Slurm's verdict, nothing submitted\n"
                << kConnectionHelp;
        return 0;
    }
    CliArgs a(args);
    const bool dryRun = a.flag(QStringLiteral("--dry-run"));
    const ConnectionOptions o = connectionOptions(a);
    if (int rc = rejectUnknown(ctx, a, "submit"); rc >= 0)
        return rc;
    if (a.positional().size() != 1)
        return ctx.unusable(QStringLiteral("submit needs exactly one SPEC.json"));
    int rc = 0;
    auto p = prepareSpec(ctx, a.positional().front(), &rc);
    if (!p)
        return rc;
    if (!printValidation(ctx, p->spec, *p->profile, a.positional().front()))
        return int(ExitCode::Errors);
    return submitSpecs(ctx, {p->spec}, *p->profile, o, dryRun, {});
}

int SlurmCommands::study(CliContext &ctx, const QStringList &args)
{
    if (wantsHelp(args)) {
        ctx.out << "Usage: scalelab study SPEC.json --gpus 1,2,4,8 [--name NAME] [--dry-run]\n"
                   "                      [--keep-global-batch ARG=VALUE | --keep-per-gpu-batch ARG=VALUE]\n\n"
                   "Submits one run per GPU count as a scaling study and prints the study id.\n"
                   "  --keep-global-batch --batch-size=256   each run gets 256/N per process\n"
                   "  --keep-per-gpu-batch --batch-size=64   each process keeps 64\n"
                << kConnectionHelp;
        return 0;
    }
    CliArgs a(args);
    const bool dryRun = a.flag(QStringLiteral("--dry-run"));
    const auto gpus = a.value(QStringLiteral("--gpus"));
    const QString name = a.value(QStringLiteral("--name")).value_or(QString());
    BatchScaling scaling;
    for (auto [flag, mode] : {std::pair{QStringLiteral("--keep-global-batch"), BatchScalingMode::KeepGlobal},
                              std::pair{QStringLiteral("--keep-per-gpu-batch"), BatchScalingMode::KeepPerGpu}}) {
        if (auto v = a.value(flag)) {
            const qsizetype eq = v->lastIndexOf(QLatin1Char('='));
            bool ok = false;
            scaling.baseValue = eq > 0 ? v->mid(eq + 1).toInt(&ok) : 0;
            if (!ok || scaling.baseValue <= 0)
                return ctx.unusable(QStringLiteral("%1 wants NAME=VALUE, e.g. --batch-size=256").arg(flag));
            scaling.name = v->left(eq);
            scaling.mode = mode;
        }
    }
    const ConnectionOptions o = connectionOptions(a);
    if (int rc = rejectUnknown(ctx, a, "study"); rc >= 0)
        return rc;
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
    const QList<StudyVariant> variants = planStudyVariants(p->spec, counts, scaling, *p->profile);
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
    const QString studyName = name.isEmpty() ? QStringLiteral("%1 %2 GPUs").arg(frameworkId(p->spec.framework), *gpus) : name;
    return submitSpecs(ctx, specs, *p->profile, o, dryRun, studyName);
}

int SlurmCommands::status(CliContext &ctx, const QStringList &args)
{
    if (wantsHelp(args)) {
        ctx.out << "Usage: scalelab status [--json]\n\n"
                   "One poll cycle over every active run (one squeue per cluster, one sacct for jobs\n"
                   "that left the queue), reconciling interrupted submissions first; fetches the\n"
                   "outputs of runs that finished. Then prints the runs and exits.\n"
                << kConnectionHelp;
        return 0;
    }
    CliArgs a(args);
    const bool json = a.flag(QStringLiteral("--json"));
    const ConnectionOptions o = connectionOptions(a);
    if (int rc = rejectUnknown(ctx, a, "status"); rc >= 0)
        return rc;
    RunStore store;
    if (!openStore(ctx, store))
        return int(ExitCode::Errors);
    const auto all = store.runs();
    QStringList aliases;
    for (const auto &r : all.value()) {
        const bool unresolved = r.submitState == SubmitState::Intent || r.submitState == SubmitState::Uploaded
            || r.submitState == SubmitState::Unknown;
        if ((unresolved || (r.hasJob() && !r.isTerminal())) && !aliases.contains(r.clusterAlias))
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
            ctx.err << "scalelab: " << alias << ": " << (poll.transportError.isEmpty() ? poll.message : poll.transportError) << "\n";
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
            runs.push_back(Json{{"id", r.id},
                                {"study", r.studyId},
                                {"cluster", r.clusterAlias.toStdString()},
                                {"jobId", r.jobId.toStdString()},
                                {"state", SlurmJobState::id(r.state).toStdString()},
                                {"reason", r.reason.toStdString()},
                                {"submitState", submitStateId(r.submitState).toStdString()},
                                {"gpus", r.gpus},
                                {"nodes", r.nodes},
                                {"rejection", r.rejection.toStdString()}});
        ctx.printJson(QByteArray::fromStdString(Json{{"clusters", clusters}, {"runs", runs}}.dump(2)));
    } else {
        ctx.out << QStringLiteral("%1 %2 %3 %4 %5 %6\n").arg(QStringLiteral("RUN"), 5).arg(QStringLiteral("CLUSTER"), -12)
                       .arg(QStringLiteral("JOB"), 8).arg(QStringLiteral("STATE"), -12).arg(QStringLiteral("GPUS"), 4)
                       .arg(QStringLiteral("REASON / SUBMISSION"));
        for (const auto &r : after.value())
            ctx.out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                           .arg(r.id, 5)
                           .arg(r.clusterAlias, -12)
                           .arg(r.jobId.isEmpty() ? QStringLiteral("-") : r.jobId, 8)
                           .arg(r.hasJob() ? SlurmJobState::id(r.state) : submitStateId(r.submitState).toUpper(), -12)
                           .arg(r.gpus, 4)
                           .arg(r.submitState == SubmitState::Rejected ? r.rejection.section(QLatin1Char('\n'), -1) : r.reason);
        ctx.out.flush();
    }
    return failed ? int(ExitCode::Errors) : 0;
}

int SlurmCommands::cancel(CliContext &ctx, const QStringList &args)
{
    if (wantsHelp(args)) {
        ctx.out << "Usage: scalelab cancel RUN\n\nCancels the run's Slurm job (scancel).\n" << kConnectionHelp;
        return 0;
    }
    return onRunCluster(ctx, args, "cancel", [&](RunStore &, SlurmClient &client, qint64 id) {
        const Result<QString> c = client.cancel(id);
        if (!c) {
            ctx.err << "scalelab: " << c.error().message << "\n";
            return false;
        }
        ctx.out << *c << "\n";
        return true;
    });
}

int SlurmCommands::fetch(CliContext &ctx, const QStringList &args)
{
    if (wantsHelp(args)) {
        ctx.out << "Usage: scalelab fetch RUN\n\nDownloads the run's output and GPU sample files over SFTP\n"
                   "into the local run store and ingests their metrics.\n"
                << kConnectionHelp;
        return 0;
    }
    return onRunCluster(ctx, args, "fetch", [&](RunStore &store, SlurmClient &client, qint64 id) {
        const FetchResult f = fetchAndIngest(ctx, store, client, id);
        for (const auto &file : f.files)
            ctx.out << file.localPath << " (" << file.size << " bytes)\n";
        for (const auto &t : f.truncated)
            ctx.out << t << ": larger than the size cap, first part kept\n";
        return f.ok();
    });
}

int SlurmCommands::runs(CliContext &ctx, const QStringList &args)
{
    if (wantsHelp(args)) {
        ctx.out << "Usage: scalelab runs [--json]\n\nLists the stored runs (no network).\n";
        return 0;
    }
    CliArgs a(args);
    const bool json = a.flag(QStringLiteral("--json"));
    if (int rc = rejectUnknown(ctx, a, "runs"); rc >= 0)
        return rc;
    RunStore store;
    if (!openStore(ctx, store))
        return int(ExitCode::Errors);
    const auto all = store.runs();
    if (json) {
        Json arr = runsWithMetricsJson(store);
        if (arr.is_array())
            for (auto &entry : arr)
                entry["accounting"] = accountingJson(store, entry["id"].get<qint64>());
        ctx.printJson(QByteArray::fromStdString(arr.dump(2)));
        return 0;
    }
    for (const auto &r : all.value())
        ctx.out << QStringLiteral("%1  study %2  %3  job %4  %5  %6 GPU(s) on %7 node(s)  %8\n")
                       .arg(r.id)
                       .arg(r.studyId)
                       .arg(r.clusterAlias)
                       .arg(r.jobId.isEmpty() ? QStringLiteral("-") : r.jobId)
                       .arg(r.hasJob() ? SlurmJobState::id(r.state) : submitStateId(r.submitState).toUpper())
                       .arg(r.gpus)
                       .arg(r.nodes)
                       .arg(r.framework);
    ctx.out.flush();
    return 0;
}

} // namespace scalelab
