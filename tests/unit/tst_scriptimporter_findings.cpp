// SPDX-License-Identifier: GPL-3.0-or-later
// Linting sbatch scripts on import, the findings: each mistake in a script
// written for it gets exactly its expected findings, validateJob's findings
// land on the #SBATCH line that set the field, and findings carry their fixes.
// What the import reads is in tst_scriptimporter_spec.cpp; hostile input is
// in tst_scriptimporthostile.cpp.

#include "ScriptImportFixtures.h"

using namespace scalelab;
using namespace scalelab::testing;

class TestScriptImporterFindings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void synthetic_data();
    void synthetic();
    void validatorFindingsGetLines_data();
    void validatorFindingsGetLines();
    void fixes();
};

void TestScriptImporterFindings::synthetic_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QString>("script");
    QTest::addColumn<QStringList>("findings");

    QTest::newRow("torchrun 2 nodes without srun")
        << "puhti"
        << sh({"#!/bin/bash", "#SBATCH --account=project_2001234", "#SBATCH --partition=gpu", "#SBATCH --nodes=2",
               "#SBATCH --gres=gpu:v100:4", "#SBATCH --time=1:00:00",
               "torchrun --nnodes=2 --nproc_per_node=4 train.py"})
        << QStringList{"torchrun-without-srun-multinode@7"};   // the 4 idle GPUs are the same mistake
    QTest::newRow("torchrun standalone on 2 nodes")
        << "puhti"
        << sh({"#!/bin/bash", "#SBATCH -A project_2001234 -p gpu", "#SBATCH -N2 --ntasks-per-node=1",
               "#SBATCH --gres=gpu:v100:4", "#SBATCH -t 60",
               "srun torchrun --standalone --nnodes=1 --nproc_per_node=4 train.py"})
        << QStringList{"torchrun-standalone-multinode@6"};
    QTest::newRow("torchrun nnodes mismatch")
        << "puhti"
        << sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH --nodes=2 --ntasks-per-node=1",
               "#SBATCH --gres=gpu:v100:4", "#SBATCH --time=10:00", "srun torchrun \\", "  --nnodes=4 \\",
               "  --nproc_per_node=gpu train.py"})
        << QStringList{"torchrun-no-rendezvous@6", "torchrun-nnodes-mismatch@7"};
    QTest::newRow("torchrun per task") << "puhti"
                                       << sh({"#!/bin/bash", "#SBATCH -A project_2001234",
                                              "#SBATCH --nodes=1 --ntasks-per-node=4", "#SBATCH --gres=gpu:v100:4",
                                              "#SBATCH --time=10:00", "srun torchrun --nproc_per_node=4 train.py"})
                                       << QStringList{"launcher-too-many-processes@6"};
    QTest::newRow("variables resolve") << "puhti"
                                       << sh({"#!/bin/bash", "#SBATCH -A project_2001234",
                                              "#SBATCH --nodes=2 --ntasks-per-node=1", "#SBATCH --gpus-per-node=4",
                                              "#SBATCH --time=10:00", "NGPU=$SLURM_GPUS_ON_NODE",
                                              "export NN=${SLURM_NNODES}",
                                              "srun torchrun --nnodes=$NN --nproc_per_node=$NGPU "
                                              "--rdzv_endpoint=$(hostname):29500 train.py --epochs ${EPOCHS:-3}"})
                                       << QStringList{};
    QTest::newRow("unresolved count") << "puhti"
                                      << sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH --nodes=1",
                                             "#SBATCH --gres=gpu:v100:4", "#SBATCH --time=10:00",
                                             "srun torchrun --nproc_per_node=$NGPUS train.py"})
                                      << QStringList{"unresolved-variable@6", "variable-never-set@6"};
    QTest::newRow("horovodrun too few") << "puhti"
                                        << sh({"#!/bin/bash", "#SBATCH -A project_2001234",
                                               "#SBATCH --nodes=1 --ntasks=4", "#SBATCH --gres=gpu:v100:4",
                                               "#SBATCH --time=10:00", "horovodrun -np 2 python train.py"})
                                        << QStringList{"launcher-too-few-processes@6"};
    QTest::newRow("mpirun more than slots")
        << "puhti"
        << sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH --nodes=1 --ntasks=4", "#SBATCH --gres=gpu:v100:4",
               "#SBATCH --time=10:00", "mpirun -np 8 python train.py"})
        << QStringList{"launcher-too-many-processes@6"};
    QTest::newRow("deepspeed num_gpus") << "puhti"
                                        << sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH --nodes=1",
                                               "#SBATCH --gres=gpu:v100:4", "#SBATCH --time=10:00",
                                               "deepspeed --num_gpus=2 train.py --deepspeed"})
                                        << QStringList{"launcher-too-few-processes@6"};
    QTest::newRow("plain python on 2 nodes")
        << "puhti"
        << sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH --nodes=2", "#SBATCH --gres=gpu:v100:4",
               "#SBATCH --time=10:00", "python3 train.py"})
        << QStringList{"first-node-only@6"};
    QTest::newRow("srun starts fewer tasks")
        << "puhti"
        << sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH --nodes=1 --ntasks=4", "#SBATCH --gres=gpu:v100:4",
               "#SBATCH --time=10:00", "srun -n 1 python3 train.py"})
        << QStringList{"tasks-never-started@6"};
    QTest::newRow("sbatch after command")
        << "puhti"
        << sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH --gres=gpu:v100:1", "#SBATCH --time=10:00",
               "module load pytorch", "#SBATCH --gres=gpu:v100:4", "srun python3 train.py"})
        << QStringList{"sbatch-after-command@6"};
    QTest::newRow("unknown and typo options")
        << "puhti"
        << sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH --gres=gpu:v100:1", "#SBATCH --time=10:00",
               "#SBATCH --gpus-per-nod=1x", "#SBATCH --frobnicate", "#SBATCH \u2014constraint=pascal",
               "# SBATCH --nodes=2", "#sbatch --nodes=3", "srun python3 train.py"})
        // --frobnicate (line 6) is an info: the profile does not list the site's plugins, one may define it.
        << QStringList{"invalid-value@5", "unknown-option@7", "sbatch-directive-ignored@8",
                       "sbatch-directive-ignored@9"};
    QTest::newRow("conflicting options")
        << "puhti"
        << sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH --nodes=2 --ntasks=6 --ntasks-per-node=4",
               "#SBATCH --gres=gpu:v100:4", "#SBATCH --gpus-per-node=4", "#SBATCH --mem=64G",
               "#SBATCH --mem-per-gpu=16G", "#SBATCH --time=10:00", "#SBATCH --time=20:00", "srun python3 train.py"})
        << QStringList{"conflicting-options@3", "conflicting-options@5", "conflicting-options@7",
                       "conflicting-options@9", "launcher-too-few-processes@10"};
    QTest::newRow("cpus-per-gpu on lumi")
        << "lumi"
        << sh({"#!/bin/bash", "#SBATCH -A project_462000007", "#SBATCH -p small-g",
               "#SBATCH --nodes=1 --ntasks-per-node=8", "#SBATCH --gpus-per-node=8", "#SBATCH --cpus-per-gpu=7",
               "#SBATCH --time=1:00:00", "srun python3 train.py"})
        << QStringList{"site-cpus-per-gpu@6"};
    QTest::newRow("wrong gpu type") << "puhti"
                                    << sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH -p gpu",
                                           "#SBATCH --gres=gpu:a100:1", "#SBATCH --time=10:00",
                                           "srun python3 train.py"})
                                    << QStringList{"geometry-partition-mismatch@4"};
    QTest::newRow("too many gpus and cpus per node")
        << "puhti"
        << sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH -p gpu", "#SBATCH --nodes=1 --ntasks-per-node=8",
               "#SBATCH --cpus-per-task=10", "#SBATCH --gres=gpu:v100:8", "#SBATCH --time=10:00",
               "srun python3 train.py"})
        << QStringList{"geometry-partition-mismatch@5", "geometry-partition-mismatch@6"};
    QTest::newRow("invalid values") << "puhti"
                                    << sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH --nodes=two",
                                           "#SBATCH --gres=gpu:v100:1", "#SBATCH --time=soon",
                                           "#SBATCH --cpus-per-task=0", "#SBATCH --mem=lots", "srun python3 train.py"})
                                    << QStringList{"invalid-value@3", "invalid-value@5", "invalid-value@6",
                                                   "invalid-value@7"};
    QTest::newRow("missing shebang and dos line breaks")
        << "puhti"
        << QString(
               "#SBATCH --gres=gpu:v100:1\r\n#SBATCH -A project_2001234\r\n#SBATCH -t 10\r\nsrun python3 train.py\r\n")
        << QStringList{"missing-shebang@1", "dos-line-breaks@1"};
    QTest::newRow("heredoc body is not a command")
        << "puhti"
        << sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH --gres=gpu:v100:1", "#SBATCH -t 10",
               "cat > cfg.json <<'EOF'", "srun torchrun --nproc_per_node=8 nothing.py", "EOF",
               "srun python3 train.py cfg.json"})
        << QStringList{};
    QTest::newRow("unterminated quote") << "puhti"
                                        << sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH --gres=gpu:v100:1",
                                               "#SBATCH -t 10", "srun python3 train.py", "echo \"never closed"})
                                        << QStringList{"cannot-parse@6"};
    QTest::newRow("only comments") << "puhti" << sh({"#!/bin/bash", "# nothing here", "## still nothing"})
                                   << QStringList{"no-sbatch-options@0", "no-launch-line@0"};
}

void TestScriptImporterFindings::synthetic()
{
    QFETCH(QString, profile);
    QFETCH(QString, script);
    QFETCH(QStringList, findings);
    const ScriptImport imp = importSbatchScript(script, fixtureProfile(profile));
    checkFindings(imp.diagnostics, findings);
}

// validateJob's findings land on the #SBATCH line that set the field.
void TestScriptImporterFindings::validatorFindingsGetLines_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("line");

    QTest::newRow("mahti gpusmall 4 gpus")
        << "mahti"
        << sh({"#!/bin/bash", "#SBATCH --account=project_2001234", "#SBATCH --partition=gpusmall", "#SBATCH --nodes=1",
               "#SBATCH --ntasks=1", "#SBATCH --cpus-per-task=40", "#SBATCH --time=1:00:00",
               "#SBATCH --gres=gpu:a100:4",
               "srun python3 -m torch.distributed.run --standalone --nnodes=1 --nproc_per_node=4 myprog.py"})
        << "gpus" << 8;
    QTest::newRow("gputest too long") << "puhti"
                                      << sh({"#!/bin/bash", "#SBATCH --account=project_2001234",
                                             "#SBATCH --partition=gputest", "#SBATCH --gres=gpu:v100:1",
                                             "#SBATCH --time=02:00:00", "srun python3 train.py"})
                                      << "time" << 5;
    QTest::newRow("unknown partition") << "puhti"
                                       << sh({"#!/bin/bash", "#SBATCH --account=project_2001234",
                                              "#SBATCH --gres=gpu:v100:1", "#SBATCH --partition=gpu-big",
                                              "#SBATCH --time=02:00:00", "srun python3 train.py"})
                                       << "partition" << 4;
    QTest::newRow("bad account") << "puhti"
                                 << sh({"#!/bin/bash", "#SBATCH --gres=gpu:v100:1", "#SBATCH --time=02:00:00",
                                        "#SBATCH --account=myproject", "srun python3 train.py"})
                                 << "account" << 4;
    QTest::newRow("too many nodes") << "puhti"
                                    << sh({"#!/bin/bash", "#SBATCH --account=project_2001234",
                                           "#SBATCH --partition=gputest", "#SBATCH --time=10:00",
                                           "#SBATCH --nodes=3 --ntasks-per-node=1", "#SBATCH --gres=gpu:v100:4",
                                           "srun torchrun --nnodes=3 --nproc_per_node=4 t.py"})
                                    << "nodes" << 5;
}

void TestScriptImporterFindings::validatorFindingsGetLines()
{
    QFETCH(QString, profile);
    QFETCH(QString, script);
    QFETCH(QString, field);
    QFETCH(int, line);
    const ScriptImport imp = importSbatchScript(script, fixtureProfile(profile));
    const bool found = std::any_of(imp.diagnostics.begin(), imp.diagnostics.end(), [&](const Diagnostic &d) {
        return d.severity == Severity::Error && d.field == field && d.line == line;
    });
    QVERIFY2(found, qPrintable(describe(imp.diagnostics)));
}

void TestScriptImporterFindings::fixes()
{
    // A finding with a concrete change carries it in the validator's Fix shape.
    const ScriptImport aau = importSbatchScript(readScript("aau-horovod.sbatch"), fixtureProfile("aau"));
    const auto nodes = std::find_if(aau.diagnostics.begin(), aau.diagnostics.end(),
                                    [](const Diagnostic &d) { return d.rule == "nodes-unspecified"; });
    QVERIFY(nodes != aau.diagnostics.end());
    QCOMPARE(nodes->fix, (Fix{"nodes", "1", "set nodes to 1"}));
    QVERIFY(nodes->fix.isValid());

    const ScriptImport multi =
        importSbatchScript(sh({"#!/bin/bash", "#SBATCH -A project_2001234", "#SBATCH --nodes=2",
                               "#SBATCH --gres=gpu:v100:4", "#SBATCH -t 10", "torchrun --nproc_per_node=4 t.py"}),
                           fixtureProfile("puhti"));
    const auto tr = std::find_if(multi.diagnostics.begin(), multi.diagnostics.end(),
                                 [](const Diagnostic &d) { return d.rule == "torchrun-without-srun-multinode"; });
    QVERIFY(tr != multi.diagnostics.end());
    QCOMPARE(tr->severity, Severity::Error);
    QCOMPARE(tr->fix.field, QStringLiteral("launcher"));
    QCOMPARE(tr->fix.value, QStringLiteral("torchrun"));

    const ScriptImport big = importSbatchScript(sh({"#!/bin/bash", "#SBATCH -A project_2001234",
                                                    "#SBATCH --gres=gpu:v100:8", "#SBATCH -t 10", "srun python3 t.py"}),
                                                fixtureProfile("puhti"));
    const auto g = std::find_if(big.diagnostics.begin(), big.diagnostics.end(),
                                [](const Diagnostic &d) { return d.rule == "geometry-partition-mismatch"; });
    QVERIFY2(g != big.diagnostics.end(), qPrintable(describe(big.diagnostics)));
    QCOMPARE(g->line, 3);
    QCOMPARE(g->fix.field, QStringLiteral("nodes"));
    QCOMPARE(g->fix.value, QStringLiteral("2"));
}

QTEST_GUILESS_MAIN(TestScriptImporterFindings)
#include "tst_scriptimporter_findings.moc"
