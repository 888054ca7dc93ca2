// SPDX-License-Identifier: GPL-3.0-or-later
// submit and study: validate, store all, then send (RunLifecycle).
#include "app/cli/SlurmCommands.h"

#include "app/cli/CliCluster.h"
#include "app/cli/CliParser.h"
#include "app/cli/RunJson.h"
#include "app/cli/SlurmCommandSupport.h"
#include "core/base/DiagnosticFormat.h"
#include "core/model/JobSpecJson.h"
#include "core/compose/JobValidator.h"
#include "core/client/RunDraft.h"
#include "core/client/RunLifecycle.h"
#include "core/store/RunStore.h"
#include "core/compose/SbatchRenderer.h"
#include "core/client/SlurmClient.h"
#include "core/compose/StudyPlanner.h"
#include "core/project/ProjectSnapshotter.h"

#include <QDir>
#include <QFileInfo>

#include <nlohmann/json.hpp>

namespace scalelab {

using namespace cli;

namespace {

using Json = nlohmann::ordered_json;

struct Prepared {
    JobSpec spec;
    const ClusterProfile *profile = nullptr;
};

std::optional<Prepared> prepareSpec(CliContext &ctx, const QString &path, const std::optional<QString> &project,
                                    int *rc)
{
    auto spec = ctx.readSpec(path);
    if (!spec) {
        *rc = int(ExitCode::Unusable);
        return std::nullopt;
    }
    // --project DIR (from the working folder) over the spec's project.folder
    // (from the spec file's folder).
    if (project)
        spec->project.folder = QFileInfo(*project).absoluteFilePath();
    else if (!spec->project.folder.isEmpty() && QFileInfo(spec->project.folder).isRelative())
        spec->project.folder = QFileInfo(path == QLatin1String("-") ? QDir::current() : QFileInfo(path).absoluteDir(),
                                         spec->project.folder)
                                   .absoluteFilePath();
    const ClusterProfile *profile = ctx.profileFor(spec->profile);
    if (!profile) {
        *rc = int(ExitCode::Unusable);
        return std::nullopt;
    }
    return Prepared{*spec, profile};
}

// The project folder's snapshot, said on stderr; nullopt without a project,
// an exit code when it is refused (over a cap, no such folder).
std::optional<int> takeSnapshot(CliContext &ctx, const JobSpec &spec, const ClusterProfile &profile,
                                std::optional<ProjectSnapshot> &snapshot)
{
    if (spec.project.folder.isEmpty())
        return std::nullopt;
    auto taken = RunLifecycle::snapshotProject(spec, profile);
    if (!taken && taken.error().code == ErrorCode::InvalidValue)
        return ctx.unusable(taken.error().message);   // no such folder, over a cap
    if (!taken) {
        ctx.err << "scalelab: " << taken.error().message << "\n";
        ctx.err.flush();
        return int(ExitCode::Errors);
    }
    const ProjectSnapshot &s = *taken;
    ctx.err << "project " << s.folder << ": " << s.manifest.files.size() << " files, "
            << ProjectSnapshotter::sizeText(s.manifest.totalBytes()) << ", snapshot " << s.id.left(12);
    if (!s.gitCommit.isEmpty())
        ctx.err << ", git " << s.gitCommit.left(12) << (s.gitDirty.value_or(false) ? " with changes" : "");
    ctx.err << "; " << s.excluded << " ignored\n";
    for (qsizetype i = 0; i < s.skipped.size() && i < 5; ++i)
        ctx.err << "  left out: " << s.skipped[i] << "\n";
    if (s.skipped.size() > 5)
        ctx.err << "  left out: " << s.skipped.size() - 5 << " more\n";
    ctx.err.flush();
    snapshot = s;
    return std::nullopt;
}

// One stderr line per pack sent: files, bytes, rate.
ProjectSync::Progress progressLines(CliContext &ctx)
{
    return [&ctx](const SyncProgress &p) {
        if (p.filesToSend == 0 && p.filesSent == 0) {
            ctx.err << "project: all " << p.filesPresent << " files already on the cluster\n";
        } else {
            ctx.err << "project: sent " << p.filesSent << "/" << p.filesToSend << " files, "
                    << ProjectSnapshotter::sizeText(p.bytesSent) << "/" << ProjectSnapshotter::sizeText(p.bytesToSend);
            if (p.elapsedMs > 0)
                ctx.err << ", " << ProjectSnapshotter::sizeText(qint64(p.bytesPerSecond())) << "/s";
            ctx.err << "; " << p.filesPresent << " already there\n";
        }
        ctx.err.flush();
        return true;
    };
}

// The spec file as stored with each run: an absolute path, "" for stdin.
QString specFilePath(const QString &argument)
{
    return argument == QLatin1String("-") ? QString() : QFileInfo(argument).absoluteFilePath();
}

// --dry-run: sbatch --test-only for every spec, nothing submitted.
int dryRunSpecs(CliContext &ctx, SlurmClient &client, const QList<JobSpec> &specs, const ClusterProfile &profile,
                const QString &alias, const char *command)
{
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

// One line per sent run; true when every run was submitted.
bool printSent(CliContext &ctx, const QList<SentRun> &sent, const QList<RunRecord> &stored, const QString &alias,
               bool chained)
{
    bool allOk = true;
    QString previousJob;   // chained: each job waits for the one before
    for (qsizetype i = 0; i < sent.size(); ++i) {
        const SubmitOutcome &s = sent[i].outcome;
        const qint64 runId = sent[i].runId;
        const int gpus = stored.at(i).gpus;
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
    return allOk;
}

int submitSpecs(CliContext &ctx, const QList<JobSpec> &specs, const ClusterProfile &profile, const ConnectionOptions &o,
                bool dryRun, const QString &studyName, const QString &specFile,
                StudyOrder order = StudyOrder::AllAtOnce)
{
    std::optional<ProjectSnapshot> snapshot;   // one for the batch: every variant sends the same folder
    if (auto rc = takeSnapshot(ctx, specs.front(), profile, snapshot))
        return *rc;
    const char *command = studyName.isEmpty() ? "submit" : "study";
    const QString alias = o.alias.isEmpty() ? defaultClusterAlias(profile) : o.alias;
    CliCluster cluster(ctx, alias, o.sshConfig, o.acceptNew);
    if (!cluster.connect())
        return int(ExitCode::Errors);
    RunStore store;
    if (!openStore(ctx, store))
        return int(ExitCode::Errors);
    SlurmClient client(cluster.executor(), store, alias);

    if (dryRun)
        return dryRunSpecs(ctx, client, specs, profile, alias, command);

    RunLifecycle lifecycle(client, store);
    lifecycle.setSyncProgress(progressLines(ctx));
    reconcileCluster(ctx, lifecycle);
    // All runs valid and stored (one transaction) before the first is sent:
    // a store failure sends nothing.
    QList<SubmitRequest> requests;
    for (const auto &spec : specs)
        requests << SubmitRequest{spec, &profile, alias, specFile, snapshot};
    if (const Diagnostics problems = RunLifecycle::validateBatch(requests); hasErrors(problems)) {
        for (const Diagnostic &d : problems)
            ctx.err << "scalelab: " << d.message << "\n";
        ctx.err.flush();
        return int(ExitCode::Unusable);
    }
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
    const bool chained = order == StudyOrder::OneAtATime;
    const QList<SentRun> sent = lifecycle.sendBatch(ids, chained);   // in the order of `ids`
    const bool allOk = printSent(ctx, sent, *stored, alias, chained);
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

// --project DIR, shared by submit and study.
void addProjectOption(CliParser &a)
{
    a.value({QStringLiteral("project")}, QStringLiteral("DIR"),
            QStringLiteral("send a snapshot of DIR with each run (only files changed since the last send travel); "
                           "the run folder on the cluster holds it and is the job's working directory "
                           "(over the spec's project.folder; .gitignore and .scalelabignore are followed)"));
}

// --repeats N (default 1); an exit code when it is no number in range.
std::optional<int> readRepeats(CliContext &ctx, const CliParser &a, int &repeats)
{
    if (const auto r = a.value(QStringLiteral("repeats"))) {
        bool ok = false;
        repeats = r->trimmed().toInt(&ok);
        if (!ok || repeats < 1 || repeats > kMaxStudyRepeats)
            return ctx.unusable(
                QStringLiteral("--repeats: \"%1\" is not a number from 1 to %2").arg(*r).arg(kMaxStudyRepeats));
    }
    return std::nullopt;
}

// --keep-global-batch / --keep-per-gpu-batch NAME=VALUE.
std::optional<int> readBatchScaling(CliContext &ctx, const CliParser &a, BatchScaling &scaling)
{
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
    return std::nullopt;
}

// --gpus 1,2,4,8.
std::optional<int> readGpuCounts(CliContext &ctx, const QString &gpus, QList<int> &counts)
{
    for (const auto &part : gpus.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = part.trimmed().toInt(&ok);
        if (!ok || n < 1)
            return ctx.unusable(QStringLiteral("--gpus: \"%1\" is not a GPU count").arg(part));
        counts << n;
    }
    return std::nullopt;
}

// Every variant's spec into `specs`; false (errors printed) when one has errors.
bool variantSpecs(CliContext &ctx, const QList<StudyVariant> &variants, QList<JobSpec> &specs)
{
    bool errors = false;
    for (const auto &v : variants) {
        for (const auto &d : v.diagnostics)
            if (d.severity == Severity::Error) {
                ctx.err << QStringLiteral("%1 GPU(s): ").arg(v.spec.gpus) << DiagnosticFormat::toText(d) << "\n";
                errors = true;
            }
        specs << v.spec;
    }
    ctx.err.flush();
    return !errors;
}

}   // namespace

int SlurmCommands::submit(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("submit"), QStringLiteral("[options] SPEC.json"),
                QStringLiteral("Validates, renders and submits a job over SSH exactly once: the run is stored\n"
                               "before anything is sent and reconciled if the outcome is unknown.\n"
                               "SPEC.json may be - to read the spec from stdin."));
    a.flag({QStringLiteral("dry-run")}, QStringLiteral("sbatch --test-only: Slurm's verdict, nothing submitted"));
    addProjectOption(a);
    addConnectionOptions(a, defaultAliasHelp());
    a.examples({QStringLiteral("scalelab submit job.json"), QStringLiteral("scalelab submit --dry-run job.json"),
                QStringLiteral("scalelab submit job.json --project ~/code/resnet"),
                QStringLiteral("scalelab submit --json job.json | jq '.runs[0].jobId'")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    ctx.setJsonMode(a.isSet(QStringLiteral("json")));
    const bool dryRun = a.isSet(QStringLiteral("dry-run"));
    const auto options = connectionOptions(ctx, a);
    if (!options)
        return int(ExitCode::Unusable);
    const ConnectionOptions &o = *options;
    if (a.positional().size() != 1)
        return ctx.unusable(QStringLiteral("submit needs exactly one SPEC.json"));
    int rc = 0;
    auto p = prepareSpec(ctx, a.positional().front(), a.value(QStringLiteral("project")), &rc);
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
    addProjectOption(a);
    a.value({QStringLiteral("keep-global-batch")}, QStringLiteral("ARG=VALUE"),
            QStringLiteral("e.g. --batch-size=256: each run gets 256/N per process"));
    a.value({QStringLiteral("keep-per-gpu-batch")}, QStringLiteral("ARG=VALUE"),
            QStringLiteral("e.g. --batch-size=64: each process keeps 64"));
    addConnectionOptions(a, defaultAliasHelp());
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
    if (auto rc = readRepeats(ctx, a, repeats))
        return *rc;
    const StudyOrder order = a.isSet(QStringLiteral("all-at-once")) ? StudyOrder::AllAtOnce : StudyOrder::OneAtATime;
    BatchScaling scaling;
    if (auto rc = readBatchScaling(ctx, a, scaling))
        return *rc;
    const auto options = connectionOptions(ctx, a);
    if (!options)
        return int(ExitCode::Unusable);
    const ConnectionOptions &o = *options;
    if (a.positional().size() != 1 || !gpus)
        return ctx.unusable(QStringLiteral("study needs SPEC.json and --gpus 1,2,4,8"));
    QList<int> counts;
    if (auto rc = readGpuCounts(ctx, *gpus, counts))
        return *rc;
    int rc = 0;
    auto p = prepareSpec(ctx, a.positional().front(), a.value(QStringLiteral("project")), &rc);
    if (!p)
        return rc;
    const QList<StudyVariant> variants = planStudyVariants(p->spec, counts, scaling, *p->profile, repeats);
    QList<JobSpec> specs;
    if (!variantSpecs(ctx, variants, specs))
        return int(ExitCode::Errors);
    const QString studyName =
        name.isEmpty() ? QStringLiteral("%1 %2 GPUs").arg(frameworkId(p->spec.framework), *gpus) : name;
    return submitSpecs(ctx, specs, *p->profile, o, dryRun, studyName, specFilePath(a.positional().front()), order);
}
}   // namespace scalelab
