// SPDX-License-Identifier: GPL-3.0-or-later
// The line that says why a job failed: own fixtures (tests/data/failures) and
// the real logs in ../shared/job-logs, read in place.
#include "core/ingest/FailureCause.h"

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace scalelab;

namespace {

QByteArray readFixture(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

}   // namespace

class TestFailureCause : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ownFixtures_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("text");
        // The rank's exception, 30 lines above torchrun's own traceback and srun's summary.
        QTest::newRow("torchrun") << "torchrun-valueerror.out" << 15
                                  << "ValueError: sample 17 has 511 tokens, expected 512";
        QTest::newRow("missing program") << "missing-program.out" << 3
                                         << "python3: can't open file '/scratch/project_2001/researcher/trian.py': "
                                            "[Errno 2] No such file or directory";
        // Printed into a progress bar line after "\r" and an escape sequence.
        QTest::newRow("oom in progress bar")
            << "oom-in-progress-bar.out" << 3
            << "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
               "39.38 GiB of which 1.12 GiB is free.";
    }

    void ownFixtures()
    {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, text);
        const QByteArray data = readFixture(QStringLiteral(SCALELAB_TEST_DATA_DIR "/failures/") + file);
        QVERIFY2(!data.isEmpty(), qPrintable(file));
        const auto found = findFailureLine(data);
        QVERIFY(found);
        QCOMPARE(found->text, text);
        QCOMPARE(found->line, line);
    }

    void completedLogHasNoFailureLine()
    {
        // "error" as a table heading and "0 errors" are not reports.
        const QByteArray data = readFixture(QStringLiteral(SCALELAB_TEST_DATA_DIR "/failures/completed.out"));
        QVERIFY(!data.isEmpty());
        QVERIFY(!findFailureLine(data));
    }

    void laterErrorsAreConsequences()
    {
        // The same rule in two lines: the first report wins, whatever its kind.
        QCOMPARE(findFailureLine("srun: error: n1: task 0: Exited with exit code 1\nKeyError: 'lr'\n")->line, 1);
        QCOMPARE(findFailureLine("KeyError: 'lr'\nsrun: error: n1: task 0: Exited with exit code 1\n")->text,
                 QStringLiteral("KeyError: 'lr'"));
        // A frame's "raise" is indented: not the exception itself.
        QVERIFY(!findFailureLine("    raise ValueError('x')\n"));
    }

    void realCancelledLogs_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("text");
        QTest::newRow("srun 8 tasks")
            << "lumi__Lumi-supercomputer__slurm-9304946-srun8tasks-hf-trainer-cancelled.out" << 156
            << "slurmstepd: error: *** STEP 9304946.0 ON nid005527 CANCELLED AT 2025-01-28T15:04:48 ***";
        QTest::newRow("torchrun 8")
            << "lumi__Lumi-supercomputer__slurm-9304949-torchrun8-hf-trainer-cancelled.out" << 144
            << "slurmstepd: error: *** STEP 9304949.0 ON nid005528 CANCELLED AT 2025-01-28T15:04:48 ***";
    }

    void realCancelledLogs()
    {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, text);
        const QString dir = QStringLiteral(SCALELAB_SHARED_DIR "/job-logs");
        if (!QDir(dir).exists())
            QSKIP("../shared/job-logs is not here; the real logs are read in place only");
        const QByteArray data = readFixture(dir + QLatin1Char('/') + file);
        QVERIFY2(!data.isEmpty(), qPrintable(file));
        const auto found = findFailureLine(data);
        QVERIFY(found);
        QCOMPARE(found->text, text);
        QCOMPARE(found->line, line);
    }

    void realSuccessfulLogsHaveNone_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("horovod 4 gpu") << "aau__aau-claaudia__horovod-keras-4gpu-slurm-95659-headtail.txt";
        QTest::newRow("deepspeed 32 ranks") << "thetagpu__saforem2__deepspeed-mpirun-32gpu-mlprof-log.md";
        QTest::newRow("rccl-tests table")
            << "lumi-eap__Lumi-supercomputer__rccl-tests-all_reduce_perf-2node-excerpt.txt";
    }

    void realSuccessfulLogsHaveNone()
    {
        QFETCH(QString, file);
        const QString dir = QStringLiteral(SCALELAB_SHARED_DIR "/job-logs");
        if (!QDir(dir).exists())
            QSKIP("../shared/job-logs is not here; the real logs are read in place only");
        const QByteArray data = readFixture(dir + QLatin1Char('/') + file);
        QVERIFY2(!data.isEmpty(), qPrintable(file));
        const auto found = findFailureLine(data);
        QVERIFY2(!found, found ? qPrintable(QStringLiteral("line %1: %2").arg(found->line).arg(found->text)) : "");
    }
};

QTEST_GUILESS_MAIN(TestFailureCause)
#include "tst_failurecause.moc"
