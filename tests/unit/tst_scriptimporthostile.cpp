// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile input for the sbatch script importer: empty, binary, huge and
// broken scripts and random fragments must neither crash nor throw, and every
// finding must name a rule and a line inside the script. Also the shell lexer.

#include "ScriptImportFixtures.h"
#include "core/base/ShellWords.h"

using namespace scalelab;
using namespace scalelab::testing;

class TestScriptImportHostile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void hostile_data();
    void hostile();
    void fuzz();
    void lexer_data();
    void lexer();
};

void TestScriptImportHostile::hostile_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("rule");   // a finding that must be there ("" = none required)

    QTest::newRow("empty") << QString() << "cannot-parse";
    QTest::newRow("blank") << QString("  \n\n\t\n") << "cannot-parse";
    QString binary;
    for (int i = 0; i < 600; ++i)
        binary += QChar(char16_t((i * 37) % 256));
    QTest::newRow("binary") << binary << "cannot-parse";
    QTest::newRow("elf header") << QString::fromLatin1("\x7f"
                                                       "ELF\x02\x01\x01",
                                                       7)
                                       + QString(QChar(0)) + "xyz"
                                << "cannot-parse";
    QTest::newRow("replacement chars") << QString(200, QChar::ReplacementCharacter) << "cannot-parse";
    QTest::newRow("10k job name") << "#!/bin/bash\n#SBATCH --job-name=" + QString(10000, 'a') + "\nsrun python3 t.py\n"
                                  << "";
    QTest::newRow("10k shell line") << "#!/bin/bash\nsrun python3 t.py " + QString(10000, 'x') + "\n"
                                    << "";
    QString manyOptions = "#!/bin/bash\n#SBATCH";
    for (int i = 0; i < 3000; ++i)
        manyOptions += " -N2";
    QTest::newRow("3000 options on a line") << manyOptions + " -N3\n"
                                            << "conflicting-options";
    QTest::newRow("10k backslashes") << "#!/bin/bash\n" + QString(10000, '\\') + "\n"
                                     << "";
    QTest::newRow("continuation at eof") << QString("#!/bin/bash\nsrun python3 t.py \\") << "";
    QTest::newRow("unterminated single quote")
        << QString("#!/bin/bash\nsrun python3 t.py 'abc\nmore\n") << "cannot-parse";
    QTest::newRow("unterminated command substitution")
        << QString("#!/bin/bash\nX=$(hostname\nsrun python3 t.py\n") << "cannot-parse";
    QTest::newRow("unterminated brace") << QString("#!/bin/bash\nsrun python3 ${X t.py\n") << "cannot-parse";
    QTest::newRow("only comments") << QString("#!/bin/bash\n# a\n# b\n") << "no-launch-line";
    QTest::newRow("only sbatch") << QString("#!/bin/bash\n#SBATCH --gres=gpu:1\n") << "no-launch-line";
    QTest::newRow("sbatch without option") << QString("#!/bin/bash\n#SBATCH\n#SBATCH   # comment\n") << "cannot-parse";
    QTest::newRow("dangling option") << QString("#!/bin/bash\n#SBATCH --time\n#SBATCH -N\n") << "invalid-value";
    QTest::newRow("equals only") << QString("#!/bin/bash\n#SBATCH --=\n#SBATCH -\n#SBATCH --\n") << "";
    QTest::newRow("nested substitutions")
        << QString("#!/bin/bash\nsrun $($($($(echo a)))) `x` \"$(\")\" python3\n") << "";
    QTest::newRow("operators only") << QString("#!/bin/bash\n; && || | & ( ) >> << <<< > <\n") << "";
    QTest::newRow("heredoc without end") << QString("#!/bin/bash\ncat <<EOF\nsrun torchrun x.py\n") << "cannot-parse";
    QTest::newRow("launchers without programs")
        << QString("#!/bin/bash\nsrun\nsrun --ntasks\ntorchrun --nproc_per_node\n"
                   "deepspeed\nhorovodrun -np\nmpirun -np\nsingularity exec\n"
                   "python3 -m\nkernprof -o\nsingularity_wrapper\n")
        << "";
    QTest::newRow("huge numbers") << QString("#!/bin/bash\n#SBATCH --nodes=99999999999999999999 --gres=gpu:2147483647\n"
                                             "#SBATCH --ntasks-per-node=2147483647 --gpus-per-task=2147483647\n"
                                             "srun -n 2147483647 torchrun --nproc_per_node=2147483647 t.py\n")
                                  << "invalid-value";
    QTest::newRow("unicode") << QString::fromUtf8("#!/bin/bash\n#SBATCH --job-name=тест🚀\nsrun python3 trä.py --α=β\n")
                             << "";
}

void TestScriptImportHostile::hostile()
{
    QFETCH(QString, script);
    QFETCH(QString, rule);
    for (const char *profile : {"puhti", "lumi", ""}) {
        const ScriptImport imp = importSbatchScript(script, fixtureProfile(profile));
        if (!rule.isEmpty())
            QVERIFY2(std::any_of(imp.diagnostics.begin(), imp.diagnostics.end(),
                                 [&](const Diagnostic &d) { return d.rule == rule; }),
                     qPrintable(describe(imp.diagnostics)));
        for (const auto &d : imp.diagnostics) {
            QVERIFY(!d.rule.isEmpty());
            QVERIFY(d.line >= 0 && d.line <= script.count('\n') + 1);
        }
    }
}

// Random scripts from a pool of real and broken fragments: nothing may crash,
// and every finding must name a rule and a line inside the script.
void TestScriptImportHostile::fuzz()
{
    const QStringList pool = {
        "#!/bin/bash",
        "#SBATCH --nodes=2",
        "#SBATCH -N",
        "#SBATCH --gres=gpu:v100:4",
        "#SBATCH --gpus=",
        "##SBATCH -n 4",
        "#SBATCH --ntasks-per-node=4 --cpus-per-task=10",
        "#SBATCH --time=1-",
        "#SBATCH --mem=0",
        "#SBATCH --mem-per-gpu=x",
        "srun python3 t.py",
        "srun torchrun --nnodes=$SLURM_NNODES --nproc_per_node=$SLURM_GPUS_ON_NODE t.py \\",
        "  --epochs 3 \\",
        "\"",
        "'",
        "`",
        "$(",
        "${",
        "}",
        ")",
        "<<EOF",
        "EOF",
        "export A=$B",
        "A=1 B=2",
        "singularity exec --nv -B a:b img.sif horovodrun -np $SLURM_NTASKS python x.py",
        "mpirun -np",
        "deepspeed --num_gpus",
        "module load pytorch",
        "conda activate x",
        "if [ -n \"$X\" ]; then",
        "fi",
        "<options>",
        "# comment",
        "",
        "\\",
        "python -m torch.distributed.launch --nproc_per_node=2 x.py",
        "kernprof -l -o out x.py",
        "srun -N1 -n1 x",
        "#SBATCH --account=<project>",
        "\t#SBATCH --qos=x",
        "#SBATCH \u2014nodes=1",
        "echo $((1+2))",
        "cat <<-'E'",
        "\tE",
    };
    quint32 seed = 12345;
    auto next = [&seed]() {
        seed = seed * 1664525u + 1013904223u;
        return seed >> 8;
    };
    for (int round = 0; round < 400; ++round) {
        QStringList lines;
        const int n = int(next() % 25);
        for (int i = 0; i < n; ++i) {
            QString l = pool[int(next() % pool.size())];
            if (next() % 7 == 0 && !l.isEmpty())
                l.insert(int(next() % l.size()), pool[int(next() % pool.size())]);
            lines << l;
        }
        const QString script = lines.join('\n');
        const ScriptImport imp = importSbatchScript(script, fixtureProfile(round % 2 ? "puhti" : "lumi"));
        for (const auto &d : imp.diagnostics) {
            QVERIFY2(!d.rule.isEmpty() && !d.message.isEmpty(), qPrintable(script));
            QVERIFY2(d.line >= 0 && d.line <= n + 1, qPrintable(script + "\n---\n" + describe(imp.diagnostics)));
        }
    }
}

void TestScriptImportHostile::lexer_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("words");   // commands separated by " ; ", words by "|"

    QTest::newRow("plain") << "srun python3 t.py"
                           << "srun|python3|t.py";
    QTest::newRow("quotes") << "a 'b c' \"d $X e\" f\\ g"
                            << "a|b c|d 42 e|f g";
    QTest::newRow("comment") << "a b # c d"
                             << "a|b";
    QTest::newRow("hash inside word") << "a b#c"
                                      << "a|b#c";
    QTest::newRow("operators") << "a && b || c; d | e & f"
                               << "a ; b ; c ; d ; e ; f";
    QTest::newRow("redirections") << "a > out 2>&1 < in b"
                                  << "a|b";
    QTest::newRow("substitution kept") << "X=$(hostname -s) `date`"
                                       << "X=$(hostname -s)|`date`";
    QTest::newRow("default value") << "${NOPE:-7} ${X}"
                                   << "7|42";
    QTest::newRow("unknown kept") << "$NOPE ${NOPE}"
                                  << "$NOPE|${NOPE}";
    QTest::newRow("continuation") << "a \\\n  b"
                                  << "a|b";
}

void TestScriptImportHostile::lexer()
{
    QFETCH(QString, input);
    QFETCH(QString, words);
    const auto lookup = [](const QString &name) -> std::optional<QString> {
        return name == "X" ? std::optional<QString>("42") : std::nullopt;
    };
    const ShellLexResult r = lexShell(input, lookup);
    QStringList cmds;
    for (const auto &c : r.commands)
        cmds << c.texts().join('|');
    QCOMPARE(cmds.join(" ; "), words);
    QVERIFY(!r.unterminatedQuote);
}

QTEST_GUILESS_MAIN(TestScriptImportHostile)
#include "tst_scriptimporthostile.moc"
