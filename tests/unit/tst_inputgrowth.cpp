// SPDX-License-Identifier: GPL-3.0-or-later
// The inputs that once made ScaleLab crawl (issue 11, F2, F7, F8), sized so
// the old quadratic code needs many minutes. There is no timed assertion: the
// CTest TIMEOUT of this test (tests/CMakeLists.txt) fails it when the work
// grows faster than the input again. tests/bench/bench_growth prints ratios.
#include "ScriptImportFixtures.h"

#include "core/base/InputLimits.h"
#include "core/base/ShellWords.h"
#include "core/scriptimport/NameSuggester.h"
#include "core/scriptimport/SbatchScriptParser.h"
#include "core/scriptimport/ScriptImporter.h"

#include <QtTest>

using namespace scalelab;
using namespace scalelab::testing;

class TestInputGrowth : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // F2: every line opens a $( that never closes (256 KB; 16 KB took 17.6 s).
    void unclosedSubstitutionOnEveryLine()
    {
        QString script = QStringLiteral("#!/bin/bash\n");
        const int lines = 256 * 1024 / 12;
        for (int i = 0; i < lines; ++i)
            script += QStringLiteral("echo $(date\n");
        const ParsedSbatchScript parsed = parseSbatchScript(script);
        int unclosed = 0, budget = 0;
        for (const auto &d : parsed.diagnostics) {
            unclosed += d.rule == QLatin1String("cannot-parse") ? 1 : 0;
            budget += d.rule == QLatin1String("input-too-large") ? 1 : 0;
        }
        QCOMPARE(unclosed, lines);
        QCOMPARE(budget, 1);
        QCOMPARE(parsed.lines.size(), lines);
    }

    // F8: one 4 MB line naming 400 000 different unknown variables.
    void manyDistinctUnresolvedVariables()
    {
        QString line;
        const int names = 400000;
        for (int i = 0; i < names; ++i)
            line += QStringLiteral("$v%1 ").arg(i);
        const ShellLexResult r = lexShell(line);
        QCOMPARE(r.unresolved.size(), names);
        QCOMPARE(r.unresolved.front(), QStringLiteral("v0"));
        QCOMPARE(r.unresolved.back(), QStringLiteral("v399999"));
        QCOMPARE(r.commands.size(), 1);
        QCOMPARE(r.commands.front().words.size(), names);
    }

    // F7: 200 000 #SBATCH options and 200 000 findings after the first
    // command, each once compared with every option.
    void manyOptionsAndManyFindings()
    {
        QString script = QStringLiteral("#!/bin/bash\n");
        const int n = 200000;
        for (int i = 0; i < n; ++i)
            script += QStringLiteral("#SBATCH -J a\n");
        script += QStringLiteral("srun python train.py\n");
        for (int i = 0; i < n; ++i)
            script += QStringLiteral("#SBATCH -J b\n");
        const ScriptImport imp = importSbatchScript(script, fixtureProfile(QStringLiteral("puhti")));
        int after = 0;
        for (const auto &d : imp.diagnostics)
            after += d.rule == QLatin1String("sbatch-after-command") ? 1 : 0;
        QCOMPARE(after, n);
        QCOMPARE(imp.options.size(), n);
        QCOMPARE(imp.spec.jobName, QStringLiteral("a"));
    }

    // Issue 23: 20 000 setup lines (exports of $( )) before the launch; the
    // import summary compared every line with every setup line. A line after
    // the launch that repeats a setup command is left out of the job, and the
    // summary now says so (it took the repeat for the setup line).
    void setupLinesBeforeALaunch()
    {
        QString script = QStringLiteral("#!/bin/bash\n#SBATCH --gres=gpu:v100:1\n");
        const int n = 20000;
        for (int i = 0; i < n; ++i)
            script += QStringLiteral("export VAR_%1=$(hostname) && echo \"$VAR_%1\"\necho $(date\n").arg(i);
        script += QStringLiteral("cd /scratch/run\nsrun python3 train.py\ncd /scratch/run && tar cf out.tar out\n");
        const ScriptImport imp = importSbatchScript(script, fixtureProfile(QStringLiteral("puhti")));
        QCOMPARE(imp.spec.environment.setup.size(), n + 1);
        QCOMPARE(imp.setupLines.size(), n + 1);
        QCOMPARE(imp.setupLines[n - 1], 2 * n + 1);   // the last export
        QCOMPARE(imp.setupLines.back(), 2 * n + 3);   // cd
        QCOMPARE(imp.spec.program, QStringLiteral("train.py"));
        const auto dropped = std::find_if(imp.summary.cbegin(), imp.summary.cend(), [](const Diagnostic &d) {
            return d.rule == QLatin1String("import-dropped") && d.message.startsWith(QLatin1String("Commands"));
        });
        QVERIFY(dropped != imp.summary.cend());
        QCOMPARE(dropped->line, 4);   // the first echo
        QVERIFY2(dropped->message.contains(QLatin1String(": echo, cd.")), qPrintable(dropped->message));
    }

    // Issue 23: did-you-mean among many names. 5000 set names (the old rule
    // gave up above 2000) and a typo of one of them; the work is counted.
    void didYouMeanAmongManyNames()
    {
        QString script = QStringLiteral("#!/bin/bash\n");
        for (int i = 0; i < 5000; ++i)
            script += QStringLiteral("export NAME_%1=%1\n").arg(i);
        script += QStringLiteral("echo \"$NANE_1234\"\n");
        const ScriptImport imp = importSbatchScript(script, fixtureProfile(QStringLiteral("puhti")));
        const auto unset = std::find_if(imp.diagnostics.cbegin(), imp.diagnostics.cend(), [](const Diagnostic &d) {
            return d.rule == QLatin1String("variable-never-set");
        });
        QVERIFY(unset != imp.diagnostics.cend());
        QCOMPARE(unset->severity, Severity::Warning);
        QVERIFY2(unset->message.contains(QLatin1String("Did you mean $NAME_1234")), qPrintable(unset->message));
    }

    // The comparisons stay bounded however many names a script sets: a
    // hundred lookups among 200 000 names of one length (all alike) examine
    // at most the budget, where comparing each with every name took 20 million.
    void didYouMeanWorkIsBounded()
    {
        QSet<QString> names;
        for (int i = 0; i < 200000; ++i)
            names.insert(QStringLiteral("V%1").arg(100000 + i));
        NameSuggester s(names);
        QCOMPARE(s.suggest(QStringLiteral("v123456")), QStringLiteral("V123456"));   // case only: no comparison
        QCOMPARE(s.comparisons(), 0);
        QCOMPARE(s.suggest(QStringLiteral("V12345x")).size(), 7);   // one edit from ten names
        for (int i = 0; i < 100; ++i)
            QVERIFY(s.suggest(QStringLiteral("Wx%1").arg(10000 + i)).isEmpty());   // two edits from any
        QCOMPARE(s.comparisons(), NameSuggester::kMaxComparisons);
        QCOMPARE(s.suggest(QStringLiteral("V12345y")), QString());   // the budget is spent
        // Only names of about the same length are examined.
        NameSuggester lengths({QStringLiteral("SHORT"), QStringLiteral("A_MUCH_LONGER_NAME_HERE")});
        QCOMPARE(lengths.suggest(QStringLiteral("SHORX")), QStringLiteral("SHORT"));
        QCOMPARE(lengths.comparisons(), 1);
    }

    // Issue 24: a 14 MB one-line launch. The line is reported and not read
    // (before: 13 s and 800 MB); a line under the cap still is.
    void commandLongerThanTheCap()
    {
        QString script = QStringLiteral("#!/bin/bash\n#SBATCH --gres=gpu:v100:1\nsrun python3 train.py");
        while (script.size() < 14 * 1024 * 1024)
            script += QStringLiteral(" --a $v");
        script += QStringLiteral("\nsrun python3 eval.py\n");
        const ScriptImport imp = importSbatchScript(script, fixtureProfile(QStringLiteral("puhti")));
        const auto tooLong = std::find_if(imp.diagnostics.cbegin(), imp.diagnostics.cend(), [](const Diagnostic &d) {
            return d.rule == QLatin1String("input-too-large");
        });
        QVERIFY(tooLong != imp.diagnostics.cend());
        QCOMPARE(tooLong->line, 3);
        QCOMPARE(imp.lines.size(), 1);
        QCOMPARE(imp.spec.program, QStringLiteral("eval.py"));

        QString fits = QStringLiteral("#!/bin/bash\nsrun python3 train.py");
        int args = 0;
        for (; fits.size() < InputLimits::kMaxCommandChars; ++args)
            fits += QStringLiteral(" --a");
        const ScriptImport read = importSbatchScript(fits, fixtureProfile(QStringLiteral("puhti")));
        QCOMPARE(read.spec.program, QStringLiteral("train.py"));
        QCOMPARE(read.spec.args.size(), args);
    }

    // scanShell reads what lexShell reads, without keeping the words.
    void scanKeepsTheStructureOnly()
    {
        for (const QString &t : {QStringLiteral("cat <<EOF $X\n"), QStringLiteral("echo \"$(date\n"),
                                 QStringLiteral("a 'b' \\"), QStringLiteral("x=`y")}) {
            const ShellLexResult full = lexShell(t);
            const ShellLexResult scan = scanShell(t);
            QVERIFY(scan.commands.isEmpty());
            QVERIFY(scan.unresolved.isEmpty());
            QCOMPARE(scan.unterminatedQuote, full.unterminatedQuote);
            QCOMPARE(scan.unterminatedOffset, full.unterminatedOffset);
            QCOMPARE(scan.trailingBackslash, full.trailingBackslash);
            QCOMPARE(scan.heredocs.size(), full.heredocs.size());
        }
    }
};

QTEST_GUILESS_MAIN(TestInputGrowth)
#include "tst_inputgrowth.moc"
