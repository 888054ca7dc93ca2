// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A tiny Slurm living in a FakeRemoteExecutor's file system, for SlurmClient
// unit tests: it understands the submit and reconcile shell bodies, squeue,
// sacct, scancel and sbatch --version, and can lose the connection at each
// phase of a submission.

#include "FakeRemoteExecutor.h"
#include "core/slurm/SacctParser.h"
#include "core/slurm/SlurmJobState.h"
#include "core/slurm/SqueueParser.h"

#include <QRegularExpression>

#include <utility>

namespace scalelab::test {

inline const QString kUserText = QStringLiteral("a researcher's job; rm -rf ~ $(id)");

// A tiny Slurm living in the fake executor's file system.
struct FakeSlurm {
    struct Job {
        QString id, token, dir;
        JobState state = JobState::Pending;
        QString startTime = QStringLiteral("N/A");   // squeue %S: a pending job's expected start
        QString elapsed;   // sacct Elapsed
    };
    FakeRemoteExecutor &exec;
    QList<Job> jobs;
    int nextId = 100;
    enum class Drop { None, BeforeCommand, AfterSbatchBeforeMv, AfterMv, SbatchDiesSilently };
    Drop drop = Drop::None;
    QByteArray rejectWith;   // stderr of the next sbatch; exit 1
    bool controllerDown = false;
    bool tmpRecent = false;
    bool sacctLags = false;   // finished jobs still read RUNNING in sacct
    bool sacctHalfWritten = false;   // 22.05 right after the end: the job line has no Partition yet

    explicit FakeSlurm(FakeRemoteExecutor &e)
        : exec(e)
    {
        exec.onRun = [this](const QStringList &argv) { return handle(argv); };
    }

    static RemoteResult reply(int code, const QByteArray &out, const QByteArray &err = {})
    {
        RemoteResult r;
        r.exitCode = code;
        r.out = out;
        r.err = err;
        return r;
    }
    static RemoteResult lost()
    {
        RemoteResult r;
        r.transportError = QStringLiteral("connection lost");
        return r;
    }

    RemoteResult handle(const QStringList &queryArgv)
    {
        // Queries arrive as `env -u VAR ... SLURM_TIME_FORMAT=standard squeue ...`.
        QStringList argv = queryArgv;
        if (argv.value(0) == "env") {
            argv.removeFirst();
            while (!argv.isEmpty() && (argv.first() == "-u" || argv.first().contains('='))) {
                if (argv.first() == "-u")
                    argv.removeFirst();
                argv.removeFirst();
            }
        }
        const QString cmd = argv.value(0);
        if (cmd == "sh" && argv.value(1) == "-c") {
            const QString body = argv.value(2);
            const QString dir = QRegularExpression("^cd (\\S+) ").match(body).captured(1);
            const QString token = QRegularExpression("--comment=(\\S+)").match(body).captured(1);
            // "until-done": the segments the chain queued itself, read from the run folder.
            if (body.contains(".jobid; do"))
                return queuedSegments(dir);
            // Cancel of an "until-done" run: the stop file first, then scancel.
            if (const auto stop = QRegularExpression("^echo cancelled > (\\S+); scancel").match(body);
                stop.hasMatch()) {
                exec.files.insert(stop.captured(1), "cancelled\n");
                return reply(0, {});
            }
            // A run of segments: one job per segment created now, chained, one id per line.
            if (body.contains("SCALELAB_SEGMENTS=")) {
                const auto more = QRegularExpression("for k in ([0-9 ]+);").match(body);
                return submitSegments(dir, token, 1 + int(more.captured(1).split(' ', Qt::SkipEmptyParts).size()));
            }
            if (body.contains("sbatch --parsable"))
                return submit(dir, token);
            if (body.contains("echo nodir"))
                return status(dir);
        }
        if (cmd == "squeue")
            return squeue(argv.contains("--states=all"));
        if (cmd == "sacct")
            return sacct(argv);
        if (cmd == "scancel")
            return reply(0, {});
        if (cmd == "sbatch" && argv.value(1) == "--version")
            return reply(0, "slurm-wlm 22.05.8\n");
        return reply(127, {}, "unscripted");
    }

    RemoteResult submit(const QString &dir, const QString &token)
    {
        if (drop == Drop::BeforeCommand) {
            drop = Drop::None;
            return lost();
        }
        exec.files.insert(dir + "/jobid.tmp", {});
        if (controllerDown)
            return reply(
                1, {},
                "sbatch: error: Batch job submission failed: Unable to contact slurm controller (connect failure)\n");
        if (!rejectWith.isEmpty())
            return reply(1, {}, std::exchange(rejectWith, {}));
        const QString id = QString::number(nextId++);
        jobs << Job{id, token, dir, JobState::Pending};
        if (drop == Drop::SbatchDiesSilently) {
            drop = Drop::None;
            return lost();
        }
        exec.files.insert(dir + "/jobid.tmp", id.toUtf8() + "\n");
        if (drop == Drop::AfterSbatchBeforeMv) {
            drop = Drop::None;
            return lost();
        }
        exec.files.insert(dir + "/jobid", exec.files.take(dir + "/jobid.tmp"));
        if (drop == Drop::AfterMv) {
            drop = Drop::None;
            return lost();
        }
        return reply(0, id.toUtf8() + "\n");
    }

    RemoteResult queuedSegments(const QString &dir)
    {
        QByteArray out;
        for (auto it = exec.files.cbegin(); it != exec.files.cend(); ++it) {
            const QString name = it.key().mid(dir.size() + 1);
            if (it.key().startsWith(dir + "/scalelab-segment-") && name.endsWith(".jobid") && !it.value().isEmpty())
                out += name.toUtf8() + ' ' + it.value().split('\n').first() + '\n';
        }
        return reply(0, out);
    }

    RemoteResult submitSegments(const QString &dir, const QString &token, int n)
    {
        QByteArray ids;
        for (int k = 0; k < n; ++k) {
            const QString id = QString::number(nextId++);
            jobs << Job{id, token, dir, JobState::Pending};
            ids += id.toUtf8() + "\n";
        }
        exec.files.insert(dir + "/jobid", ids);
        return reply(0, ids);
    }

    RemoteResult status(const QString &dir)
    {
        if (!exec.dirs.contains(dir))
            return reply(0, "nodir\n");
        if (!exec.files.value(dir + "/jobid").isEmpty())
            return reply(0, "jobid\n" + exec.files.value(dir + "/jobid"));
        if (exec.files.contains(dir + "/jobid.tmp"))
            return reply(0, (tmpRecent ? "tmp-recent\n" : "tmp\n") + exec.files.value(dir + "/jobid.tmp"));
        if (exec.files.contains(dir + "/job.sbatch"))
            return reply(0, "uploaded\n");
        return reply(0, "empty\n");
    }

    RemoteResult squeue(bool all)
    {
        if (controllerDown)
            return reply(1, {}, "slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n");
        const QString d = SqueueParser::delimiter();
        QByteArray out;
        for (const Job &j : jobs) {
            if (!all && SlurmJobState::isTerminal(j.state))
                continue;
            const QStringList f{j.id,
                                SlurmJobState::id(j.state),
                                j.state == JobState::Pending ? "Resources" : "None",
                                "gpu",
                                "0:01",
                                "10:00",
                                "1",
                                "",
                                "gres:gpu:2",
                                "2026-11-22T10:00:00",
                                j.startTime,
                                j.dir,
                                j.token,
                                kUserText};
            out += f.join(d).toUtf8() + "\n";
        }
        // a job of the same user that ScaleLab did not submit
        out += QStringList{"9",        "RUNNING", "None", "gpu", "0:01", "10:00", "1",
                           "tb-node1", "N/A",     "x",    "y",   "/tmp", "",      "other"}
                   .join(d)
                   .toUtf8()
               + "\n";
        return reply(0, out);
    }

    RemoteResult sacct(const QStringList &argv)
    {
        QStringList wanted;
        for (const QString &a : argv)
            if (a.startsWith("--jobs="))
                wanted = a.mid(7).split(',');
        const QString d = SacctParser::delimiter();
        const QStringList fields = SacctParser::defaultFields();
        QByteArray out;
        for (const Job &j : jobs) {
            if (!wanted.isEmpty() && !wanted.contains(j.id))
                continue;
            const JobState shown = sacctLags && SlurmJobState::isTerminal(j.state) ? JobState::Running : j.state;
            for (const QString &step : {QString(), QStringLiteral(".batch")}) {
                if (!step.isEmpty() && argv.contains("-X"))
                    continue;
                QStringList v;
                for (const QString &f : fields) {
                    if (f == "JobID")
                        v << j.id + step;
                    else if (f == "State")
                        v << SlurmJobState::id(shown);
                    else if (f == "ExitCode")
                        v << "0:0";
                    else if (f == "Elapsed")
                        v << j.elapsed;
                    else if (f == "Partition")
                        v << (step.isEmpty() && !sacctHalfWritten ? "gpu" : "");
                    else if (f == "AllocTRES")
                        v << "billing=2,cpu=2,gres/gpu=2,mem=2000M,node=1";
                    else if (f == "MaxRSS")
                        v << (step.isEmpty() ? "" : "843688K");
                    else if (f == "WorkDir")
                        v << j.dir;
                    else if (f == "Comment")
                        v << (step.isEmpty() ? j.token : "");
                    else if (f == "JobName")
                        v << (step.isEmpty() ? kUserText : "batch");
                    else
                        v << "";
                }
                out += v.join(d).toUtf8() + "\n";
            }
        }
        return reply(0, out);
    }
};

}   // namespace scalelab::test
