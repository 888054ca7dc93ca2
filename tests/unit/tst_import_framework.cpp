// SPDX-License-Identifier: GPL-3.0-or-later
// The framework of an imported script, from its evidence: the program's
// imports when it is a local file, its name, its arguments, the modules and
// variables, the launcher; conflicting evidence is "unsure" with both sides
// named. JAX as a framework of its own: read, rendered, validated, linted.

#include "ScriptImportFixtures.h"

#include "core/compose/JobValidator.h"
#include "core/compose/SbatchRenderer.h"
#include "core/scriptimport/ImportSummary.h"

using namespace scalelab;
using namespace scalelab::testing;

namespace {

// The program's text as ScriptFile would read it beside the script.
ImportContext programText(const QString &source)
{
    return ImportContext{[source](const QString &) { return std::optional<QString>(source); }};
}

QString summaryOf(const ScriptImport &imp)
{
    QStringList out;
    for (const Diagnostic &d : imp.summary)
        if (d.rule == QLatin1String("import-framework"))
            out << d.message;
    return out.join(QLatin1Char('\n'));
}

const QString kSrunPerGpu =
    sh({"#!/bin/bash", "#SBATCH --nodes=2 --ntasks-per-node=4 --gpus-per-node=4 --cpus-per-task=8",
        "srun python3 train.py --steps 100"});

}   // namespace

class TestImportFramework : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void evidence_data();
    void evidence();
    void conflictIsUnsureAndNamesBoth();
    void launcherAndEvidenceDisagree();
    void jaxRendersValidatesAndReadsBack();
    void jaxNeedsOneTaskPerGpu();
};

void TestImportFramework::evidence_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("program");   // the program's own text, "" = not readable
    QTest::addColumn<QString>("framework");
    QTest::addColumn<QString>("evidence");
    QTest::newRow("import of jax") << kSrunPerGpu << "import jax\nimport optax\n"
                                   << "jax"
                                   << "import of jax";
    QTest::newRow("import of flax") << kSrunPerGpu << "from flax import linen\n"
                                    << "jax"
                                    << "import of flax";
    QTest::newRow("jax module") << sh({"#!/bin/bash", "#SBATCH --nodes=1 --ntasks-per-node=4 --gpus-per-node=4",
                                       "module load jax/0.4.30", "srun python3 train.py"})
                                << ""
                                << "jax"
                                << "module jax/0.4.30";
    QTest::newRow("jax variable") << sh({"#!/bin/bash", "#SBATCH --nodes=1 --ntasks-per-node=4 --gpus-per-node=4",
                                         "export XLA_PYTHON_CLIENT_MEM_FRACTION=.9", "srun python3 train.py"})
                                  << ""
                                  << "jax"
                                  << "XLA_PYTHON_CLIENT_MEM_FRACTION";
    QTest::newRow("import of lightning") << kSrunPerGpu << "import torch\nimport lightning as L\n"
                                         << "lightning"
                                         << "import of lightning";
    QTest::newRow("import of horovod") << kSrunPerGpu << "import tensorflow as tf\nimport horovod.tensorflow as hvd\n"
                                       << "horovod"
                                       << "import of horovod";
    QTest::newRow("deepspeed config argument")
        << sh({"#!/bin/bash", "#SBATCH --nodes=2 --ntasks-per-node=4 --gpus-per-node=4",
               "srun python3 train.py --deepspeed_config ds.json"})
        << ""
        << "deepspeed"
        << "--deepspeed_config";
    // One process per node, TensorFlow imported: multi-worker, not DDP.
    QTest::newRow("import of tensorflow")
        << sh({"#!/bin/bash", "#SBATCH --nodes=2 --ntasks-per-node=1 --gpus-per-node=4", "srun python3 train.py"})
        << "import tensorflow as tf\n"
        << "tf-multiworker"
        << "import of tensorflow";
    // One process per node, torch imported: DDP across nodes, not TF multi-worker.
    QTest::newRow("import of torch") << sh(
        {"#!/bin/bash", "#SBATCH --nodes=2 --ntasks-per-node=1 --gpus-per-node=4", "srun python3 train.py"})
                                     << "import torch\n"
                                     << "pytorch-ddp"
                                     << "import of torch";
    QTest::newRow("lightning under torchrun")
        << sh({"#!/bin/bash", "#SBATCH --nodes=1 --gpus-per-node=4", "torchrun --nproc_per_node=4 train.py"})
        << "import lightning\n"
        << "lightning"
        << "torchrun";
}

void TestImportFramework::evidence()
{
    QFETCH(QString, script);
    QFETCH(QString, program);
    QFETCH(QString, framework);
    QFETCH(QString, evidence);
    const ScriptImport imp =
        importSbatchScript(script, fixtureProfile("puhti"), program.isEmpty() ? ImportContext{} : programText(program));
    QCOMPARE(frameworkId(imp.spec.framework), framework);
    QVERIFY2(imp.frameworkUnsure.isEmpty(), qPrintable(imp.frameworkUnsure));
    QVERIFY2(imp.frameworkEvidence.contains(evidence), qPrintable(imp.frameworkEvidence));
    // The summary says which evidence decided.
    QVERIFY2(summaryOf(imp).contains(evidence), qPrintable(summaryOf(imp)));
}

void TestImportFramework::conflictIsUnsureAndNamesBoth()
{
    const QString script = sh({"#!/bin/bash", "#SBATCH --nodes=1 --ntasks-per-node=4 --gpus-per-node=4",
                               "module load pytorch/2.4", "srun python3 train.py"});
    const ScriptImport imp = importSbatchScript(script, fixtureProfile("puhti"), programText("import jax\n"));
    QVERIFY(!imp.frameworkUnsure.isEmpty());
    const QString said = summaryOf(imp);
    QVERIFY2(said.contains(QLatin1String("unsure")), qPrintable(said));
    QVERIFY2(said.contains(QLatin1String("import of jax")), qPrintable(said));
    QVERIFY2(said.contains(QLatin1String("pytorch/2.4")), qPrintable(said));
    QVERIFY(std::any_of(imp.diagnostics.begin(), imp.diagnostics.end(),
                        [](const Diagnostic &d) { return d.rule == QLatin1String("framework-unsure"); }));
}

void TestImportFramework::launcherAndEvidenceDisagree()
{
    // torchrun starts PyTorch workers; the program imports TensorFlow.
    const QString script =
        sh({"#!/bin/bash", "#SBATCH --nodes=1 --gpus-per-node=4", "torchrun --nproc_per_node=4 train.py"});
    const ScriptImport imp =
        importSbatchScript(script, fixtureProfile("puhti"), programText("import tensorflow as tf\n"));
    QCOMPARE(imp.spec.framework, Framework::PytorchDdp);
    QVERIFY2(imp.frameworkUnsure.contains(QLatin1String("torchrun")), qPrintable(imp.frameworkUnsure));
    QVERIFY2(imp.frameworkUnsure.contains(QLatin1String("tensorflow")), qPrintable(imp.frameworkUnsure));
}

void TestImportFramework::jaxRendersValidatesAndReadsBack()
{
    const ClusterProfile p = fixtureProfile("puhti");
    JobSpec spec;
    spec.profile = p.id;
    spec.framework = Framework::Jax;
    spec.gpus = 8;
    spec.time = QStringLiteral("00:10:00");
    spec.account = QStringLiteral("project_1234567");
    spec.program = QStringLiteral("train.py");
    QCOMPARE(frameworkFromId(QStringLiteral("jax")), std::optional<Framework>(Framework::Jax));
    QCOMPARE(launchersFor(Framework::Jax), QList<Launcher>{Launcher::Srun});
    const QString script = renderSbatch(spec, p);
    QVERIFY2(script.contains(QLatin1String("jax.distributed.initialize()")), qPrintable(script));
    QVERIFY2(!script.contains(QLatin1String("MASTER_ADDR")), qPrintable(script));
    const Diagnostics diags = validateJob(spec, p);
    QVERIFY(std::any_of(diags.begin(), diags.end(),
                        [](const Diagnostic &d) { return d.rule == QLatin1String("jax-initialize"); }));
    for (const Diagnostic &d : diags)
        QVERIFY2(d.severity != Severity::Error, qPrintable(d.message));
    const ScriptImport back = importSbatchScript(script, p);
    QCOMPARE(back.spec.framework, Framework::Jax);
    QCOMPARE(back.spec.gpus, 8);
    QCOMPARE(back.request.tasksPerNode, 4);   // one process per GPU
}

void TestImportFramework::jaxNeedsOneTaskPerGpu()
{
    const QString script =
        sh({"#!/bin/bash", "#SBATCH --nodes=2 --ntasks-per-node=1 --gpus-per-node=4", "srun python3 train.py"});
    const ScriptImport imp = importSbatchScript(script, fixtureProfile("puhti"), programText("import jax\n"));
    QCOMPARE(imp.spec.framework, Framework::Jax);
    QVERIFY2(std::any_of(imp.diagnostics.begin(), imp.diagnostics.end(),
                         [](const Diagnostic &d) {
                             return d.rule == QLatin1String("tasks-per-gpu") && d.severity == Severity::Warning;
                         }),
             qPrintable(describe(imp.diagnostics)));
}

QTEST_GUILESS_MAIN(TestImportFramework)
#include "tst_import_framework.moc"
