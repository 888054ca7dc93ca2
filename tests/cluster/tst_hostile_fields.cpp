// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile strings in every user field of a job spec, submitted through the
// real `scalelab` CLI under all five login shells (bash, dash, zsh, fish,
// tcsh): the job must run the program at its hostile path with the exact
// arguments and environment values, Slurm must hold the sanitized job name,
// and none of the canary files the strings try to create may exist anywhere
// (/tmp, /home). Module names with shell characters are refused before
// anything is sent. Needs `tests/cluster/testcluster up`; fails without it.
#include "CliRunner.h"
#include "TestClusterEnv.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using scalelab::test::runCli;

namespace {

struct Shell {
    QString alias;
    QString user;
};

const QList<Shell> &shells()
{
    static const QList<Shell> s{{"testbed", "researcher"},
                                {"testbed-dash", "sl-dash"},
                                {"testbed-zsh", "sl-zsh"},
                                {"testbed-fish", "sl-fish"},
                                {"testbed-tcsh", "sl-tcsh"}};
    return s;
}

// What SbatchRenderer promises for --job-name: letters, digits, - _ . kept
// (ASCII only), everything else one '_' per UTF-16 unit, at most 128.
QString sanitizedJobName(const QString &name)
{
    QString out;
    for (QChar c : name.trimmed())
        out += ((c.isLetterOrNumber() && c.unicode() < 128) || c == '-' || c == '_' || c == '.') ? c : QChar('_');
    return out.left(128);
}

QString runLocal(const QString &program, const QStringList &args, int *exitCode = nullptr)
{
    QProcess p;
    p.setStandardInputFile(QProcess::nullDevice());
    p.start(program, args);
    p.waitForFinished(60000);
    if (exitCode)
        *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
}

}   // namespace

class TestHostileFields : public QObject {
    Q_OBJECT

    scalelab::test::TestClusterEnv m_env;
    QTemporaryDir m_data;
    QTemporaryDir m_specs;
    QString m_programDir;
    QString m_program;
    QString m_canary;   // every canary file name starts with this
    QStringList m_args;
    QList<QPair<QString, QString>> m_vars;
    QString m_jobName;

    QStringList canaries() const
    {
        QStringList found;
        const QString prefix = QFileInfo(m_canary).fileName();
        for (const QString &root : {QStringLiteral("/tmp"), QStringLiteral("/home")}) {
            QDirIterator it(root, {prefix + QLatin1Char('*')}, QDir::AllEntries | QDir::Hidden | QDir::System,
                            QDirIterator::Subdirectories);
            while (it.hasNext())
                found << it.next();
        }
        return found;
    }

    QString writeSpec(const QString &name, const QJsonObject &environment)
    {
        QJsonArray args;
        for (const QString &a : m_args)
            args << a;
        const QJsonObject spec{{"profile", "testbed"},
                               {"partition", "gputest"},
                               {"gpus", 1},
                               {"framework", "pytorch-ddp"},
                               {"launcher", "srun"},
                               {"time", "00:05:00"},
                               {"account", "project_2001234"},
                               {"jobName", m_jobName},
                               {"cpusPerGpu", 1},
                               {"memory", "500M"},
                               {"program", m_program},
                               {"args", args},
                               {"environment", environment},
                               {"monitoring", QJsonObject{{"gpuSampleSeconds", 0}}}};
        const QString path = m_specs.filePath(name + QStringLiteral(".json"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(QJsonDocument(spec).toJson());
        return path;
    }

    // `status` polls every cluster alias and fetches finished runs.
    QMap<qint64, QJsonObject> waitUntilEnded(const QList<qint64> &ids, int seconds)
    {
        QElapsedTimer t;
        t.start();
        QMap<qint64, QJsonObject> last;
        while (t.elapsed() < seconds * 1000) {
            runCli({QStringLiteral("status")});
            bool all = true;
            for (const auto &v : runsJson()) {
                const QJsonObject o = v.toObject();
                const qint64 id = o.value("id").toInteger();
                if (!ids.contains(id))
                    continue;
                last.insert(id, o);
                const QString st = o.value("state").toString();
                all = all && (st == "COMPLETED" || st == "FAILED" || st == "CANCELLED" || st == "TIMEOUT");
            }
            if (all && last.size() == ids.size())
                break;
            QThread::msleep(2000);
        }
        return last;
    }

    QJsonArray runsJson()
    {
        const auto r = runCli({QStringLiteral("runs"), QStringLiteral("--json")});
        return QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("runs")).toArray();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_env = scalelab::test::TestClusterEnv::load();
        QVERIFY2(m_env.ok(), qPrintable(m_env.error));
        QVERIFY(m_data.isValid() && m_specs.isValid());
        qputenv("SCALELAB_DATA_DIR", m_data.path().toUtf8());
        const qint64 pid = QCoreApplication::applicationPid();
        m_canary = QStringLiteral("/tmp/scalelab-canary-%1").arg(pid);
        const QString c = m_canary;
        const QString rel = QFileInfo(m_canary).fileName();   // lands in the working directory if run

        // The program: world-readable and executable, in a directory and under
        // a file name full of shell syntax. It prints its path, argv and env.
        m_programDir = QStringLiteral("/tmp/scalelab-hostile-%1 $(touch %2-dir) 'q'").arg(pid).arg(rel);
        QVERIFY(QDir().mkpath(m_programDir));
        m_program = m_programDir + QStringLiteral("/prog $(touch %1-p1) `touch %1-p2` 'q' \"d\" ;&|*~ äö").arg(rel);
        QFile prog(m_program);
        QVERIFY(prog.open(QIODevice::WriteOnly));
        prog.write(
            "#!/bin/bash\n"
            "printf 'PROG=<%s>\\n' \"$0\"\n"
            "i=0; for a in \"$@\"; do printf 'ARG[%d]=<%s>\\n' \"$i\" \"$a\"; i=$((i+1)); done\n"
            "printf 'ARGC=%d\\n' \"$#\"\n"
            "for n in $(compgen -e | grep '^HOSTILE_' | sort); do printf 'ENV[%s]=<%s>\\n' \"$n\" \"${!n}\"; done\n");
        prog.close();
        const auto rx = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                        | QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther
                        | QFileDevice::ExeOther;
        QVERIFY(QFile::setPermissions(m_program, rx));
        QVERIFY(QFile::setPermissions(m_programDir, rx));

        m_args = {QStringLiteral("$(touch %1-a1)").arg(c),
                  QStringLiteral("`touch %1-a2`").arg(c),
                  QStringLiteral("'; touch %1-a3; '").arg(c),
                  QStringLiteral("\"; touch %1-a4; \"").arg(c),
                  QStringLiteral("\"$(id)\""),
                  QStringLiteral("&& touch %1-a5").arg(c),
                  QStringLiteral("| tee %1-a6").arg(c),
                  QStringLiteral("> %1-a7").arg(c),
                  QStringLiteral("${IFS}$((1+1))${HOME:-$(touch %1-a8)}").arg(c),
                  QStringLiteral("$'\\x41' \\ \\\\ \\n"),
                  QStringLiteral("! !! !$ !-1"),
                  QStringLiteral("%j %u %% %x"),
                  QStringLiteral("* ? [a-z] ~ ~root $HOME"),
                  QStringLiteral("-n"),
                  QStringLiteral("--"),
                  QString(),
                  QStringLiteral("  spaces  inside  "),
                  QStringLiteral("ääkköset ✓ 日本語 🚀"),
                  QStringLiteral("'\"'\"'"),
                  QStringLiteral("a\tb")};
        // $NAME inside an environment value expands by design (e.g. /tmp/$USER); everything else stays literal.
        m_vars = {{"HOSTILE_01", QStringLiteral("$(touch %1-e1)").arg(c)},
                  {"HOSTILE_02", QStringLiteral("`touch %1-e2`").arg(c)},
                  {"HOSTILE_03", QStringLiteral("'; touch %1-e3; '").arg(c)},
                  {"HOSTILE_04", QStringLiteral("\"; touch %1-e4; \"").arg(c)},
                  {"HOSTILE_05", QStringLiteral("\"$(id)\" && touch %1-e5 | tee %1-e6").arg(c)},
                  {"HOSTILE_06", QStringLiteral("${x:-$(touch %1-e7)} $((1+1)) $1 $@ $$").arg(c)},
                  {"HOSTILE_07", QStringLiteral("\\ \\\\ \\\" ! % * ~ ? [x]")},
                  {"HOSTILE_08", QStringLiteral("ääkköset ✓ 日本語 🚀")},
                  {"HOSTILE_09", QStringLiteral("")}};
        m_jobName = QStringLiteral("a researcher's $(touch %1-j1) `touch %1-j2` ; job | x && y * ~ ! % äö").arg(c);
        QVERIFY2(canaries().isEmpty(), qPrintable(canaries().join('\n')));
        // The detector itself finds a canary, in /tmp and in a home directory.
        for (const QString &probe : {m_canary + "-selfcheck", "/home/researcher/" + rel + "-selfcheck"}) {
            QFile f(probe);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.close();
            const QStringList seen = canaries();
            QFile::remove(probe);
            QVERIFY2(seen == QStringList{probe}, qPrintable(seen.join('\n')));
        }
    }

    void everyShellUserHasAnAssociation()
    {
        int rc = -1;
        const QString out = runLocal(QStringLiteral("sacctmgr"),
                                     {"-n", "-P", "show", "assoc", "account=project_2001234", "format=user"}, &rc);
        QCOMPARE(rc, 0);
        const QStringList users = out.split('\n', Qt::SkipEmptyParts);
        QStringList missing;
        for (const Shell &s : shells())
            if (!users.contains(s.user))
                missing << s.user;
        QVERIFY2(missing.isEmpty(), qPrintable("no Slurm association in project_2001234 for: " + missing.join(", ")));
    }

    void modulesWithShellCharactersAreRefused()
    {
        const qsizetype before = runsJson().size();
        const QString spec = writeSpec(
            "badmodule", QJsonObject{{"modules", QJsonArray{QStringLiteral("gcc; touch %1-m1").arg(m_canary)}}});
        const auto r =
            runCli({QStringLiteral("submit"), spec, QStringLiteral("--connection"), QStringLiteral("testbed")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("environment.modules"))
                     && r.err.contains(QLatin1String("not a module name")),
                 qPrintable(r.err));
        QCOMPARE(runsJson().size(), before);   // nothing stored, nothing sent
    }

    void hostileFieldsUnderEveryShell()
    {
        QJsonObject vars;
        for (const auto &[k, v] : std::as_const(m_vars))
            vars.insert(k, v);
        const QString spec = writeSpec("hostile", QJsonObject{{"variables", vars}});
        QVERIFY(!spec.isEmpty());

        QMap<qint64, Shell> runs;
        for (const Shell &s : shells()) {
            const auto r = runCli({QStringLiteral("submit"), spec, QStringLiteral("--connection"), s.alias});
            QVERIFY2(r.exitCode == 0, qPrintable(s.alias + ": " + r.out + r.err));
            const auto m = QRegularExpression(QStringLiteral("run (\\d+): submitted as job (\\d+)")).match(r.out);
            QVERIFY2(m.hasMatch(), qPrintable(r.out));
            runs.insert(m.captured(1).toLongLong(), s);
        }

        const QMap<qint64, QJsonObject> last = waitUntilEnded(runs.keys(), 240);

        const QString expectedName = sanitizedJobName(m_jobName);
        for (auto it = runs.cbegin(); it != runs.cend(); ++it) {
            const QString alias = it.value().alias;
            const QJsonObject run = last.value(it.key());
            QVERIFY2(run.value("state").toString() == "COMPLETED",
                     qPrintable(alias + ": " + QJsonDocument(run).toJson()));
            const QString jobId = run.value("jobId").toString();

            // Slurm holds the sanitized name and ran the job as that shell's user.
            int rc = -1;
            const QString acct =
                runLocal(QStringLiteral("sacct"), {"-X", "-n", "-P", "-j", jobId, "--format=JobName,User"}, &rc);
            QCOMPARE(rc, 0);
            QCOMPARE(acct.trimmed(), expectedName + "|" + it.value().user);

            // The fetched output shows every string exactly (one $NAME expanded, below).
            const QString f = runCli({QStringLiteral("fetch"), QString::number(it.key())}).out;
            QFile out(m_data.filePath(QStringLiteral("runs/%1/scalelab-%2.out").arg(it.key()).arg(jobId)));
            QVERIFY2(out.open(QIODevice::ReadOnly), qPrintable(alias + ": no output file; fetch said: " + f));
            const QString text = QString::fromUtf8(out.readAll());
            if (alias == QLatin1String("testbed-fish"))
                qInfo("%s", qPrintable(alias + " output:\n" + text));
            auto expectLine = [&](const QString &line) { return text.split('\n').contains(line); };
            QVERIFY2(expectLine("PROG=<" + m_program + ">"), qPrintable(alias + ":\n" + text));
            QVERIFY2(expectLine(QStringLiteral("ARGC=%1").arg(m_args.size())), qPrintable(alias + ":\n" + text));
            // A $NAME in an argument expands on the cluster as it would in a
            // script (SbatchRenderer's expandingWord): $HOME is the job's home.
            // Nothing else does: no command, glob, tilde or other expansion.
            const QString home = QStringLiteral("/home/") + it.value().user;
            auto shown = [&home](const QString &a) {
                if (a.contains(QLatin1String("$(")) || a.contains(u'`'))
                    return a;
                return QString(a).replace(QLatin1String("$HOME"), home);
            };
            for (int i = 0; i < m_args.size(); ++i)
                QVERIFY2(expectLine(QStringLiteral("ARG[%1]=<%2>").arg(i).arg(shown(m_args[i]))),
                         qPrintable(QStringLiteral("%1: argument %2 <%3> not shown exactly:\n%4")
                                        .arg(alias)
                                        .arg(i)
                                        .arg(m_args[i], text)));
            for (const auto &[k, v] : std::as_const(m_vars))
                QVERIFY2(expectLine(QStringLiteral("ENV[%1]=<%2>").arg(k, v)),
                         qPrintable(QStringLiteral("%1: %2=<%3> not shown exactly:\n%4").arg(alias, k, v, text)));
        }
        const QStringList found = canaries();
        QVERIFY2(found.isEmpty(), qPrintable("canary files were created: " + found.join('\n')));
    }

    // A program given as "$VAR/rest" (a directory the researcher set in the
    // environment section): the variable may expand, the rest must stay literal.
    void programBehindVariable()
    {
        // A name without the syntax-breaking ; & | of m_program, so a shell that
        // reads it runs the substitution (and leaves a canary) instead of failing to parse.
        const QString fileName =
            QStringLiteral("run $(touch %1-v1) `touch %1-v2` x").arg(QFileInfo(m_canary).fileName());
        const QString copy = m_programDir + QLatin1Char('/') + fileName;
        QFile::remove(copy);
        QVERIFY(QFile::copy(m_program, copy));
        QVERIFY(QFile::setPermissions(copy, QFile::permissions(m_program)));
        const QString saved = m_program;
        m_program = QStringLiteral("$HOSTILE_PROGRAM_DIR/") + fileName;
        const QString spec =
            writeSpec("behindvariable", QJsonObject{{"variables", QJsonObject{{"HOSTILE_PROGRAM_DIR", m_programDir}}}});
        m_program = saved;
        const auto r =
            runCli({QStringLiteral("submit"), spec, QStringLiteral("--connection"), QStringLiteral("testbed")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const auto m = QRegularExpression(QStringLiteral("run (\\d+): submitted as job (\\d+)")).match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        const qint64 id = m.captured(1).toLongLong();
        const QJsonObject run = waitUntilEnded({id}, 120).value(id);
        QFile out(m_data.filePath(QStringLiteral("runs/%1/scalelab-%2.out").arg(id).arg(m.captured(2))));
        const QString text =
            out.open(QIODevice::ReadOnly) ? QString::fromUtf8(out.readAll()) : QStringLiteral("(no output)");
        const QStringList found = canaries();
        QVERIFY2(found.isEmpty(),
                 qPrintable("canary files were created by the program path: " + found.join('\n') + "\n" + text));
        QVERIFY2(run.value("state").toString() == "COMPLETED", qPrintable(QJsonDocument(run).toJson() + text));
        QVERIFY2(text.split('\n').contains("PROG=<" + copy + ">"), qPrintable(text));
    }

    void cleanupTestCase()
    {
        if (!m_programDir.isEmpty())
            QDir(m_programDir).removeRecursively();
        if (!m_canary.isEmpty())
            for (const QString &c : canaries())   // left by a failure: do not let them pile up
                QFile::remove(c);
    }
};

QTEST_GUILESS_MAIN(TestHostileFields)
#include "tst_hostile_fields.moc"
