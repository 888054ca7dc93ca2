// SPDX-License-Identifier: GPL-3.0-or-later
// The "honest" study of the Results tests: a repeated 1-GPU count (4.17 s and
// 1.81 s), a cancelled 2-GPU run, two runs that shared a node at the same time
// and only two distinct GPU counts, each run with its accounting, metrics
// (with their provenance) and per-epoch series.
#pragma once

#include "core/model/MetricNames.h"
#include "core/slurm/SacctParser.h"
#include "core/store/RunStore.h"

#include <QTimeZone>
#include <QtTest>

namespace scalelab::test {

struct Planned {
    int gpus;
    QString jobId, state, start, end, nodes;
    double trainTime, samples, accuracy;
};

inline QList<Planned> honestRuns()
{
    return {
        {1, QStringLiteral("501"), QStringLiteral("COMPLETED"), QStringLiteral("2024-05-01T10:00:00"),
         QStringLiteral("2024-05-01T10:00:05"), QStringLiteral("tb-node1"), 4.17, 100, 0.9806},
        // Started with 501 on the same node: the overlap the report must name.
        {1, QStringLiteral("502"), QStringLiteral("COMPLETED"), QStringLiteral("2024-05-01T10:00:00"),
         QStringLiteral("2024-05-01T10:00:02"), QStringLiteral("tb-node1"), 1.81, 230, 0.9833},
        {2, QStringLiteral("503"), QStringLiteral("COMPLETED"), QStringLiteral("2024-05-01T10:01:00"),
         QStringLiteral("2024-05-01T10:01:02"), QStringLiteral("tb-node[1-2]"), 1.5, 270, 0.9806},
        {2, QStringLiteral("504"), QStringLiteral("CANCELLED by 1001"), QStringLiteral("2024-05-01T10:02:00"),
         QStringLiteral("2024-05-01T10:02:01"), QStringLiteral("tb-node2"), 0.9, 50, 0.5},
    };
}

// Stores the study and its four runs; `study` and `runs` get their ids.
inline void fillHonestStudy(RunStore &store, qint64 &study, QList<qint64> &runs)
{
    StudyRecord record;
    record.name = QStringLiteral("honest scaling");
    record.created = QDateTime(QDate(2024, 5, 1), QTime(9, 0), QTimeZone::utc());
    study = store.createStudy(record).value();
    // 160 characters: wrapped in the PDF with a marker.
    const QString longLine = QStringLiteral("srun python train.py --data ")
                             + QStringLiteral("/scratch/project_2001234/a-long-dataset-path").repeated(3);
    for (const Planned &p : honestRuns()) {
        RunRecord r;
        r.studyId = study;
        r.profile = QStringLiteral("testbed");
        r.clusterAlias = QStringLiteral("testbed");
        r.partition = QStringLiteral("gpu");
        r.gpus = p.gpus;
        r.nodes = 1;
        r.framework = QStringLiteral("pytorch-ddp");
        r.script = QStringLiteral("#!/bin/bash\n#SBATCH --gpus-per-node=%1\n%2\n").arg(p.gpus).arg(longLine);
        const qint64 id = store.createRun(r).value().id;
        QCOMPARE(store.markSubmitted(id, p.jobId).errorText(), QString());
        QCOMPARE(store.setSlurmVersion(id, QStringLiteral("22.05.11")).errorText(), QString());
        const QString text =
            QStringLiteral(
                "JobID|JobName|State|ExitCode|Submit|Start|End|Elapsed|AllocTRES|NodeList\n"
                "%1|honest|%2|0:0|2024-05-01T09:59:30|%3|%4|00:00:05|billing=4,cpu=4,gres/gpu=%5,node=1|%6\n")
                .arg(p.jobId, p.state, p.start, p.end)
                .arg(p.gpus)
                .arg(p.nodes);
        const SacctParseResult parsed = SacctParser::parseWithHeader(text.toUtf8());
        QVERIFY(!parsed.records.isEmpty());
        QCOMPARE(store.recordFinal(id, parsed.records.first()).errorText(), QString());
        auto metric = [&](const QString &name, double v, const QString &unit) {
            MetricRecord m{id, name, v, unit, metric::SourceLog};
            m.file = QStringLiteral("/data/runs/%1/scalelab-%2.out").arg(id).arg(p.jobId);
            m.line = 12;
            m.rule = QStringLiteral("pytorch.example.") + name;
            QCOMPARE(store.setMetric(m).errorText(), QString());
        };
        metric(metric::TrainTimeS, p.trainTime, QStringLiteral("s"));
        metric(metric::SamplesPerS, p.samples, QStringLiteral("samples/s"));
        metric(metric::TestAccuracy, p.accuracy, QString());
        metric(metric::GpuHours, p.gpus * p.trainTime / 3600.0, QStringLiteral("GPU h"));
        metric(metric::Gpus, p.gpus, QString());
        metric(metric::Nodes, 1, QString());
        metric(metric::EnergyWh, p.gpus * 300.0 * p.trainTime / 3600.0, QStringLiteral("Wh"));   // 300 W per GPU
        // Per-epoch values (what ingest stores when a log prints a value per epoch).
        QCOMPARE(store
                     .setSeries({id,
                                 QStringLiteral("train_loss"),
                                 QString(),
                                 {1, 2, 3},
                                 {0.9 / p.gpus, 0.5 / p.gpus, 0.3 / p.gpus}})
                     .errorText(),
                 QString());
        QCOMPARE(store
                     .setSeries({id,
                                 QStringLiteral("throughput"),
                                 QStringLiteral("samples/s"),
                                 {1, 2, 3},
                                 {p.samples * 0.9, p.samples, p.samples * 1.05}})
                     .errorText(),
                 QString());
        QCOMPARE(store
                     .setSeries({id,
                                 QStringLiteral("epoch_time_s"),
                                 QStringLiteral("s"),
                                 {1, 2, 3},
                                 {p.trainTime / 3, p.trainTime / 3, p.trainTime / 3}})
                     .errorText(),
                 QString());
        runs << id;
    }
}

}   // namespace scalelab::test
