// SPDX-License-Identifier: GPL-3.0-or-later
// Importing existing sbatch scripts, what the import reads: the seed guides'
// examples (tests/data/scripts) with the spec each should give and the
// mistakes each contains, their launch lines, containers and environment in
// detail, and each spec field from the options' short, long and spaced forms.
// The findings on written scripts are in tst_scriptimporter_findings.cpp;
// hostile input is in tst_scriptimporthostile.cpp.

#include "ScriptImportFixtures.h"

using namespace scalelab;
using namespace scalelab::testing;

class TestScriptImporterSpec : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void seedScripts_data();
    void seedScripts();
    void seedScriptDetails();
    void specFields_data();
    void specFields();
};

void TestScriptImporterSpec::seedScripts_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QString>("partition");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<QString>("framework");
    QTest::addColumn<QString>("launcher");
    QTest::addColumn<QString>("program");
    QTest::addColumn<QStringList>("findings");

    const QStringList csc11 = {"placeholder-value@2", "placeholder-value@11", "framework-guessed@11"};
    const QStringList csc10 = {"placeholder-value@2", "placeholder-value@10", "framework-guessed@10"};
    // CSC guide: single node, 2 GPUs, no MPI (one process drives both GPUs).
    QTest::newRow("puhti 2gpu") << "csc-puhti-2gpu-nompi.sbatch"
                                << "puhti"
                                << "gpu" << 2 << 1 << "dataparallel"
                                << "srun"
                                << "myprog.py" << csc11;
    QTest::newRow("mahti 2gpu") << "csc-mahti-2gpu-nompi.sbatch"
                                << "mahti"
                                << "gpusmall" << 2 << 1 << "dataparallel"
                                << "srun"
                                << "myprog.py" << csc10;
    QTest::newRow("lumi 2gpu") << "csc-lumi-2gpu-nompi.sbatch"
                               << "lumi"
                               << "eap" << 2 << 1 << "dataparallel"
                               << "srun"
                               << "myprog.py" << csc11;
    // Single node, one MPI task per GPU.
    QTest::newRow("puhti 1node mpi") << "csc-puhti-1node-mpi.sbatch"
                                     << "puhti"
                                     << "gpu" << 4 << 1 << "pytorch-ddp"
                                     << "srun"
                                     << "myprog.py" << csc11;
    QTest::newRow("mahti 1node mpi") << "csc-mahti-1node-mpi.sbatch"
                                     << "mahti"
                                     << "gpumedium" << 4 << 1 << "pytorch-ddp"
                                     << "srun"
                                     << "myprog.py" << csc10;
    QTest::newRow("lumi 1node mpi") << "csc-lumi-1node-mpi.sbatch"
                                    << "lumi"
                                    << "eap" << 8 << 1 << "pytorch-ddp"
                                    << "srun"
                                    << "myprog.py" << csc11;
    // Two full nodes, one process per node.
    QTest::newRow("puhti 2node") << "csc-puhti-2node-nompi.sbatch"
                                 << "puhti"
                                 << "gpu" << 8 << 2 << "tf-multiworker"
                                 << "srun"
                                 << "myprog.py" << csc11;
    QTest::newRow("mahti 2node") << "csc-mahti-2node-nompi.sbatch"
                                 << "mahti"
                                 << "gpumedium" << 8 << 2 << "tf-multiworker"
                                 << "srun"
                                 << "myprog.py" << csc10;
    QTest::newRow("lumi 2node") << "csc-lumi-2node-nompi.sbatch"
                                << "lumi"
                                << "eap" << 16 << 2 << "tf-multiworker"
                                << "srun"
                                << "myprog.py" << csc11;
    // Two full nodes, one MPI task per GPU.
    QTest::newRow("puhti 2node mpi") << "csc-puhti-2node-mpi.sbatch"
                                     << "puhti"
                                     << "gpu" << 8 << 2 << "pytorch-ddp"
                                     << "srun"
                                     << "myprog.py" << csc11;
    QTest::newRow("mahti 2node mpi") << "csc-mahti-2node-mpi.sbatch"
                                     << "mahti"
                                     << "gpumedium" << 8 << 2 << "pytorch-ddp"
                                     << "srun"
                                     << "myprog.py" << csc10;
    QTest::newRow("lumi 2node mpi") << "csc-lumi-2node-mpi.sbatch"
                                    << "lumi"
                                    << "eap" << 16 << 2 << "pytorch-ddp"
                                    << "srun"
                                    << "myprog.py" << csc11;
    // PyTorch DDP through torch.distributed.run.
    QTest::newRow("puhti ddp 1node") << "csc-puhti-ddp-1node.sbatch"
                                     << "puhti"
                                     << "gpu" << 4 << 1 << "pytorch-ddp"
                                     << "torchrun"
                                     << "myprog.py" << QStringList{"placeholder-value@2", "placeholder-value@14"};
    QTest::newRow("mahti ddp 1node") << "csc-mahti-ddp-1node.sbatch"
                                     << "mahti"
                                     << "gpumedium" << 4 << 1 << "pytorch-ddp"
                                     << "torchrun"
                                     << "myprog.py" << QStringList{"placeholder-value@2", "placeholder-value@13"};
    QTest::newRow("lumi ddp 1node") << "csc-lumi-ddp-1node.sbatch"
                                    << "lumi"
                                    << "eap" << 8 << 1 << "pytorch-ddp"
                                    << "torchrun"
                                    << "myprog.py" << QStringList{"placeholder-value@2", "placeholder-value@15"};
    QTest::newRow("puhti ddp 2node") << "csc-puhti-ddp-2node.sbatch"
                                     << "puhti"
                                     << "gpu" << 8 << 2 << "pytorch-ddp"
                                     << "torchrun"
                                     << "myprog.py" << QStringList{"placeholder-value@2", "placeholder-value@22"};
    QTest::newRow("mahti ddp 2node") << "csc-mahti-ddp-2node.sbatch"
                                     << "mahti"
                                     << "gpumedium" << 8 << 2 << "pytorch-ddp"
                                     << "torchrun"
                                     << "myprog.py" << QStringList{"placeholder-value@2", "placeholder-value@21"};
    // The guide's mistake: 8 GPUs per node reserved, --nproc_per_node=4 (line 19) starts 4.
    QTest::newRow("lumi ddp 2node") << "lumi-ddp-2node.sbatch"
                                    << "lumi"
                                    << "eap" << 16 << 2 << "pytorch-ddp"
                                    << "torchrun"
                                    << "myprog.py"
                                    << QStringList{"placeholder-value@2", "launcher-too-few-processes@19",
                                                   "placeholder-value@23"};
    // DeepSpeed: its own launcher in a singularity_wrapper, or one srun task per GPU.
    QTest::newRow("puhti deepspeed") << "csc-puhti-deepspeed-1node.sbatch"
                                     << "puhti"
                                     << "gpu" << 4 << 1 << "deepspeed"
                                     << "deepspeed"
                                     << "myprog.py" << QStringList{"placeholder-value@2", "placeholder-value@15"};
    QTest::newRow("mahti deepspeed") << "csc-mahti-deepspeed-1node.sbatch"
                                     << "mahti"
                                     << "gpumedium" << 4 << 1 << "deepspeed"
                                     << "deepspeed"
                                     << "myprog.py" << QStringList{"placeholder-value@2", "placeholder-value@14"};
    QTest::newRow("puhti deepspeed mpi") << "csc-puhti-deepspeed-2node-mpi.sbatch"
                                         << "puhti"
                                         << "gpu" << 8 << 2 << "deepspeed"
                                         << "srun"
                                         << "myprog.py" << QStringList{"placeholder-value@2", "placeholder-value@15"};
    QTest::newRow("mahti deepspeed mpi") << "csc-mahti-deepspeed-2node-mpi.sbatch"
                                         << "mahti"
                                         << "gpumedium" << 8 << 2 << "deepspeed"
                                         << "srun"
                                         << "myprog.py" << QStringList{"placeholder-value@2", "placeholder-value@14"};
    // AAU: horovodrun inside singularity; --ntasks=4 without --nodes. Its
    // --qos (line 4) is kept in the spec (slurmOptions), not dropped.
    QTest::newRow("aau horovod") << "aau-horovod.sbatch"
                                 << "aau"
                                 << "" << 4 << 0 << "horovod"
                                 << "horovodrun"
                                 << "/code/example.py" << QStringList{"nodes-unspecified@8"};
    // GUJCOST: --ntasks=2 (line 4) but kernprof runs one DataParallel process.
    QTest::newRow("gujcost dataparallel")
        << "gujcost-dataparallel.sbatch"
        << "workshop"
        << "gpu" << 2 << 1 << "dataparallel"
        << "srun"
        << "mnist_multigpu.py"
        << QStringList{"tasks-never-started@4", "sbatch-disabled@7", "sbatch-disabled@8", "option-not-imported@10",
                       "framework-guessed@26"};
    // M3: the first 16 lines of the single-GPU job (no command in them).
    QTest::newRow("m3 mnist") << "m3-mnist.sbatch"
                              << "m3"
                              << "m3h" << 1 << 0 << "dataparallel"
                              << "srun"
                              << ""
                              << QStringList{"no-launch-line@0", "placeholder-value@6", "placeholder-value@10",
                                             "nodes-unspecified@13"};
    QTest::newRow("m3 mnist multi")
        << "m3-mnist-multi.sbatch"
        << "m3"
        << "m3h" << 2 << 0 << "tf-mirrored"
        << "srun"
        << "/scratch/ab12/$USER/gpu-examples/models/official/vision/image_classification/mnist_main.py"
        << QStringList{"nodes-unspecified@8", "tasks-never-started@8", "framework-guessed@17"};
}

void TestScriptImporterSpec::seedScripts()
{
    QFETCH(QString, file);
    QFETCH(QString, profile);
    const QString text = readScript(file);
    QVERIFY2(!text.isEmpty(), qPrintable(file));
    const ScriptImport imp = importSbatchScript(text, fixtureProfile(profile));
    QCOMPARE(imp.spec.profile, profile);
    QTEST(imp.spec.partition, "partition");
    QTEST(imp.spec.gpus, "gpus");
    QTEST(imp.spec.nodes, "nodes");
    QTEST(frameworkId(imp.spec.framework), "framework");
    QTEST(launcherId(imp.spec.effectiveLauncher()), "launcher");
    QTEST(imp.spec.program, "program");
    QFETCH(QStringList, findings);
    checkFindings(imp.diagnostics, findings);
    for (const auto &d : imp.diagnostics) {
        QVERIFY(!d.rule.isEmpty());
        QVERIFY(!d.message.isEmpty());
        QVERIFY(d.line >= 0 && d.line <= text.count(QLatin1Char('\n')) + 1);
    }
}

void TestScriptImporterSpec::seedScriptDetails()
{
    {   // AAU: the container is unwrapped, horovodrun -np resolves $SLURM_NTASKS.
        const ScriptImport imp = importSbatchScript(readScript("aau-horovod.sbatch"), fixtureProfile("aau"));
        const LaunchCommand *l = imp.launch();
        QVERIFY(l);
        QCOMPARE(l->line, 22);
        QCOMPARE(l->np.value, 4);
        QVERIFY(l->launcher == Launcher::Horovodrun);
        QCOMPARE(imp.spec.environment.container.image, QStringLiteral("tensorflow_keras.sif"));
        QCOMPARE(imp.spec.environment.container.runtime, QStringLiteral("singularity"));
        QCOMPARE(imp.spec.environment.container.binds, (QStringList{".:/code", "output_data:/output_data"}));
        QCOMPARE(imp.spec.jobName, QStringLiteral("MGPU"));
        QCOMPARE(imp.spec.time, QStringLiteral("1:00:00"));
        QCOMPARE(imp.spec.memory, QStringLiteral("60G"));
        QCOMPARE(imp.spec.cpusPerGpu, 4);
        QCOMPARE(imp.request.tasks, 4);
        // The monitoring lines are not part of the job's setup.
        QVERIFY(imp.spec.environment.setup.isEmpty());
        // The same script on LUMI: --cpus-per-gpu (line 7) breaks GPU peer access there.
        const ScriptImport lumi = importSbatchScript(readScript("aau-horovod.sbatch"), fixtureProfile("lumi"));
        QVERIFY2(findingKeys(lumi.diagnostics, false).contains("site-cpus-per-gpu@7"),
                 qPrintable(describe(lumi.diagnostics)));
    }
    {   // GUJCOST: module purge / conda activate are setup, miniconda a module.
        const ScriptImport imp =
            importSbatchScript(readScript("gujcost-dataparallel.sbatch"), fixtureProfile("workshop"));
        QCOMPARE(imp.spec.environment.modules, QStringList{"miniconda"});
        QCOMPARE(imp.spec.environment.setup, (QStringList{"module purge", "conda activate gujcost_workshop"}));
        QCOMPARE(imp.spec.args, (QStringList{"--epochs=5", "--batch-size=128"}));
        QCOMPARE(imp.spec.jobName, QStringLiteral("mnist_multiGPU"));
        QCOMPARE(imp.spec.time, QStringLiteral("00:20:00"));
        QCOMPARE(imp.spec.cpusPerGpu, 10);
        QCOMPARE(imp.disabledOptions.size(), 2);
        QCOMPARE(imp.disabledOptions[0].name, QStringLiteral("reservation"));
        QCOMPARE(imp.launch()->interpreter, QStringLiteral("kernprof"));
        QVERIFY(imp.frameworkGuessed);
    }
    {   // LUMI 2-node DDP: variables, modules, the torchrun counts.
        const ScriptImport imp = importSbatchScript(readScript("lumi-ddp-2node.sbatch"), fixtureProfile("lumi"));
        const LaunchCommand *l = imp.launch();
        QVERIFY(l);
        QCOMPARE(l->line, 17);
        QCOMPARE(l->lastLine, 23);
        QVERIFY(l->underSrun);
        QCOMPARE(l->nnodes.value, 2);
        QCOMPARE(l->nnodes.line, 18);
        QCOMPARE(l->nproc.value, 4);
        QCOMPARE(l->nproc.line, 19);
        QCOMPARE(imp.spec.environment.modules, QStringList{"pytorch"});
        // $(hostname) stays a command substitution: the line is kept as written.
        // `module` lines come first, where the renderer writes them (before the loads).
        QCOMPARE(imp.spec.environment.setup, (QStringList{"module use /projappl/project_462000007/ai/modulefiles/",
                                                          "export RDZV_HOST=$(hostname)"}));
        QCOMPARE(imp.spec.environment.variables.size(), 2);
        QCOMPARE(imp.spec.environment.variables[0].first, QStringLiteral("OMP_NUM_THREADS"));
        QCOMPARE(imp.spec.environment.variables[0].second, QStringLiteral("$SLURM_CPUS_PER_TASK"));
        QCOMPARE(imp.spec.environment.variables[1].first, QStringLiteral("RDZV_PORT"));
        QCOMPARE(imp.spec.cpusPerGpu, 16);
        QVERIFY(imp.spec.args.isEmpty());   // <options> is a placeholder, not an argument
        const auto it = std::find_if(imp.diagnostics.begin(), imp.diagnostics.end(),
                                     [](const Diagnostic &d) { return d.rule == "launcher-too-few-processes"; });
        QVERIFY(it != imp.diagnostics.end());
        QCOMPARE(it->severity, Severity::Warning);
        QCOMPARE(it->field, QStringLiteral("gpus"));
        QCOMPARE(it->fix.field, QStringLiteral("gpus"));
        QCOMPARE(it->fix.value, QStringLiteral("8"));
        QVERIFY(it->message.contains("--nproc_per_node=8"));
    }
    {   // CSC DeepSpeed: singularity_wrapper is unwrapped and recorded.
        const ScriptImport imp =
            importSbatchScript(readScript("csc-puhti-deepspeed-1node.sbatch"), fixtureProfile("puhti"));
        QCOMPARE(imp.launch()->containerWrapper, QStringLiteral("singularity_wrapper"));
        QCOMPARE(imp.spec.args, (QStringList{"--deepspeed", "--deepspeed_config", "my_ds_config.json"}));
        QVERIFY(imp.spec.environment.container.image.isEmpty());
    }
}

void TestScriptImporterSpec::specFields_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("expected");

    const QString shortForms =
        sh({"#!/bin/bash", "#SBATCH -A project_2001234 -p gputest -J short -t 15", "#SBATCH -N 2 -n8 -c 5",
            "#SBATCH -G 8", "#SBATCH --mem-per-gpu=8G", "srun python3 -u -m mypkg.train --lr 0.1"});
    QTest::newRow("short account") << shortForms << "account"
                                   << "project_2001234";
    QTest::newRow("short partition") << shortForms << "partition"
                                     << "gputest";
    QTest::newRow("short name") << shortForms << "jobName"
                                << "short";
    QTest::newRow("short time") << shortForms << "time"
                                << "15";
    QTest::newRow("short nodes") << shortForms << "nodes"
                                 << "2";
    QTest::newRow("short gpus") << shortForms << "gpus"
                                << "8";
    QTest::newRow("cpus per gpu from tasks") << shortForms << "cpusPerGpu"
                                             << "5";
    QTest::newRow("mem per gpu") << shortForms << "memory"
                                 << "32G";
    QTest::newRow("module program") << shortForms << "program"
                                    << "-m";
    QTest::newRow("module args") << shortForms << "args"
                                 << "mypkg.train --lr 0.1";
    QTest::newRow("ddp by srun") << shortForms << "framework"
                                 << "pytorch-ddp";

    const QString longSpace =
        sh({"#!/bin/bash", "#SBATCH --account project_2001234   # billing", "#SBATCH --partition gpu",
            "#SBATCH --nodes 1-2", "#SBATCH --gpus-per-task 1 --ntasks-per-node 4", "##SBATCH --nodes=4",
            "#SBATCH --time 2-00:00:00",
            "apptainer exec --rocm -B /scratch:/scratch,/data img.sif python3 train.py --data /data"});
    QTest::newRow("space account") << longSpace << "account"
                                   << "project_2001234";
    QTest::newRow("range nodes") << longSpace << "nodes"
                                 << "1";
    QTest::newRow("gpus per task") << longSpace << "gpus"
                                   << "4";
    QTest::newRow("time days") << longSpace << "time"
                               << "2-00:00:00";
    QTest::newRow("container image") << longSpace << "container"
                                     << "img.sif";
    QTest::newRow("container runtime") << longSpace << "runtime"
                                       << "apptainer";
    QTest::newRow("container binds") << longSpace << "binds"
                                     << "/scratch:/scratch,/data";
    QTest::newRow("container program") << longSpace << "program"
                                       << "train.py";

    const QString mpi =
        sh({"#!/bin/bash", "#SBATCH --nodes=1 --ntasks=4 --gres=gpu:4", "module load openmpi horovod/0.28", "ml cuda",
            "export NCCL_DEBUG=INFO", "source venv/bin/activate", "cd $HOME/work",
            "mpirun -np 4 --bind-to none -x NCCL_DEBUG python3 train_hvd.py"});
    QTest::newRow("mpirun framework") << mpi << "framework"
                                      << "horovod";
    QTest::newRow("mpirun launcher") << mpi << "launcher"
                                     << "mpirun";
    QTest::newRow("modules") << mpi << "modules"
                             << "openmpi horovod/0.28 cuda";
    QTest::newRow("variables") << mpi << "variables"
                               << "NCCL_DEBUG=INFO";
    QTest::newRow("setup") << mpi << "setup"
                           << "source venv/bin/activate|cd $HOME/work";

    // LUMI course: the program runs inside "bash -c" in a container.
    const QString bashC = sh({"#!/bin/bash", "#SBATCH --nodes=1 --ntasks-per-node=1 --gpus-per-node=8",
                              "srun singularity exec lumi-pytorch.sif bash -c '$WITH_CONDA; python train.py --bs 32'"});
    QTest::newRow("bash -c program") << bashC << "program"
                                     << "train.py";
    QTest::newRow("bash -c args") << bashC << "args"
                                  << "--bs 32";
    QTest::newRow("bash -c container") << bashC << "container"
                                       << "lumi-pytorch.sif";

    const QString lightning =
        sh({"#!/bin/bash", "#SBATCH --nodes=1 --gpus=2", "python train.py --distribution_strategy=mirrored"});
    QTest::newRow("mirrored") << lightning << "framework"
                              << "tf-mirrored";
}

void TestScriptImporterSpec::specFields()
{
    QFETCH(QString, script);
    QFETCH(QString, field);
    const ScriptImport imp = importSbatchScript(script, fixtureProfile("puhti"));
    const JobSpec &s = imp.spec;
    QString actual;
    if (field == "account")
        actual = s.account;
    else if (field == "partition")
        actual = s.partition;
    else if (field == "jobName")
        actual = s.jobName;
    else if (field == "time")
        actual = s.time;
    else if (field == "nodes")
        actual = QString::number(s.nodes);
    else if (field == "gpus")
        actual = QString::number(s.gpus);
    else if (field == "cpusPerGpu")
        actual = QString::number(s.cpusPerGpu);
    else if (field == "memory")
        actual = s.memory;
    else if (field == "program")
        actual = s.program;
    else if (field == "args")
        actual = s.args.join(' ');
    else if (field == "framework")
        actual = frameworkId(s.framework);
    else if (field == "launcher")
        actual = launcherId(s.effectiveLauncher());
    else if (field == "container")
        actual = s.environment.container.image;
    else if (field == "runtime")
        actual = s.environment.container.runtime;
    else if (field == "binds")
        actual = s.environment.container.binds.join(',');
    else if (field == "modules")
        actual = s.environment.modules.join(' ');
    else if (field == "setup")
        actual = s.environment.setup.join('|');
    else if (field == "variables") {
        QStringList v;
        for (const auto &[k, val] : s.environment.variables)
            v << k + '=' + val;
        actual = v.join(' ');
    }
    QFETCH(QString, expected);
    QVERIFY2(actual == expected,
             qPrintable(QStringLiteral("%1: got \"%2\"\n%3").arg(field, actual, describe(imp.diagnostics))));
}

QTEST_GUILESS_MAIN(TestScriptImporterSpec)
#include "tst_scriptimporter_spec.moc"
