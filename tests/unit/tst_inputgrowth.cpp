// SPDX-License-Identifier: GPL-3.0-or-later
// The inputs that once made ScaleLab crawl (issue 11, F2, F7, F8), sized so
// the old quadratic code needs many minutes. There is no timed assertion: the
// CTest TIMEOUT of this test (tests/CMakeLists.txt) fails it when the work
// grows faster than the input again. tests/bench/bench_growth prints ratios.
#include "ScriptImportFixtures.h"

#include "core/base/ShellWords.h"
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
};

QTEST_GUILESS_MAIN(TestInputGrowth)
#include "tst_inputgrowth.moc"
