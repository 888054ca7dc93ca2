// SPDX-License-Identifier: GPL-3.0-or-later
// status, cancel, fetch and runs: the commands about stored runs.
#include "app/cli/RunCommands.h"

#include "app/cli/CliCluster.h"
#include "app/cli/CliParser.h"
#include "app/cli/RunJson.h"
#include "app/cli/SlurmCommandSupport.h"
#include "core/client/RunLifecycle.h"
#include "core/store/RunStore.h"
#include "core/client/SlurmClient.h"
#include "core/ingest/IngestService.h"
#include "core/analysis/PendingRunText.h"
#include "core/analysis/RunMetricsTable.h"
#include "ui/common/AppSettings.h"

#include <QHash>

#include <nlohmann/json.hpp>

namespace scalelab {

using namespace cli;

namespace {

using Json = nlohmann::ordered_json;

// Finished runs whose metrics were never stored (a command or the window
// ended between the final state and the ingest): ingested from what is
// stored, no connection needed. `handled`: runs a poll cycle just ingested.
void ingestLate(CliContext &ctx, RunStore &store, const QString &alias, const QList<qint64> &handled)
{
    const MissedIngestReport late = RunLifecycle::ingestMissed(store, alias, handled);
    for (qint64 id : late.runs)
        ctx.out << "run " << id << ": had finished without metrics; ingested now\n";
    for (const QString &e : late.errors)
        ctx.err << "scalelab: ingest: " << e << "\n";
    ctx.out.flush();
}

// --connection: that cluster alone, polled and listed.
bool wantedRun(const RunRecord &r, const QString &alias)
{
    return alias.isEmpty() || r.clusterAlias == alias;
}

// The clusters with a run to reconcile or poll.
QStringList aliasesToPoll(const QList<RunRecord> &runs, const QString &alias)
{
    QStringList aliases;
    for (const auto &r : runs) {
        const bool unresolved = r.submitState == SubmitState::Intent || r.submitState == SubmitState::Uploaded
                                || r.submitState == SubmitState::Unknown;
        if (wantedRun(r, alias) && (unresolved || (r.hasJob() && !r.isTerminal())) && !aliases.contains(r.clusterAlias))
            aliases << r.clusterAlias;
    }
    return aliases;
}

// Reconciles, polls, fetches and ingests one cluster; its JSON entry. `ingested`
// gets the runs its cycle ingested; `failed` is set when something went wrong.
Json pollCluster(CliContext &ctx, RunStore &store, const QString &alias, const ConnectionOptions &o,
                 QList<qint64> &ingested, bool &failed)
{
    CliCluster cluster(ctx, alias, o.sshConfig, o.acceptNew);
    Json cj{{"cluster", alias.toStdString()}};
    if (const auto connected = cluster.connect(); !connected) {
        cj["error"] = connected.errorText().toStdString();
        failed = true;
        return cj;
    }
    SlurmClient client(cluster.executor(), store, alias);
    RunLifecycle lifecycle(client, store);
    reconcileCluster(ctx, lifecycle);
    // Poll, then fetch and ingest every run that finished in this cycle; the
    // running runs' new GPU samples and output in one command, and their alerts.
    LiveWatch live;
    PollCycleOptions options;
    options.live = &live;
    options.alerts = AppSettings::alertThresholds();
    const PollCycleReport cycle = lifecycle.pollCycle(options);
    const PollResult &poll = cycle.poll;
    if (poll.controllerDown) {
        ctx.err << "scalelab: " << alias << ": Slurm controller unreachable: " << poll.message
                << " (states kept; try again later)\n";
        cj["controllerDown"] = true;
        failed = true;
    } else if (!poll.ok()) {
        ctx.err << "scalelab: " << alias << ": " << (poll.transportError.isEmpty() ? poll.message : poll.transportError)
                << "\n";
        failed = true;
    }
    for (const QString &e : cycle.fetchErrors)
        ctx.err << "scalelab: " << alias << ": fetch: " << e << "\n";
    for (const QString &e : cycle.ingestErrors)
        ctx.err << "scalelab: " << alias << ": ingest: " << e << "\n";
    ingested << cycle.finalRuns << cycle.lateRuns;
    cj["squeueCalls"] = poll.squeueCalls;
    cj["sacctCalls"] = poll.sacctCalls;
    cj["liveCommands"] = cycle.live.remoteCommands;
    cj["liveBytes"] = cycle.live.bytes;
    for (const AlertRecord &a : cycle.live.newAlerts)
        ctx.err << "scalelab: " << alias << ": run " << a.runId << ": " << a.title << ": " << a.evidence << "\n";
    return cj;
}

Json alertJson(const AlertRecord &a)
{
    return Json{{"rule", a.rule.toStdString()},
                {"title", a.title.toStdString()},
                {"evidence", a.evidence.toStdString()},
                {"action", a.action.toStdString()},
                {"raisedAt", a.raisedAt.toUTC().toString(Qt::ISODate).toStdString()}};
}

Json thresholdsJson(const AlertThresholds &t)
{
    Json off = Json::array();
    for (const QString &r : t.disabled)
        off.push_back(r.toStdString());
    return Json{{"idlePercent", t.idlePercent},       {"idleSeconds", t.idleSeconds},
                {"warmupSeconds", t.warmupSeconds},   {"silentSeconds", t.silentSeconds},
                {"throughputDrop", t.throughputDrop}, {"disabled", off}};
}

// Under a pending run: why it waits, what to do, when it is expected to start.
QString pendingLine(const RunRecord &r, const QList<QueueWaitMedian> &medians)
{
    const PendingRunInfo p = PendingRunText::of(r, medians);
    return p.pending ? QStringLiteral("      %1\n").arg(p.text()) : QString();
}

void printRunsTable(CliContext &ctx, const QList<RunRecord> &runs, const QString &alias,
                    const QList<QueueWaitMedian> &medians = {})
{
    ctx.out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                   .arg(QStringLiteral("RUN"), 5)
                   .arg(QStringLiteral("CLUSTER"), -12)
                   .arg(QStringLiteral("JOB"), 8)
                   .arg(QStringLiteral("STATE"), -12)
                   .arg(QStringLiteral("GPUS"), 4)
                   .arg(QStringLiteral("REASON / SUBMISSION"));
    for (const auto &r : runs)
        if (wantedRun(r, alias))
            ctx.out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                           .arg(r.id, 5)
                           .arg(r.clusterAlias, -12)
                           .arg(r.jobId.isEmpty() ? QStringLiteral("-") : r.jobId, 8)
                           .arg(r.hasJob() ? SlurmJobState::id(r.state) : submitStateId(r.submitState).toUpper(), -12)
                           .arg(r.gpus, 4)
                           .arg(r.submitState == SubmitState::Rejected ? r.rejection.section(QLatin1Char('\n'), -1)
                                                                       : r.reason)
                    << pendingLine(r, medians);
    ctx.out.flush();
}

}   // namespace

int RunCommands::status(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("status"), QStringLiteral("[options]"),
                QStringLiteral("One poll cycle over every active run (one squeue per cluster, one sacct for jobs\n"
                               "that left the queue), reconciling interrupted submissions first; fetches the\n"
                               "outputs of runs that finished and stores their metrics (also of runs that\n"
                               "had finished without them). Then prints the runs and exits."));
    addConnectionOptions(a, QStringLiteral("only this cluster (SSH config Host alias): poll it and list its runs"));
    a.examples({QStringLiteral("scalelab status"), QStringLiteral("scalelab status --connection puhti --json")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    if (!a.positional().isEmpty())
        return ctx.unusable(QStringLiteral("status takes no arguments (see `scalelab status --help`)"));
    const bool json = a.isSet(QStringLiteral("json"));
    ctx.setJsonMode(json);
    const auto options = connectionOptions(ctx, a);
    if (!options)
        return int(ExitCode::Unusable);
    const ConnectionOptions &o = *options;
    RunStore store;
    if (!openStore(ctx, store))
        return int(ExitCode::Errors);
    const auto all = store.runs();
    const QStringList aliases = aliasesToPoll(all.value(), o.alias);
    bool failed = false;
    Json clusters = Json::array();
    QList<qint64> ingested;   // by the poll cycles
    for (const QString &alias : aliases)
        clusters.push_back(pollCluster(ctx, store, alias, o, ingested, failed));
    ingestLate(ctx, store, o.alias, ingested);
    ctx.err.flush();
    const auto after = store.runs();
    const QList<QueueWaitMedian> medians = QueueWaitStats::medians(store.queueWaits().value_or(QList<QueueWait>()));
    if (json) {
        Json runs = Json::array();
        QHash<qint64, Json> alerts;
        for (const AlertRecord &a : store.alerts().value_or(QList<AlertRecord>()))
            alerts[a.runId].push_back(alertJson(a));
        for (const auto &r : after.value())
            if (wantedRun(r, o.alias)) {
                Json j = runJson(r);
                j["pending"] = pendingJson(r, medians);
                j["alerts"] = alerts.value(r.id, Json::array());
                runs.push_back(j);
            }
        ctx.printJson("status", Json{{"clusters", clusters},
                                     {"alertThresholds", thresholdsJson(AppSettings::alertThresholds())},
                                     {"runs", runs}});
    } else {
        printRunsTable(ctx, after.value(), o.alias, medians);
    }
    return failed ? int(ExitCode::Errors) : 0;
}

int RunCommands::cancel(CliContext &ctx, const QStringList &args)
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

int RunCommands::fetch(CliContext &ctx, const QStringList &args)
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

int RunCommands::runs(CliContext &ctx, const QStringList &args)
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
