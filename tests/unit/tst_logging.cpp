// SPDX-License-Identifier: GPL-3.0-or-later
// The log file and what a command looks like in it. The login through the
// MFA server is tests/cluster/tst_logredaction.cpp.
#include "core/base/Logging.h"
#include "core/client/SlurmClient.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;

class TestLogging : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void commandsAreRedacted_data();
    void commandsAreRedacted();
    void logFileIsPrivateAndCapped();
};

void TestLogging::commandsAreRedacted_data()
{
    QTest::addColumn<QStringList>("argv");
    QTest::addColumn<QString>("logged");
    QTest::newRow("fixed words stay") << QStringList{"sbatch", "--version"} << "sbatch --version";
    QTest::newRow("job ids stay") << QStringList{"scancel", "4711"} << "scancel 4711";
    QTest::newRow("paths go") << QStringList{"rm", "-rf", "--", "/home/researcher/.scalelab/runs/sl-0123456789abcdef"}
                              << "rm -rf -- <…>";
    QTest::newRow("option values of the researcher go")
        << QStringList{"sbatch", "--test-only", "--chdir=/home/researcher/study", "job.sbatch"}
        << "sbatch --test-only --chdir=<…> <…>";
    QTest::newRow("a shell body is only its size")
        << QStringList{"sh", "-c", "cd /home/researcher/x && sbatch job"} << "sh -c <35-byte script>";
    // The env prefix of every query keeps its own variable names and the program.
    QTest::newRow("query through env")
        << SlurmClient::queryArgv({"sacct", "--jobs=101,102", "--name=a-researchers-job"})
        << "env -u SQUEUE_FORMAT -u SQUEUE_FORMAT2 -u SQUEUE_SORT -u SQUEUE_STATES -u SQUEUE_ALL -u SQUEUE_ARRAY "
           "-u SQUEUE_NAMES -u SQUEUE_PARTITION -u SQUEUE_QOS -u SQUEUE_ACCOUNT -u SQUEUE_USERS -u SQUEUE_LICENSES "
           "-u SACCT_FORMAT -u SACCT_FEDERATION -u SACCT_LOCAL -u SINFO_FORMAT -u SINFO_SORT -u SINFO_PARTITION "
           "SLURM_TIME_FORMAT=standard sacct --jobs=101,102 --name=<…>";
    QTest::newRow("env with a value of the researcher")
        << QStringList{"env", "SECRET_PATH=/home/researcher/key", "squeue", "--me"}
        << "env SECRET_PATH=<…> squeue --me";
}

void TestLogging::commandsAreRedacted()
{
    QFETCH(QStringList, argv);
    QFETCH(QString, logged);
    QCOMPARE(redactedCommand(argv), logged);
}

void TestLogging::logFileIsPrivateAndCapped()
{
    QTemporaryDir state;
    const QString logPath = state.filePath(QStringLiteral("ScaleLab/scalelab.log"));
    LogFile::install(logPath, 8192);
    QCOMPARE(LogFile::path(), logPath);
    QCOMPARE(QFileInfo(logPath).permissions()
                 & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther),
             QFileDevice::Permissions());
    QCOMPARE(QFileInfo(QFileInfo(logPath).absolutePath()).permissions()
                 & (QFile::ReadOther | QFile::ExeOther | QFile::ReadGroup),
             QFileDevice::Permissions());
    for (int i = 0; i < 400; ++i)
        qCInfo(lcSlurm, "line %d of a long poll history", i);
    QVERIFY(QFileInfo(logPath).size() <= 8192);
    QVERIFY(QFileInfo::exists(logPath + QStringLiteral(".1")));
    QVERIFY(QFileInfo(logPath + QStringLiteral(".1")).size() <= 8192);
    QCOMPARE(QFileInfo(logPath + QStringLiteral(".1")).permissions() & (QFile::ReadGroup | QFile::ReadOther),
             QFileDevice::Permissions());
    QVERIFY2(LogFile::tail().contains(QLatin1String("scalelab.slurm info: line 399 of a long poll history\n")),
             qPrintable(LogFile::tail()));
    QVERIFY(!LogFile::tail().contains(QLatin1String("line 0 of")));
    // QT_LOGGING_RULES (here set the same way) switches a category off.
    QLoggingCategory::setFilterRules(QStringLiteral("scalelab.slurm.info=false"));
    qCInfo(lcSlurm, "must not be written");
    qCInfo(lcStore, "the store still writes");
    QLoggingCategory::setFilterRules(QString());
    QVERIFY(!LogFile::tail().contains(QLatin1String("must not be written")));
    QVERIFY(LogFile::tail().contains(QLatin1String("scalelab.store info: the store still writes\n")));
}

QTEST_GUILESS_MAIN(TestLogging)
#include "tst_logging.moc"
