// SPDX-License-Identifier: GPL-3.0-or-later
// Quoting is checked by real shells: whatever the word, the shell must hand
// it back unchanged and run nothing embedded in it.
#include "core/base/ShellQuote.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;

class TestShellQuote : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data();
    void roundTrip();
    void variablesExpandButNothingElse();
    void remoteSafety();
};

void TestShellQuote::roundTrip_data()
{
    QTest::addColumn<QString>("shell");
    QTest::addColumn<QString>("word");
    const QStringList words = {QStringLiteral("plain"),
                               QStringLiteral("two words"),
                               QStringLiteral("it's"),
                               QStringLiteral("\"double\""),
                               QStringLiteral("$(touch CANARY)"),
                               QStringLiteral("`touch CANARY`"),
                               QStringLiteral("; touch CANARY"),
                               QStringLiteral("a && touch CANARY"),
                               QStringLiteral("| touch CANARY"),
                               QStringLiteral("*"),
                               QStringLiteral("~"),
                               QStringLiteral("back\\slash"),
                               QStringLiteral("-n"),
                               QStringLiteral("%s %d"),
                               QStringLiteral("ünïcødé ✓"),
                               QStringLiteral("'\"'\"'"),
                               QStringLiteral("trailing\\"),
                               QStringLiteral("\\'"),
                               QStringLiteral("=cmd"),
                               QStringLiteral("a=b")};
    for (const char *sh : {"sh", "bash", "dash", "zsh", "fish", "tcsh"}) {
        if (QStandardPaths::findExecutable(QString::fromLatin1(sh)).isEmpty())
            continue;
        for (const auto &w : words)
            QTest::addRow("%s: %s", sh, qPrintable(w)) << QString::fromLatin1(sh) << w;
    }
}

void TestShellQuote::roundTrip()
{
    QFETCH(QString, shell);
    QFETCH(QString, word);
    QTemporaryDir dir;
    QProcess p;
    p.setWorkingDirectory(dir.path());
    p.start(shell, {QStringLiteral("-c"), QStringLiteral("printf '%s' ") + ShellQuote::quote(word)});
    QVERIFY(p.waitForFinished());
    QCOMPARE(QString::fromUtf8(p.readAllStandardOutput()), word);
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("CANARY"))));
}

void TestShellQuote::variablesExpandButNothingElse()
{
    QTemporaryDir dir;
    auto run = [&](const QString &value) {
        QProcess p;
        p.setWorkingDirectory(dir.path());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SL_NAME"), QStringLiteral("researcher"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("bash"),
                {QStringLiteral("-c"),
                 QStringLiteral("X=%1; printf '%s' \"$X\"").arg(ShellQuote::quoteExpandingVariables(value))});
        p.waitForFinished();
        return QString::fromUtf8(p.readAllStandardOutput());
    };
    QCOMPARE(run(QStringLiteral("/tmp/$SL_NAME/db")), QStringLiteral("/tmp/researcher/db"));
    QCOMPARE(run(QStringLiteral("${SL_NAME}-x")), QStringLiteral("researcher-x"));
    QCOMPARE(run(QStringLiteral("$(touch CANARY)")), QStringLiteral("$(touch CANARY)"));
    QCOMPARE(run(QStringLiteral("`touch CANARY`")), QStringLiteral("`touch CANARY`"));
    QCOMPARE(run(QStringLiteral("${X:-$(touch CANARY)}")), QStringLiteral("${X:-$(touch CANARY)}"));
    QCOMPARE(run(QStringLiteral("say \"hi\" \\n $5")), QStringLiteral("say \"hi\" \\n $5"));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("CANARY"))));
}

void TestShellQuote::remoteSafety()
{
    QVERIFY(!ShellQuote::isSafeForRemote(QStringLiteral("a\nb")));
    QVERIFY(!ShellQuote::isSafeForRemote(QStringLiteral("!!")));
    QVERIFY(ShellQuote::isSafeForRemote(QStringLiteral("$(x) 'y'")));
    QCOMPARE(ShellQuote::join({QStringLiteral("squeue"), QStringLiteral("--format=%i|%T")}),
             QStringLiteral("squeue '--format=%i|%T'"));
}

QTEST_GUILESS_MAIN(TestShellQuote)
#include "tst_shellquote.moc"
