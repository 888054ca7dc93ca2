// SPDX-License-Identifier: GPL-3.0-or-later
// Every file the `scalelab` executable reads goes through one reader
// (InputLimits): a FIFO, a device or a folder given where a file is meant is
// refused by its type with exit 2 (a FIFO without a writer used to hang the
// command), stdin has a time cap, quoted input is cut, UTF-16 and NUL bytes
// are named, and a researcher's regexes run in linear time (RE2). Each run
// has a generous wait: a hang shows as that wait failing, not as a slow test.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

namespace {

constexpr int kGenerousWaitMs = 120000;

struct Run {
    bool finished = false;   // false: still running after the wait (a hang)
    int exitCode = -1;
    QString out;
    QString err;
};

QProcessEnvironment baseEnv(const QTemporaryDir &dir)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("SCALELAB_DATA_DIR"), dir.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_STATE_HOME"), dir.filePath(QStringLiteral("state")));
    env.insert(QStringLiteral("HOME"), dir.filePath(QStringLiteral("home")));
    env.insert(QStringLiteral("SCALELAB_USER_PROFILE_DIR"), dir.filePath(QStringLiteral("profiles")));
    return env;
}

// Runs scalelab; `stdinData` nullopt leaves stdin open and silent.
Run runScalelab(const QStringList &args, const QProcessEnvironment &env,
                const std::optional<QByteArray> &stdinData = QByteArray())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SCALELAB_BINARY), args);
    Run r;
    if (!p.waitForStarted())
        return r;
    if (stdinData) {
        p.write(*stdinData);
        p.closeWriteChannel();
    }
    r.finished = p.waitForFinished(kGenerousWaitMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished();
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

bool write(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

QString logFile()
{
    return QStringLiteral(SCALELAB_TEST_DATA_DIR "/ingest/slurm-95659.out");
}

}   // namespace

class TestCliInputs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        for (const char *sub : {"data", "config", "state", "home", "profiles", "folder"}) {
            QVERIFY(QDir().mkpath(m_dir.filePath(QLatin1String(sub))));
            QVERIFY(QFile::setPermissions(m_dir.filePath(QLatin1String(sub)),
                                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        }
        m_fifo = m_dir.filePath(QStringLiteral("fifo"));
        QCOMPARE(QProcess::execute(QStringLiteral("mkfifo"), {m_fifo}), 0);
        m_env = baseEnv(m_dir);
    }

    void specialFilesAreRefusedByType_data()
    {
        QTest::addColumn<QStringList>("args");   // "@" is the special file
        QTest::addColumn<QString>("special");
        QTest::addColumn<QString>("named");
        const QList<std::pair<const char *, QString>> specials = {
            {"fifo", QStringLiteral("it is a named pipe (FIFO), not a regular file")},
            {"/dev/zero", QStringLiteral("it is a device, not a regular file")},
            {"folder", QStringLiteral("it is a folder, not a file")},
        };
        const QList<std::pair<const char *, QStringList>> commands = {
            {"render", {QStringLiteral("render"), QStringLiteral("@")}},
            {"lint",
             {QStringLiteral("lint"), QStringLiteral("@"), QStringLiteral("--profile"), QStringLiteral("puhti")}},
            {"submit", {QStringLiteral("submit"), QStringLiteral("--dry-run"), QStringLiteral("@")}},
            {"metrics", {QStringLiteral("metrics"), QStringLiteral("@")}},
            {"metrics --patterns",
             {QStringLiteral("metrics"), logFile(), QStringLiteral("--patterns"), QStringLiteral("@")}},
            {"screenshot --spec",
             {QStringLiteral("--screenshot"), QStringLiteral("shot.png"), QStringLiteral("--spec"),
              QStringLiteral("@")}},
            {"ssh config",
             {QStringLiteral("discover"), QStringLiteral("cluster"), QStringLiteral("--ssh-config"),
              QStringLiteral("@")}},
        };
        for (const auto &[name, args] : commands)
            for (const auto &[special, named] : specials)
                // --ssh-config is checked by the command itself before the reader sees it.
                QTest::addRow("%s %s", name, special)
                    << args << QString::fromLatin1(special)
                    << (qstrcmp(name, "ssh config") == 0
                            ? QStringLiteral("is not a file: give your OpenSSH config file")
                        // metrics reads a folder for the frameworks' metric files
                        : qstrcmp(name, "metrics") == 0 && qstrcmp(special, "folder") == 0
                            ? QStringLiteral("no metric file found")
                            : named);
    }

    void specialFilesAreRefusedByType()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, special);
        QFETCH(QString, named);
        const QString path = special.startsWith(u'/') ? special : m_dir.filePath(special);
        args.replaceInStrings(QRegularExpression(QStringLiteral("^@$")), path);
        args.replaceInStrings(QRegularExpression(QStringLiteral("^shot.png$")),
                              m_dir.filePath(QStringLiteral("shot.png")));
        const Run r = runScalelab(args, m_env);
        QVERIFY2(r.finished, "scalelab did not finish: it waited on the special file");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(path) && r.err.contains(named), qPrintable(r.err));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("shot.png"))));
    }

    // A profile folder holding a FIFO, a link to /dev/zero and a folder named
    // like profiles: each is named, the shipped profiles are still listed.
    void profileFolderWithSpecialFiles()
    {
        QTemporaryDir dir;
        QProcessEnvironment env = m_env;
        env.insert(QStringLiteral("SCALELAB_USER_PROFILE_DIR"), dir.path());
        QCOMPARE(QProcess::execute(QStringLiteral("mkfifo"), {dir.filePath(QStringLiteral("pipe.json"))}), 0);
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), dir.filePath(QStringLiteral("zero.json"))));
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("folder.json"))));
        const Run r = runScalelab({QStringLiteral("profiles")}, env);
        QVERIFY2(r.finished, "scalelab profiles did not finish: it waited on a special file");
        QCOMPARE(r.exitCode, 1);   // errors found; the good profiles are listed
        QVERIFY2(r.out.contains(QLatin1String("puhti")), qPrintable(r.out));
        for (const char *name : {"pipe.json", "zero.json"})
            QVERIFY2(r.err.contains(dir.filePath(QLatin1String(name))), qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("named pipe (FIFO)")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("it is a device")), qPrintable(r.err));
    }

    // known_hosts is read by libssh during the key exchange: a FIFO there
    // used to hang the connection once a server answered.
    void knownHostsFifoIsRefused()
    {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        connect(&server, &QTcpServer::newConnection, &server, [&server] {
            while (QTcpSocket *s = server.nextPendingConnection())
                s->write("SSH-2.0-OpenSSH_9.2\r\n");
        });
        const QString config = m_dir.filePath(QStringLiteral("ssh_config"));
        QVERIFY(write(config, QStringLiteral("Host cluster\n  HostName 127.0.0.1\n  Port %1\n  User researcher\n"
                                             "  UserKnownHostsFile %2\n")
                                  .arg(server.serverPort())
                                  .arg(m_fifo)
                                  .toUtf8()));
        QProcess p;
        p.setProcessEnvironment(m_env);
        p.start(QStringLiteral(SCALELAB_BINARY),
                {QStringLiteral("discover"), QStringLiteral("cluster"), QStringLiteral("--ssh-config"), config});
        QVERIFY(p.waitForStarted());
        // The server needs this thread's event loop while scalelab runs.
        QEventLoop loop;
        connect(&p, &QProcess::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(kGenerousWaitMs, &loop, &QEventLoop::quit);
        if (p.state() != QProcess::NotRunning)
            loop.exec();
        const bool finished = p.state() == QProcess::NotRunning;
        if (!finished) {
            p.kill();
            p.waitForFinished();
        }
        QVERIFY2(finished, "scalelab discover did not finish: it waited on the known_hosts FIFO");
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(err.contains(m_fifo) && err.contains(QLatin1String("named pipe (FIFO)")), qPrintable(err));
    }

#ifdef SCALELAB_TEST_HOOKS
    // stdin that stays open and silent: given up on after the idle cap (one
    // minute; the test hook sets half a second).
    void silentStdinIsGivenUpOn()
    {
        QProcessEnvironment env = m_env;
        env.insert(QStringLiteral("SCALELAB_TEST_STREAM_IDLE_MS"), QStringLiteral("500"));
        const Run r = runScalelab({QStringLiteral("render"), QStringLiteral("-")}, env, std::nullopt);
        QVERIFY2(r.finished, "scalelab render - did not finish: it waited on stdin for ever");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("<stdin>: the input sent nothing for 0.5 s (0 bytes read)")),
                 qPrintable(r.err));
    }
#endif

    // A 15 MB number used to be quoted whole: a 15 MB error line.
    void hugeNumberGivesAShortErrorLine()
    {
        const QString spec = m_dir.filePath(QStringLiteral("huge-number.json"));
        QVERIFY(
            write(spec, "{\n  \"profile\": \"puhti\",\n  \"gpus\": " + QByteArray(15 * 1024 * 1024, '7') + "\n}\n"));
        const Run r = runScalelab({QStringLiteral("render"), spec}, m_env);
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.size() < 600, qPrintable(r.err.left(600)));
        QVERIFY2(r.err.contains(QLatin1String("number overflow parsing '777")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("... (%1 more characters)'").arg(15 * 1024 * 1024 - 120)),
                 qPrintable(r.err));
    }

    // A value of a megabyte in a spec is quoted cut in the validator's findings.
    void longValuesGiveShortErrorLines_data()
    {
        QTest::addColumn<QString>("field");
        for (const char *field : {"partition", "account", "time", "memory"})
            QTest::newRow(field) << QString::fromLatin1(field);
    }

    void longValuesGiveShortErrorLines()
    {
        QFETCH(QString, field);
        const QString spec = m_dir.filePath(QStringLiteral("long-value.json"));
        QVERIFY(write(spec, "{\"profile\": \"puhti\", \"gpus\": 1, \"framework\": \"pytorch-ddp\", \"" + field.toUtf8()
                                + "\": \"" + QByteArray(1024 * 1024, 'x') + "\"}\n"));
        const Run r = runScalelab({QStringLiteral("render"), spec}, m_env);
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("... (%1 more characters)").arg(1024 * 1024 - 120)),
                 qPrintable(r.err.left(2000)));
        QVERIFY2(r.err.size() < 2000, qPrintable(r.err.left(2000)));
    }

    void utf16AndNulAreNamed_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const QByteArray specText = "{\"profile\": \"puhti\", \"gpus\": 1}\n";
        QByteArray le("\xff\xfe", 2), be("\xfe\xff", 2), bare;
        for (char c : specText) {
            le += c;
            le += '\0';
            be += '\0';
            be += c;
            bare += c;
            bare += '\0';
        }
        const QStringList render{QStringLiteral("render"), QStringLiteral("@")};
        QTest::newRow("UTF-16LE") << render << le
                                  << "@:1: this input is UTF-16 text (it starts with a UTF-16 byte-order mark); "
                                     "ScaleLab reads UTF-8: convert it (iconv -f UTF-16 -t UTF-8 FILE > NEW)";
        QTest::newRow("UTF-16BE") << render << be << "@:1: this input is UTF-16 text";
        QTest::newRow("UTF-16 without mark") << render << bare << "@:1: this input looks like UTF-16 text";
        QTest::newRow("NUL in a script") << QStringList{QStringLiteral("lint"), QStringLiteral("@"),
                                                        QStringLiteral("--profile"), QStringLiteral("puhti")}
                                         << QByteArray("#!/bin/bash\n#SBATCH -p gpu\nsrun python\0 train.py\n", 49)
                                         << "@:3: line 3 holds a NUL byte (column 12): this input is not plain text";
        QTest::newRow("UTF-16 patterns") << QStringList{QStringLiteral("metrics"), logFile(),
                                                        QStringLiteral("--patterns"), QStringLiteral("@")}
                                         << le << "@:1: this pattern file is UTF-16 text";
        QTest::newRow("UTF-16 log") << QStringList{QStringLiteral("metrics"), QStringLiteral("@")} << le
                                    << "@:1: this job output is UTF-16 text";
    }

    void utf16AndNulAreNamed()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const QString path = m_dir.filePath(QStringLiteral("encoded.txt"));
        QVERIFY(write(path, bytes));
        args.replaceInStrings(QRegularExpression(QStringLiteral("^@$")), path);
        const Run r = runScalelab(args, m_env);
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.replace(u'@', path)), qPrintable(r.err));
    }

    // `(a+)+$` backtracks exponentially in PCRE (over a minute on these
    // lines); RE2 reads each line once.
    void userRegexRunsInLinearTime()
    {
        const QString log = m_dir.filePath(QStringLiteral("aaaa.out"));
        QByteArray text;
        for (int i = 0; i < 20000; ++i)
            text += "value " + QByteArray(40, 'a') + "!\n";
        text += "value 42\n";
        QVERIFY(write(log, text));
        const QString patterns = m_dir.filePath(QStringLiteral("slow.json"));
        QVERIFY(write(patterns, R"json([{"name": "a_runs", "regex": "value (a+)+$"},
                                        {"name": "value", "regex": "value (?<v>[0-9]+)"}])json"));
        const Run r = runScalelab({QStringLiteral("metrics"), log, QStringLiteral("--patterns"), patterns}, m_env);
        QVERIFY2(r.finished, "the user regex did not finish: it backtracked");
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\\nvalue +42 "))), qPrintable(r.out));
    }

    void userRegexLimits_data()
    {
        QTest::addColumn<QByteArray>("patterns");
        QTest::addColumn<QString>("message");
        QTest::newRow("backreference")
            << QByteArray(R"json([{"name": "loss", "regex": "(loss) \\1 ([0-9.]+)"}])json")
            << "metric 'loss': the regex (loss) \\1 ([0-9.]+) uses a backreference (\\1, \\k<name>), which ScaleLab "
               "does not run";
        QTest::newRow("lookahead") << QByteArray(R"json([{"name": "loss", "regex": "loss(?= ) ([0-9.]+)"}])json")
                                   << "metric 'loss': the regex loss(?= ) ([0-9.]+) uses a lookahead or lookbehind";
        QTest::newRow("too long") << QByteArray(R"json([{"name": "loss", "regex": "loss ([0-9.]+))json")
                                         + QByteArray(1000, 'x') + QByteArray(R"json("}])json")
                                  << "characters long; ScaleLab takes at most 1000: shorten it";
        QByteArray many = "[";
        for (int i = 0; i < 150; ++i)
            many += QStringLiteral("%1{\"name\": \"m%2\", \"regex\": \"m%2 ([0-9]+)\"}")
                        .arg(i ? QStringLiteral(",") : QString())
                        .arg(i)
                        .toUtf8();
        many += "]";
        QTest::newRow("too many") << many
                                  << "metricPatterns[100] and the 49 after it are left out: ScaleLab reads at most "
                                     "100 patterns";
    }

    void userRegexLimits()
    {
        QFETCH(QByteArray, patterns);
        QFETCH(QString, message);
        const QString path = m_dir.filePath(QStringLiteral("limits.json"));
        QVERIFY(write(path, patterns));
        const Run r = runScalelab({QStringLiteral("metrics"), logFile(), QStringLiteral("--patterns"), path}, m_env);
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY2(r.err.size() < 2000, qPrintable(r.err.left(2000)));
    }

private:
    QTemporaryDir m_dir;
    QString m_fifo;
    QProcessEnvironment m_env;
};

QTEST_GUILESS_MAIN(TestCliInputs)
#include "tst_cli_inputs.moc"
