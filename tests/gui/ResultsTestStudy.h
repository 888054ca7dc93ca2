// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A synthetic scaling study for the result explorer tests: three runs of one
// job at 1, 2 and 4 GPUs with accounting, a GPU sampler CSV and a job output,
// plus one run outside the study whose node had no nvidia-smi. Files are
// written into `dir`; the store must already be open.

#include "core/ingest/IngestService.h"
#include "core/model/JobSpecJson.h"
#include "core/store/RunStore.h"
#include "core/slurm/SacctParser.h"
#include "core/ingest/StudyMetricPatterns.h"

#include <QDir>
#include <QFile>
#include <QTest>
#include <QTimeZone>

#include <cmath>

namespace scalelab::testing {

struct SyntheticRun {
    int gpus;
    double trainTime;   // train_time_s printed by the job
    double throughput;   // samples_per_s
    double accuracy;
    int util;   // GPU utilisation the sampler records (every sample)
    qint64 elapsed;   // sacct Elapsed
};

inline QList<SyntheticRun> syntheticRuns()
{
    return {{1, 400.0, 1000.0, 0.981, 92, 420}, {2, 215.0, 1860.0, 0.979, 85, 236}, {4, 125.0, 3200.0, 0.975, 70, 146}};
}

inline QString hms(qint64 s)
{
    return QStringLiteral("%1:%2:%3")
        .arg(s / 3600, 2, 10, QLatin1Char('0'))
        .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
        .arg(s % 60, 2, 10, QLatin1Char('0'));
}

inline QString scriptFor(int gpus, const QString &jobName)
{
    return QStringLiteral("#!/bin/bash\n#SBATCH --job-name=%1\n#SBATCH --partition=gpu\n#SBATCH --nodes=1\n"
                          "#SBATCH --gpus-per-node=%2\n#SBATCH --time=00:30:00\nmodule load pytorch/2.1\n"
                          "export NCCL_DEBUG=%3\nsrun torchrun --nproc_per_node=%2 train.py --epochs 3\n")
        .arg(jobName)
        .arg(gpus)
        .arg(gpus > 1 ? QStringLiteral("INFO") : QStringLiteral("WARN"));
}

inline bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

// Returns the study id; run ids in `runIds` (study runs by GPU count, then the extra run).
inline qint64 fillSyntheticStudy(RunStore &store, const QString &dir, QList<qint64> &runIds)
{
    StudyRecord study;
    study.name = QStringLiteral("mnist-ddp scaling");
    study.created = QDateTime(QDate(2024, 5, 1), QTime(9, 0), QTimeZone::utc());
    MetricPattern p;
    p.name = QStringLiteral("final_loss");
    p.regex = QStringLiteral("final_loss=([0-9.]+)");
    p.aggregation = MetricAggregation::Last;
    study.notes = StudyMetricPatterns::write(QStringLiteral("a researcher's scaling test"), {p});
    const auto sid = store.createStudy(study);
    if (!sid.ok())
        qFatal("createStudy: %s", qPrintable(sid.errorText()));

    auto addRun = [&](qint64 studyId, int gpus, const QString &jobId, qint64 elapsed, const QString &state,
                      const QByteArray &csv, const QByteArray &out) {
        JobSpec spec;
        spec.profile = QStringLiteral("testbed");
        spec.partition = QStringLiteral("gpu");
        spec.gpus = gpus;
        spec.nodes = 1;
        spec.program = QStringLiteral("train.py");
        spec.environment.modules = {QStringLiteral("pytorch/2.1")};
        spec.environment.variables = {
            {QStringLiteral("NCCL_DEBUG"), gpus > 1 ? QStringLiteral("INFO") : QStringLiteral("WARN")}};
        RunRecord r;
        r.studyId = studyId;
        r.profile = QStringLiteral("testbed");
        r.clusterAlias = QStringLiteral("testbed");
        r.partition = QStringLiteral("gpu");
        r.gpus = gpus;
        r.nodes = 1;
        r.framework = QStringLiteral("pytorch-ddp");
        r.specJson = jobSpecToJson(spec);
        r.script = scriptFor(gpus, QStringLiteral("mnist-ddp"));
        const auto created = store.createRun(r);
        if (!created.ok())
            qFatal("createRun: %s", qPrintable(created.errorText()));
        const qint64 id = created.value().id;
        if (auto e = store.setRemoteDir(id, QStringLiteral("/home/researcher/scalelab/run-%1").arg(id)); !e)
            qFatal("%s", qPrintable(e.errorText()));
        if (auto e = store.markSubmitted(id, jobId); !e)
            qFatal("%s", qPrintable(e.errorText()));
        const QString header = QStringLiteral(
            "JobID|JobName|State|ExitCode|Submit|Start|End|Elapsed|AllocTRES|MaxRSS|TotalCPU|AllocCPUS|NodeList\n");
        const QString tres =
            QStringLiteral("billing=%1,cpu=%2,gres/gpu=%3,mem=16000M,node=1").arg(gpus * 4).arg(gpus * 4).arg(gpus);
        const QString start = QStringLiteral("2024-05-01T10:00:00");
        const QString end = QDateTime::fromString(start, Qt::ISODate).addSecs(elapsed).toString(Qt::ISODate);
        const QString cpu = hms(qint64(double(elapsed) * gpus * 4 * 0.6));
        const QString text =
            header
            + QStringLiteral("%1|mnist-ddp|%2|0:0|2024-05-01T09:59:30|%3|%4|%5|%6||%7|%8|tb-node1\n")
                  .arg(jobId, state, start, end, hms(elapsed), tres, cpu)
                  .arg(gpus * 4)
            + QStringLiteral("%1.batch|batch|%2|0:0|2024-05-01T10:00:00|%3|%4|%5|%6|%7K|%8|%9|tb-node1\n")
                  .arg(jobId, state, start, end, hms(elapsed), tres)
                  .arg(800000 + gpus * 100000)
                  .arg(cpu)
                  .arg(gpus * 4);
        const SacctParseResult parsed = SacctParser::parseWithHeader(text.toUtf8());
        if (parsed.records.isEmpty())
            qFatal("synthetic sacct text did not parse");
        if (auto e = store.recordFinal(id, parsed.records.first()); !e)
            qFatal("%s", qPrintable(e.errorText()));
        auto record = [&](const QString &name, const QByteArray &data) {
            QDir().mkpath(dir + QLatin1Char('/') + QString::number(id));
            const QString local = dir + QLatin1Char('/') + QString::number(id) + QLatin1Char('/') + name;
            if (!writeFile(local, data))
                qFatal("cannot write %s", qPrintable(local));
            if (auto e = store.recordFile({id, QStringLiteral("/home/researcher/scalelab/run-%1/%2").arg(id).arg(name),
                                           local, data.size(), data.size(), QDateTime::currentDateTimeUtc()});
                !e)
                qFatal("%s", qPrintable(e.errorText()));
        };
        if (!csv.isEmpty())
            record(QStringLiteral("scalelab-gpu-%1-tb-node1.csv").arg(jobId), csv);
        record(QStringLiteral("scalelab-%1.out").arg(jobId), out);
        runIds << id;
        return id;
    };

    int job = 100;
    for (const SyntheticRun &s : syntheticRuns()) {
        QByteArray csv =
            "index, timestamp, utilization.gpu [%], utilization.memory [%], memory.used [MiB], memory.total [MiB]\n";
        // Samples every 2 s from 3 s after the job start; GPU g differs by g %.
        for (qint64 t = 3; t < s.elapsed; t += 2)
            for (int g = 0; g < s.gpus; ++g) {
                const QDateTime at = QDateTime(QDate(2024, 5, 1), QTime(10, 0), QTimeZone::utc()).addSecs(t);
                const int util = t < 15 ? 5 : s.util + (g % 2 == 0 ? 1 : -1) * ((t / 2) % 3);
                csv += QStringLiteral("%1, %2.000, %3 %, 30 %, %4 MiB, 16160 MiB\n")
                           .arg(g)
                           .arg(at.toString(QStringLiteral("yyyy/MM/dd HH:mm:ss")))
                           .arg(util)
                           .arg(t < 15 ? 500 : 9000 + g * 100)
                           .toUtf8();
            }
        QByteArray out = "[default0]:rank 0 starting\n";
        for (int e = 1; e <= 3; ++e)
            out += QStringLiteral("[default0]:epoch %1 loss %2 time %3 samples/s %4\n")
                       .arg(e)
                       .arg(0.5 / e)
                       .arg(s.trainTime / 3.0)
                       .arg(s.throughput)
                       .toUtf8();
        out += QStringLiteral("[default0]:final_loss=%1\n").arg(0.1 + 0.01 * s.gpus).toUtf8();
        out += QStringLiteral("[default0]:test_accuracy %1  train_time_s %2  samples_per_s %3  world_size %4\n")
                   .arg(s.accuracy)
                   .arg(s.trainTime)
                   .arg(s.throughput)
                   .arg(s.gpus)
                   .toUtf8();
        addRun(sid.value(), s.gpus, QString::number(job++), s.elapsed, QStringLiteral("COMPLETED"), csv, out);
    }
    // Outside the study: the node had no nvidia-smi, so the sampler printed its marker into the output.
    addRun(0, 1, QStringLiteral("200"), 60, QStringLiteral("COMPLETED"), {},
           "scalelab: no nvidia-smi on tb-node1; no GPU samples\ntest_accuracy 0.5  train_time_s 50\n");
    for (qint64 id : runIds) {
        const IngestResult r = IngestService::ingestRun(store, id);
        if (!r.error.isEmpty())
            qFatal("ingest of run %lld: %s", id, qPrintable(r.error));
    }
    return sid.value();
}

}   // namespace scalelab::testing
