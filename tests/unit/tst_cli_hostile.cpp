// SPDX-License-Identifier: GPL-3.0-or-later
// The real `scalelab` executable facing hostile files (issue 11): it never
// aborts, names the file and line, exits 2 for unusable input, and one broken
// profile never hides the others.
#include "CliRunner.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace scalelab::test;

namespace {

bool write(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

}   // namespace

class TestCliHostile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("profiles"))));
        m_env.insert(QStringLiteral("SCALELAB_DATA_DIR"), m_dir.filePath(QStringLiteral("data")));
        m_env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        m_env.insert(QStringLiteral("SCALELAB_USER_PROFILE_DIR"), m_dir.filePath(QStringLiteral("profiles")));
    }

    // F1: `scalelab render` used to abort with exit 134.
    void renderRefusesAnOverflowingNumber()
    {
        const QString spec = m_dir.filePath(QStringLiteral("spec.json"));
        QVERIFY(
            write(spec, "{\n  \"profile\": \"testbed\",\n  \"gpus\": 1e999,\n  \"framework\": \"pytorch-ddp\"\n}\n"));
        const CliRun r = runCli({QStringLiteral("render"), spec}, m_env);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.out, QString());
        QCOMPARE(r.err, QStringLiteral("scalelab: %1:3:11: malformed JSON: number overflow parsing '1e999': the number "
                                       "is too large; write a smaller value\n")
                            .arg(spec));
    }

    // F1 and "one bad profile never hides the good ones".
    void profilesListsTheGoodAndReportsTheBad()
    {
        const QString bad = m_dir.filePath(QStringLiteral("profiles/overflow.json"));
        QVERIFY(write(bad, "{\"id\": \"bad\", \"name\": 1e400}"));
        const CliRun r = runCli({QStringLiteral("profiles")}, m_env);
        QFile::remove(bad);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QLatin1String("testbed  ")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("puhti  CSC Puhti")), qPrintable(r.out));
        QCOMPARE(r.err, QStringLiteral("scalelab: error: %1:1:23: malformed JSON: number overflow parsing '1e400': the "
                                       "number is too large; write a smaller value\n")
                            .arg(bad));
        const CliRun clean = runCli({QStringLiteral("profiles")}, m_env);
        QCOMPARE(clean.exitCode, 0);
        QCOMPARE(clean.err, QString());
    }

    void lintRefusesAFileOverTheCap()
    {
        const QString script = m_dir.filePath(QStringLiteral("huge.sbatch"));
        QVERIFY(write(script, "#!/bin/bash\n" + QByteArray(16 * 1024 * 1024, '#')));
        const CliRun r =
            runCli({QStringLiteral("lint"), script, QStringLiteral("--profile"), QStringLiteral("puhti")}, m_env);
        QFile::remove(script);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QStringLiteral("scalelab: %1: this input is larger than 16 MB, the most ScaleLab reads; it "
                                       "cannot be a real input. Check that the right file was chosen.\n")
                            .arg(script));
    }

    // F2 at the size of a real mistake multiplied: 1 MB of unclosed $( lines,
    // findings capped at 200 with the rest counted.
    void lintOfAMegabyteOfUnclosedQuotes()
    {
        const QString script = m_dir.filePath(QStringLiteral("unclosed.sbatch"));
        QByteArray text = "#!/bin/bash\n#SBATCH --time=01:00:00\n";
        while (text.size() < 1024 * 1024)
            text += "echo \"$(date\n";
        QVERIFY(write(script, text));
        const int lines = int(text.count('\n'));
        const CliRun r =
            runCli({QStringLiteral("lint"), script, QStringLiteral("--profile"), QStringLiteral("puhti")}, m_env);
        QCOMPARE(r.exitCode, 1);
        const QStringList out = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(out.size(), 202);   // 200 findings, the count of the rest, the summary
        // The unclosed substitution on line 3 is reported (other findings may come first).
        const auto unclosed = std::find_if(out.begin(), out.begin() + 200, [](const QString &l) {
            return l.contains(QLatin1String(":3:")) && l.contains(QLatin1String("never closed"));
        });
        QVERIFY2(unclosed != out.begin() + 200, qPrintable(out.mid(0, 3).join(QLatin1Char('\n'))));
        QVERIFY2(out[200].contains(QStringLiteral("more findings are not shown (at most 200 per file)")),
                 qPrintable(out[200]));
        QVERIFY2(lines > 70000, "the script is as long as intended");
    }

private:
    QTemporaryDir m_dir;
    QProcessEnvironment m_env;
};

QTEST_GUILESS_MAIN(TestCliHostile)
#include "tst_cli_hostile.moc"
