// SPDX-License-Identifier: GPL-3.0-or-later
// A study with repeats on the real loopback cluster: `scalelab study --repeats 2`
// runs each GPU count twice, one job at a time by default (each job depends on
// the previous one), so no job starts before the one before it has ended; all
// complete, and the report says the runs did not overlap.
#include "CliRunner.h"
#include "TestClusterEnv.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using scalelab::test::runCli;

class TestStudySequenceCluster : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void repeatsRunOneAtATime();

private:
    QTemporaryDir m_data;
    QTemporaryDir m_files;
    QString m_programs;
};

void TestStudySequenceCluster::initTestCase()
{
    const auto env = scalelab::test::TestClusterEnv::load();
    QVERIFY2(env.error.isEmpty(), qPrintable(env.error));
    qputenv("SCALELAB_DATA_DIR", m_data.path().toUtf8());
    // Jobs run as the cluster's researcher account: the program must be world-readable.
    m_programs = QStringLiteral("/tmp/scalelab-sequence-test-%1").arg(QCoreApplication::applicationPid());
    QDir().mkpath(m_programs);
    QFile::setPermissions(m_programs, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                          | QFileDevice::ReadOther | QFileDevice::ExeOther | QFileDevice::ReadGroup
                                          | QFileDevice::ExeGroup);
    QFile work(m_programs + QStringLiteral("/work.py"));
    QVERIFY(work.open(QIODevice::WriteOnly));
    // Long enough (4 s) that jobs started together would overlap.
    work.write(
        "import time\nt = time.time()\ntime.sleep(4)\nprint('train_time_s', round(time.time() - t, 3), flush=True)\n");
    work.close();
    QFile::setPermissions(m_programs + QStringLiteral("/work.py"), QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                                                       | QFileDevice::ReadOther
                                                                       | QFileDevice::ReadGroup);
}

void TestStudySequenceCluster::repeatsRunOneAtATime()
{
    const QString spec = m_files.filePath(QStringLiteral("seq.json"));
    QFile f(spec);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QStringLiteral(R"({"profile": "testbed", "partition": "gpu", "gpus": 1, "framework": "pytorch-ddp",
  "launcher": "srun", "time": "00:05:00", "account": "project_2001234", "jobName": "seq", "cpusPerGpu": 1,
  "program": "%1/work.py"})")
                .arg(m_programs)
                .toUtf8());
    f.close();
    auto r =
        runCli({QStringLiteral("study"), QStringLiteral("--gpus"), QStringLiteral("1,2"), QStringLiteral("--repeats"),
                QStringLiteral("2"), QStringLiteral("--name"), QStringLiteral("sequence"), spec});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    qInfo("%s", qPrintable(r.out));
    static const QRegularExpression re(QStringLiteral("run (\\d+): submitted as job (\\d+)"));
    QList<qint64> runIds;
    QStringList jobs;
    for (auto it = re.globalMatch(r.out); it.hasNext();) {
        const auto m = it.next();
        runIds << m.captured(1).toLongLong();
        jobs << m.captured(2);
    }
    QCOMPARE(runIds.size(), 4);   // 2 GPU counts x 2 repeats
    // Each job after the first was told to wait for the one before.
    for (int i = 1; i < jobs.size(); ++i)
        QVERIFY2(r.out.contains(QStringLiteral("submitted as job %1 on testbed (%2 GPU(s)), starts after job %3")
                                    .arg(jobs[i])
                                    .arg(i % 2 == 0 ? 1 : 2)
                                    .arg(jobs[i - 1])),
                 qPrintable(r.out));
    const qint64 studyId = QRegularExpression(QStringLiteral("study (\\d+)")).match(r.out).captured(1).toLongLong();
    QVERIFY(studyId > 0);

    // Wait until all four completed.
    QHash<qint64, QJsonObject> runs;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 300000) {
        runCli({QStringLiteral("status")});
        const auto doc =
            QJsonDocument::fromJson(runCli({QStringLiteral("runs"), QStringLiteral("--json")}).out.toUtf8());
        runs.clear();
        for (const auto &v : doc.object().value(QStringLiteral("runs")).toArray())
            if (runIds.contains(v.toObject().value(QStringLiteral("id")).toInteger()))
                runs.insert(v.toObject().value(QStringLiteral("id")).toInteger(), v.toObject());
        int done = 0;
        for (const QJsonObject &o : std::as_const(runs))
            done +=
                o.value(QStringLiteral("state")).toString() == QLatin1String("COMPLETED")
                && !o.value(QStringLiteral("accounting")).toObject().value(QStringLiteral("end")).toString().isEmpty();
        if (done == 4)
            break;
        QThread::msleep(2000);
    }
    QCOMPARE(runs.size(), 4);
    QList<QPair<QDateTime, QDateTime>> spans;
    for (qint64 id : runIds) {
        const QJsonObject o = runs.value(id);
        QCOMPARE(o.value(QStringLiteral("state")).toString(), QStringLiteral("COMPLETED"));
        const QJsonObject acct = o.value(QStringLiteral("accounting")).toObject();
        const QDateTime start = QDateTime::fromString(acct.value(QStringLiteral("start")).toString(), Qt::ISODate);
        const QDateTime end = QDateTime::fromString(acct.value(QStringLiteral("end")).toString(), Qt::ISODate);
        QVERIFY2(start.isValid() && end.isValid(), qPrintable(QJsonDocument(acct).toJson()));
        qInfo("run %lld job %s: %s .. %s on %s", id, qPrintable(o.value(QStringLiteral("jobId")).toString()),
              qPrintable(start.toString(Qt::ISODate)), qPrintable(end.toString(Qt::ISODate)),
              qPrintable(acct.value(QStringLiteral("nodeList")).toString()));
        spans.append({start, end});
    }
    // One at a time: every job started no earlier than the previous one ended.
    for (int i = 1; i < spans.size(); ++i)
        QVERIFY2(spans[i].first >= spans[i - 1].second,
                 qPrintable(QStringLiteral("job %1 started %2, before job %3 ended %4")
                                .arg(jobs[i], spans[i].first.toString(Qt::ISODate), jobs[i - 1],
                                     spans[i - 1].second.toString(Qt::ISODate))));

    // The report says so, with the real run counts and Slurm version.
    const QString pdf = m_files.filePath(QStringLiteral("sequence.pdf"));
    QProcessEnvironment offscreen;
    offscreen.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    const auto rep = runCli({QStringLiteral("report"), QString::number(studyId), QStringLiteral("-o"), pdf}, offscreen);
    QVERIFY2(rep.exitCode == 0, qPrintable(rep.out + rep.err));
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {QStringLiteral("-enc"), QStringLiteral("UTF-8"), pdf, QStringLiteral("-")});
    QVERIFY(p.waitForFinished(30000));
    const QString text =
        QString::fromUtf8(p.readAllStandardOutput()).normalized(QString::NormalizationForm_KC).simplified();
    QVERIFY2(text.contains(QStringLiteral("No two runs shared a node at the same time")), qPrintable(text.left(3000)));
    QVERIFY2(text.contains(QStringLiteral("4 stored, 4 submitted; 4 completed and used in the analysis")),
             qPrintable(text.left(3000)));
    // The version sbatch reported over the connection (22.05 or 24.11 here).
    QVERIFY2(QRegularExpression(QStringLiteral("Slurm version 2\\d\\.\\d+\\.\\d+ \\(reported by sbatch --version"))
                 .match(text)
                 .hasMatch(),
             qPrintable(text.left(3000)));
    if (const QString keep = qEnvironmentVariable("SCALELAB_KEEP_REPORT"); !keep.isEmpty())
        QFile::copy(pdf, keep);
}

QTEST_MAIN(TestStudySequenceCluster)
#include "tst_cli_study_sequence.moc"
