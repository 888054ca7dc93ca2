// SPDX-License-Identifier: GPL-3.0-or-later
// ClusterManager's submit flow: submitting, dry runs, start estimates, cancelling and reconciling.
#include "ui/cluster/ClusterSubmitFlow.h"

#include "ui/common/AppServices.h"
#include "ui/common/StoreTaskQueue.h"
#include "core/ssh/ClusterConnection.h"
#include "core/model/JobSpecJson.h"
#include "core/model/LaunchGeometry.h"
#include "core/store/RunStore.h"
#include "core/compose/SbatchRenderer.h"
#include "core/client/SlurmClient.h"
#include "core/analysis/QueueWaitStats.h"
#include "core/client/StartEstimator.h"
#include "core/compose/PartitionFit.h"
#include "core/base/Logging.h"

#include "core/sshconfig/SshConfigFile.h"
#include "ui/common/AppSettings.h"

#include <QDateTime>
#include <QHash>
#include <QWidget>

namespace scalelab {

ClusterSubmitFlow::ClusterSubmitFlow(ClusterManager &manager)
    : m_manager(manager)
    , m_services(manager.m_services)
{}

namespace {

// `test -e` of the spec's program on the cluster, over the open
// connection. The path is one argv word: the executor quotes every word with
// ShellQuote, and a "~/" path goes in as "$1" of a fixed `sh -c` line.
// Returns "" when it exists, else what is wrong or why it was not checked
// (`problem` says which).
QString checkProgram(RemoteExecutor &ex, const QString &program, bool *problem)
{
    *problem = false;
    if (program.isEmpty())
        return {};
    if (program.contains(QLatin1Char('$')) || program.contains(QLatin1Char('`')))
        return QObject::tr("Program %1 uses shell variables: not checked before the job runs.").arg(program);
    if (!program.startsWith(QLatin1Char('/')) && !program.startsWith(QLatin1String("~/")))
        return QObject::tr("Program %1 is a relative path (found from the run's folder or PATH when the job "
                           "runs): not checked.")
            .arg(program);
    const RemoteResult r =
        program.startsWith(QLatin1String("~/"))
            ? ex.run({QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("test -e \"$HOME/$1\""),
                      QStringLiteral("scalelab-check"), program.mid(2)},
                     30000)
            : ex.run({QStringLiteral("test"), QStringLiteral("-e"), program}, 30000);
    if (!r.transportOk())
        return QObject::tr("Whether program %1 exists could not be checked: %2").arg(program, r.transportError);
    if (r.exitCode == 0)
        return {};
    *problem = true;
    return QObject::tr("Program %1 does not exist on the cluster (test -e); fix the Program field.").arg(program);
}

QString diagnosticsText(const Diagnostics &diags)
{
    QStringList lines;
    for (const Diagnostic &d : diags)
        if (d.severity == Severity::Error)
            lines << (d.field.isEmpty() ? d.message : d.field + QStringLiteral(": ") + d.message);
    return lines.join(QLatin1Char('\n'));
}

}   // namespace

void ClusterSubmitFlow::submit(const QList<JobSpec> &specs, const QString &studyName, StudyOrder runOrder)
{
    if (specs.isEmpty()) {
        Q_EMIT m_manager.submitFinished(tr("Nothing to submit."), false);
        return;
    }
    // Check everything first: a study is submitted whole or not at all.
    QList<SubmitRequest> requests;
    for (const JobSpec &spec : specs)
        requests << SubmitRequest{spec, m_services.profiles().find(spec.profile),
                                  m_manager.aliasForProfile(spec.profile)};
    if (const Diagnostics errors = RunLifecycle::validateBatch(requests); hasErrors(errors)) {
        Q_EMIT m_manager.submitFinished(
            tr("The study has errors; fix them before submitting:\n%1").arg(diagnosticsText(errors)), false);
        return;
    }
    // A cluster never configured would keep the runs queued until it became
    // reachable: nothing is stored, the researcher is sent to Connections.
    for (const SubmitRequest &p : std::as_const(requests)) {
        if (isConfigured(p.spec.profile, p.alias))
            continue;
        Q_EMIT m_manager.submitFinished(
            tr("%1 is not configured yet (no host details and no \"%2\" in your SSH config); "
               "nothing was submitted. Set it up in Connections, then submit again.")
                .arg(!p.profile || p.profile->name.isEmpty() ? p.spec.profile : p.profile->name, p.alias),
            false);
        m_services.setCurrentProfile(p.spec.profile);
        (void)m_services.openConnections(m_manager.m_dialogParent);   // the window always has it
        return;
    }

    // Start the connections first: a new connection's first task reconciles
    // the runs that exist now, and must not include the ones created below
    // (their own submit tasks send them).
    for (const SubmitRequest &r : std::as_const(requests))
        m_manager.connection(m_manager.cluster(r.alias));

    // The intent of every run is stored (one transaction, on the store
    // queue after the reconciles just asked for) before anything is sent
    // (exactly-once protocol); a store failure sends nothing. The profiles
    // go as copies: the registry may be reloaded meanwhile.
    auto profiles = std::make_shared<QList<ClusterProfile>>();
    for (const SubmitRequest &r : std::as_const(requests))
        *profiles << (r.profile ? *r.profile : ClusterProfile{});
    m_services.storeTasks().run(
        this,
        [requests, profiles, studyName](RunStore &store) mutable -> Result<QList<RunRecord>> {
            // A project folder is read and hashed here, on the pool: once per folder.
            QHash<QString, ProjectSnapshot> snapshots;
            for (qsizetype i = 0; i < requests.size(); ++i) {
                requests[i].profile = &profiles->at(i);
                const JobSpec &spec = requests[i].spec;
                if (spec.project.folder.isEmpty())
                    continue;
                const QString key = spec.project.folder + QLatin1Char('\n') + spec.project.remoteFolder;
                if (!snapshots.contains(key)) {
                    auto taken = RunLifecycle::snapshotProject(spec, profiles->at(i));
                    if (!taken)
                        return fail(taken.error());
                    snapshots.insert(key, *taken);
                }
                requests[i].snapshot = snapshots.value(key);
            }
            return RunLifecycle::storeBatch(store, requests, studyName);
        },
        [this, studyName, runOrder](const Result<QList<RunRecord>> &stored) {
            onBatchStored(stored, studyName, runOrder);
        });
}

void ClusterSubmitFlow::onBatchStored(const Result<QList<RunRecord>> &stored, const QString &studyName,
                                      StudyOrder runOrder)
{
    if (!stored) {
        Q_EMIT m_manager.submitFinished(tr("Cannot store the runs, nothing was sent: %1").arg(stored.error().message),
                                        false);
        return;
    }
    QHash<QString, QList<qint64>> byAlias;
    QStringList order;
    QList<qint64> storedIds;
    for (const RunRecord &run : *stored) {
        if (!byAlias.contains(run.clusterAlias))
            order << run.clusterAlias;
        byAlias[run.clusterAlias] << run.id;
        storedIds << run.id;
    }
    Q_EMIT m_services.runsChanged(storedIds);
    qCInfo(lcUi).noquote() << QStringLiteral("submit: %1 run(s) stored%2, sending")
                                  .arg(stored->size())
                                  .arg(studyName.trimmed().isEmpty() ? QString() : QStringLiteral(" as a study"));

    for (const QString &alias : std::as_const(order)) {
        ClusterManager::Cluster &c = m_manager.cluster(alias);
        c.waitingForUser = false;   // the researcher asked for it: dialogs may appear again
        Q_EMIT m_manager.clusterMessage(alias,
                                        tr("submitting %n run(s) to %1…", nullptr, byAlias[alias].size()).arg(alias));
        m_manager.enqueue(c, [store = m_manager.m_workerStore, alias, ids = byAlias[alias], runOrder,
                              self = QPointer(this)](RemoteExecutor &ex) {
            SlurmClient client(ex, *store, alias);
            const QList<SentRun> outcomes =
                RunLifecycle(client, *store).sendBatch(ids, runOrder == StudyOrder::OneAtATime);
            QMetaObject::invokeMethod(
                self,
                [self, alias, outcomes] {
                    if (self)
                        self->onSubmitDone(alias, outcomes);
                },
                Qt::QueuedConnection);
        });
    }
}

void ClusterSubmitFlow::onSubmitDone(const QString &alias, const QList<SentRun> &outcomes)
{
    using K = SubmitOutcome::Kind;
    QStringList submitted, problems;
    bool needReconcile = false;
    for (const auto &[id, o] : outcomes) {   // SentRun: run id, outcome
        switch (o.kind) {
        case K::Submitted:
            submitted << tr("run %1 → job %2").arg(id).arg(o.jobId);
            m_manager.m_settling.insert(id, FollowUpPolls(FollowUpPolls::After::Submit));
            break;
        case K::Rejected:
            problems << tr("run %1 rejected by Slurm: %2").arg(id).arg(o.message);
            break;
        case K::Unknown:
            needReconcile = true;
            problems << tr("run %1: the answer was lost (%2); ScaleLab will look the job up on the cluster "
                           "instead of submitting it again")
                            .arg(id)
                            .arg(o.message);
            break;
        case K::NotSent:
            problems << tr("run %1 was not sent (%2); it is sent when %3 can be reached (Refresh now)")
                            .arg(id)
                            .arg(o.message, alias);
            break;
        case K::Refused:
            problems << tr("run %1 not submitted: %2").arg(id).arg(o.message);
            break;
        }
    }
    QString message;
    if (!submitted.isEmpty())
        message = tr("Submitted to %1: %2").arg(alias, submitted.join(QLatin1String(", ")));
    if (!problems.isEmpty())
        message += (message.isEmpty() ? QString() : QStringLiteral("\n")) + problems.join(QLatin1Char('\n'));
    ClusterManager::Cluster &c = m_manager.cluster(alias);
    if (needReconcile)
        enqueueReconcile(c);
    QList<qint64> sentIds;
    for (const SentRun &sent : outcomes)
        sentIds << sent.runId;
    Q_EMIT m_services.runsChanged(sentIds);
    Q_EMIT m_manager.submitFinished(message, problems.isEmpty());
    if (!submitted.isEmpty() || needReconcile) {
        c.scheduler.recordSuccess();
        // One poll at once (the app knows a job exists; squeue says how it
        // stands), then the normal interval.
        m_manager.schedulePoll(c, 0);
    }
}

void ClusterSubmitFlow::enqueueReconcile(ClusterManager::Cluster &c)
{
    if (!c.connection)
        return;   // the manager's connection() enqueues this itself when it starts one
    // Runs created from now on are submitted by their own tasks; only older
    // unresolved ones are settled here. The store queue reads the newest id
    // before any batch asked for later is stored.
    const QString alias = c.alias;
    const QPointer<ClusterConnection> asked = c.connection;
    m_services.storeTasks().run(
        this, [](RunStore &store) { return store.newestRunId(); },
        [this, alias, asked](const Result<qint64> &newest) {
            ClusterManager::Cluster &cl = m_manager.cluster(alias);
            if (!asked || cl.connection != asked)
                return;   // that connection went; a new one reconciles by itself
            if (!newest) {
                Q_EMIT m_manager.clusterMessage(alias,
                                                tr("unresolved submissions not checked: %1").arg(newest.errorText()));
                return;
            }
            sendReconcile(cl, *newest);
        });
}

namespace {

QStringList reconcileMessages(const ReconcileReport &report)
{
    QStringList messages;
    using K = ReconcileOutcome::Kind;
    for (const ReconciledRun &r : report.runs) {
        if (r.resubmit)
            messages << (r.resubmit->kind == SubmitOutcome::Kind::Submitted
                             ? QObject::tr("run %1 had not reached Slurm; submitted now as job %2")
                                   .arg(r.runId)
                                   .arg(r.resubmit->jobId)
                             : QObject::tr("run %1 had not reached Slurm; submitting it failed: %2")
                                   .arg(r.runId)
                                   .arg(r.resubmit->message));
        else if (r.outcome.kind == K::Found)
            messages << QObject::tr("run %1: %2").arg(r.runId).arg(r.outcome.message);
        else if (r.outcome.kind == K::StillUnknown)
            messages << QObject::tr("run %1: still unknown (%2)").arg(r.runId).arg(r.outcome.message);
    }
    return messages;
}

}   // namespace

void ClusterSubmitFlow::sendReconcile(ClusterManager::Cluster &c, qint64 newest)
{
    const QString alias = c.alias;
    if (c.connection->enqueue(
            [store = m_manager.m_workerStore, alias, newest, self = QPointer(this)](RemoteExecutor &ex) {
                SlurmClient client(ex, *store, alias);
                const ReconcileReport report = RunLifecycle(client, *store).reconcileUnresolved(newest);
                if (report.runs.isEmpty())
                    return;
                const QStringList messages = reconcileMessages(report);
                QList<qint64> changed;   // empty when nothing changed
                if (report.changed())
                    for (const ReconciledRun &r : report.runs)
                        changed << r.runId;
                QMetaObject::invokeMethod(
                    self,
                    [self, alias, messages, changed] {
                        if (self)
                            self->onReconcileDone(alias, messages, changed);
                    },
                    Qt::QueuedConnection);
            })
        != 0)
        ++c.tasksInFlight;
}

void ClusterSubmitFlow::onReconcileDone(const QString &alias, const QStringList &messages, const QList<qint64> &changed)
{
    if (!messages.isEmpty())
        Q_EMIT m_manager.clusterMessage(alias, messages.join(QLatin1String("; ")));
    if (!changed.isEmpty()) {
        Q_EMIT m_services.runsChanged(changed);
        m_manager.schedulePoll(m_manager.cluster(alias), 0);
    }
}

void ClusterSubmitFlow::dryRun(const JobSpec &spec)
{
    const ClusterProfile *profile = m_services.profiles().find(spec.profile);
    if (!profile) {
        Q_EMIT m_manager.dryRunFinished(tr("Unknown cluster profile \"%1\".").arg(spec.profile), false);
        return;
    }
    const QString alias = m_manager.aliasForProfile(spec.profile);
    if (!isConfigured(spec.profile, alias)) {
        Q_EMIT m_manager.dryRunFinished(tr("%1 is not configured yet; set it up in Connections.").arg(spec.profile),
                                        false);
        m_services.setCurrentProfile(spec.profile);
        (void)m_services.openConnections(m_manager.m_dialogParent);   // the window always has it
        return;
    }
    dryRunScript(alias, renderSbatch(spec, *profile), spec.program);
}

bool ClusterSubmitFlow::isConfigured(const QString &profileId, const QString &alias) const
{
    if (!AppSettings::clusterConnection(profileId).hostName.isEmpty())
        return true;
    if (m_manager.connectionState(alias).startsWith(ClusterManager::tr("connected to")))
        return true;
    // An alias the SSH config does not know resolves to itself.
    const SshHostConfig h = SshConfigFile::load(AppSettings::sshConfigPath()).resolve(alias);
    return h.hostName != h.alias;
}

void ClusterSubmitFlow::dryRunScript(const QString &alias, const QString &script, const QString &program)
{
    ClusterManager::Cluster &c = m_manager.cluster(alias);
    c.waitingForUser = false;
    m_manager.enqueue(
        c, [store = m_manager.m_workerStore, alias, script, program, self = QPointer(this)](RemoteExecutor &ex) {
            SlurmClient client(ex, *store, alias);
            const TestOnlyResult r = client.testOnly(script);
            QString verdict = r.transportError.isEmpty() ? r.verdict.trimmed() : r.transportError;
            bool ok = r.ok();
            if (r.transportError.isEmpty()) {
                bool missing = false;
                if (const QString check = checkProgram(ex, program, &missing); !check.isEmpty()) {
                    verdict += QLatin1Char('\n') + check;
                    ok = ok && !missing;
                }
            }
            QMetaObject::invokeMethod(
                self,
                [self, verdict, ok] {
                    if (self)
                        Q_EMIT self->m_manager.dryRunFinished(verdict, ok);
                },
                Qt::QueuedConnection);
        });
}

void ClusterSubmitFlow::estimateStart(const JobSpec &spec)
{
    const ClusterProfile *profile = m_services.profiles().find(spec.profile);
    const QString alias = m_manager.aliasForProfile(spec.profile);
    if (!profile || !isConfigured(spec.profile, alias)) {
        Q_EMIT m_manager.startEstimated(
            spec.profile,
            profile ? tr("No start estimate: %1 is not configured yet; set it up in Connections.").arg(spec.profile)
                    : tr("No start estimate: unknown cluster profile \"%1\".").arg(spec.profile),
            false);
        return;
    }
    const QStringList partitions = PartitionFit::fitting(spec, *profile);
    if (partitions.isEmpty()) {
        Q_EMIT m_manager.startEstimated(spec.profile,
                                        tr("No partition of %1 takes the job as it is.").arg(spec.profile), false);
        return;
    }
    sendEstimate(spec.profile, alias, renderSbatch(spec, *profile), partitions, spec.gpus);
}

// A kept answer is used as it is (only the store's medians are read again);
// otherwise one remote command on the cluster's worker asks every partition.
void ClusterSubmitFlow::sendEstimate(const QString &profileId, const QString &alias, const QString &script,
                                     const QStringList &partitions, int gpus)
{
    auto deliver = [this, profileId, alias, gpus](const StartEstimates &e, const QList<QueueWaitMedian> &medians) {
        QHash<QString, QString> past;
        for (const PartitionStart &p : e.partitions)
            if (const auto m = QueueWaitStats::find(medians, alias, p.partition, gpus))
                past.insert(p.partition, m->text());
        Q_EMIT m_manager.startEstimated(profileId, e.describe(past), e.ok());
    };
    if (const auto kept = m_estimates.find(alias, script, partitions, QDateTime::currentMSecsSinceEpoch())) {
        m_services.storeTasks().run(
            this, [](RunStore &store) { return store.queueWaits(); },
            [deliver, e = *kept](const Result<QList<QueueWait>> &waits) {
                deliver(e, QueueWaitStats::medians(waits.value_or(QList<QueueWait>())));
            });
        return;
    }
    ClusterManager::Cluster &c = m_manager.cluster(alias);
    c.waitingForUser = false;
    m_manager.enqueue(c, [store = m_manager.m_workerStore, alias, script, partitions, deliver,
                          self = QPointer(this)](RemoteExecutor &ex) {
        const StartEstimates e = StartEstimator(ex).estimate(script, partitions);
        const QList<QueueWaitMedian> medians =
            QueueWaitStats::medians(store->queueWaits().value_or(QList<QueueWait>()));
        QMetaObject::invokeMethod(
            self,
            [self, alias, script, partitions, e, medians, deliver] {
                if (!self)
                    return;
                self->m_estimates.store(alias, script, partitions, e, QDateTime::currentMSecsSinceEpoch());
                deliver(e, medians);
            },
            Qt::QueuedConnection);
    });
}

void ClusterSubmitFlow::dryRunRun(qint64 runId)
{
    m_services.storeTasks().run(
        this, [runId](RunStore &store) { return store.run(runId); },
        [this](const Result<RunRecord> &run) {
            if (!run.ok()) {
                Q_EMIT m_manager.dryRunFinished(run.errorText(), false);
                return;
            }
            const auto spec = parseJobSpec(run->specJson);
            dryRunScript(run->clusterAlias.isEmpty() ? m_manager.aliasForProfile(run->profile) : run->clusterAlias,
                         run->script, spec.spec ? spec.spec->program : QString());
        });
}

void ClusterSubmitFlow::cancel(qint64 runId)
{
    m_services.storeTasks().run(
        this, [runId](RunStore &store) { return store.run(runId); },
        [this, runId](const Result<RunRecord> &run) {
            if (!run.ok() || !run->hasJob()) {
                Q_EMIT m_manager.cancelFinished(
                    runId, run.ok() ? tr("run %1 has no Slurm job to cancel").arg(runId) : run.errorText(), false);
                return;
            }
            cancelJob(run->clusterAlias, runId);
        });
}

void ClusterSubmitFlow::cancelJob(const QString &alias, qint64 runId)
{
    ClusterManager::Cluster &c = m_manager.cluster(alias);
    c.waitingForUser = false;
    m_manager.enqueue(c, [store = m_manager.m_workerStore, alias, runId, self = QPointer(this)](RemoteExecutor &ex) {
        SlurmClient client(ex, *store, alias);
        const Result<QString> o = RunLifecycle(client, *store).cancel(runId);
        QMetaObject::invokeMethod(
            self,
            [self, runId, o, alias] {
                if (!self)
                    return;
                Q_EMIT self->m_manager.cancelFinished(runId, o ? *o : o.error().message, o.ok());
                if (o.ok())
                    self->m_manager.m_settling.insert(runId, FollowUpPolls(FollowUpPolls::After::Cancel));
                self->m_manager.schedulePoll(self->m_manager.cluster(alias), 0);   // show CANCELLED without waiting
            },
            Qt::QueuedConnection);
    });
}

}   // namespace scalelab
