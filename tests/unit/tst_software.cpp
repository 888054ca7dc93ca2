// SPDX-License-Identifier: GPL-3.0-or-later
// The cluster's software: module listings of Lmod and Environment Modules, how
// `module load` finds a module, the validator's and the linter's findings
// against a discovered list (never without one), container images, the
// profile file, and the discovery script's module and image commands.
#include "DiscoveryFixtures.h"

#include "core/base/ShellQuote.h"
#include "core/compose/JobValidator.h"
#include "core/discovery/DiscoveryScript.h"
#include "core/discovery/ProfileJson.h"
#include "core/model/SoftwareCatalog.h"
#include "core/profiles/ProfileLoader.h"
#include "core/scriptimport/ScriptImporter.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;
using namespace scalelab::test;

namespace {

// `module -t spider` of Lmod 8.6 (Debian 12) on the test cluster's module
// files, stderr and stdout together, with an error message mixed in.
const char *kLmodSpider = "Core/\n"
                          "Core/lmod\n"
                          "Core/settarg\n"
                          "cuda/\n"
                          "cuda/12.2\n"
                          "pytorch/\n"
                          "pytorch/2.4.1\n"
                          "pytorch/2.6.0\n"
                          "Lmod has detected the following error: The following module(s) are unknown:\n"
                          "\"pytorch/2.9\"\n"
                          "Please check the spelling or version number. Also try \"module spider ...\"\n"
                          "  $ module --ignore_cache load \"pytorch/2.9\"\n"
                          "#%Module\n";

// `module -t avail` of Environment Modules (Tcl) with marks and folders.
const char *kTclAvail = "/usr/share/modules/modulefiles:\n"
                        "dot\n"
                        "module-git\n"
                        "/appl/modulefiles:\n"
                        "gcc/12.2.0(default)\n"
                        "gcc/13.1.0\n"
                        "openmpi/4.1.5 <L>\n"
                        "pytorch/2.6.0 (D)\n";

ClusterProfile withSoftware()
{
    ClusterProfile p;
    p.id = QStringLiteral("testbed");
    p.name = QStringLiteral("Test cluster");
    p.loginHosts << LoginHost{QStringLiteral("testbed"), QStringLiteral("127.0.0.1"), 2222};
    p.availableModules = SoftwareCatalog::parseModuleListing(QString::fromLatin1(kLmodSpider));
    p.sources.insert(QStringLiteral("availableModules"), QStringLiteral("module -t spider (on testbed, 2026-11-27)"));
    p.containerDirs = {QStringLiteral("/appl/containers")};
    p.sources.insert(QStringLiteral("containerDirs"), QStringLiteral("https://docs.example.org/containers"));
    p.containerImages = QStringList{QStringLiteral("/appl/containers/pytorch_24.05.sif"),
                                    QStringLiteral("/appl/containers/tensorflow_2.15.sif")};
    p.sources.insert(QStringLiteral("containerImages"), QStringLiteral("ls (on testbed, 2026-11-27)"));
    return p;
}

QList<Diagnostic> byRule(const Diagnostics &ds, const QString &rule)
{
    QList<Diagnostic> out;
    for (const auto &d : ds)
        if (d.rule == rule)
            out << d;
    return out;
}

}   // namespace

class TestSoftware : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void lmodAndTclListingsAreRead()
    {
        QCOMPARE(SoftwareCatalog::parseModuleListing(QString::fromLatin1(kLmodSpider)),
                 (QStringList{"Core/lmod", "Core/settarg", "cuda/12.2", "pytorch/2.4.1", "pytorch/2.6.0"}));
        QCOMPARE(SoftwareCatalog::parseModuleListing(QString::fromLatin1(kTclAvail)),
                 (QStringList{"dot", "gcc/12.2.0", "gcc/13.1.0", "module-git", "openmpi/4.1.5", "pytorch/2.6.0"}));
        QCOMPARE(SoftwareCatalog::parseModuleListing(QStringLiteral("No module(s) or extension(s) found!\n")),
                 QStringList());
    }

    void loadFindsModulesAsLmodDoes()
    {
        const QStringList have{"cuda/12.2", "gcc/12.2.0", "pytorch/2.4.1", "pytorch/2.6.0"};
        QVERIFY(SoftwareCatalog::moduleAvailable(QStringLiteral("pytorch/2.6.0"), have));
        QVERIFY(SoftwareCatalog::moduleAvailable(QStringLiteral("pytorch"), have));   // the default version
        QVERIFY(SoftwareCatalog::moduleAvailable(QStringLiteral("cuda/12"), have));   // a prefix ending at a dot
        QVERIFY(SoftwareCatalog::moduleAvailable(QStringLiteral("pytorch/2.6"), have));
        QVERIFY(!SoftwareCatalog::moduleAvailable(QStringLiteral("cuda/1"), have));   // not inside a number
        QVERIFY(!SoftwareCatalog::moduleAvailable(QStringLiteral("pytorch/2.9"), have));
        QVERIFY(!SoftwareCatalog::moduleAvailable(QStringLiteral("PyTorch"), have));   // Lmod is case-sensitive
        QVERIFY(!SoftwareCatalog::moduleAvailable(QStringLiteral("gc"), have));
        QCOMPARE(SoftwareCatalog::alternatives(QStringLiteral("PyTorch/2.9"), have),
                 (QStringList{"pytorch/2.4.1", "pytorch/2.6.0"}));
    }

    void validatorNamesTheVersionsThereAre()
    {
        const ClusterProfile p = withSoftware();
        JobSpec s;
        s.environment.modules = {QStringLiteral("cuda/12.2"), QStringLiteral("pytorch/2.9")};
        const QList<Diagnostic> found = byRule(SoftwareCatalog::check(s, p), QStringLiteral("module-not-on-cluster"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.front().severity, Severity::Warning);
        QCOMPARE(found.front().field, QStringLiteral("environment.modules"));
        QVERIFY2(found.front().message.contains(QStringLiteral("pytorch/2.9"))
                     && found.front().message.contains(QStringLiteral("pytorch/2.4.1, pytorch/2.6.0"))
                     && found.front().message.contains(QStringLiteral("module -t spider (on testbed, 2026-11-27)"))
                     && found.front().message.contains(QStringLiteral("scalelab discover testbed")),
                 qPrintable(found.front().message));
        // The whole validator carries it.
        QCOMPARE(byRule(validateJob(s, p), QStringLiteral("module-not-on-cluster")).size(), 1);
        // A module nobody has: said so.
        s.environment.modules = {QStringLiteral("tensorflow/2.15")};
        QVERIFY(SoftwareCatalog::check(s, p).front().message.contains(QStringLiteral("no module named tensorflow")));
    }

    void nothingIsCheckedWithoutAList()
    {
        ClusterProfile p = withSoftware();
        JobSpec s;
        s.environment.modules = {QStringLiteral("pytorch/2.9")};
        s.environment.container.image = QStringLiteral("/appl/containers/missing.sif");
        QCOMPARE(SoftwareCatalog::check(s, p).size(), 2);
        // `module use` may add modules the list never saw.
        s.environment.setup = {QStringLiteral("module use /scratch/project/modules")};
        QCOMPARE(byRule(SoftwareCatalog::check(s, p), QStringLiteral("module-not-on-cluster")).size(), 0);
        s.environment.setup.clear();
        p.availableModules.reset();
        p.containerImages.reset();
        QCOMPARE(SoftwareCatalog::check(s, p).size(), 0);
        QCOMPARE(byRule(validateJob(s, p), QStringLiteral("module-not-on-cluster")).size(), 0);
    }

    void imagesOnlyInListedFolders()
    {
        const ClusterProfile p = withSoftware();
        JobSpec s;
        s.environment.container.image = QStringLiteral("/appl/containers/pytorch_24.05.sif");
        QCOMPARE(SoftwareCatalog::check(s, p).size(), 0);
        s.environment.container.image = QStringLiteral("/appl/containers/pytorch_24.5.sif");
        const Diagnostics found = SoftwareCatalog::check(s, p);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.front().rule, QStringLiteral("image-not-on-cluster"));
        QVERIFY2(found.front().message.contains(QStringLiteral("pytorch_24.05.sif, tensorflow_2.15.sif")),
                 qPrintable(found.front().message));
        s.environment.container.image = QStringLiteral("/scratch/project/own.sif");   // a folder nobody listed
        QCOMPARE(SoftwareCatalog::check(s, p).size(), 0);
    }

    void linterPutsEachModuleOnItsLine()
    {
        const QString script = QStringLiteral("#!/bin/bash\n"
                                              "#SBATCH --partition=gpu\n"
                                              "#SBATCH --gres=gpu:v100:1\n"
                                              "#SBATCH --time=00:10:00\n"
                                              "module load cuda/12.2\n"
                                              "module load pytorch/2.9\n"
                                              "srun python3 train.py\n");
        const ScriptImport imp = importSbatchScript(script, withSoftware());
        const QList<Diagnostic> found = byRule(imp.diagnostics, QStringLiteral("module-not-on-cluster"));
        QCOMPARE(found.size(), 1);   // the validator's copy is not added again
        QCOMPARE(found.front().line, 6);
        ClusterProfile unlisted = withSoftware();
        unlisted.availableModules.reset();
        QCOMPARE(
            byRule(importSbatchScript(script, unlisted).diagnostics, QStringLiteral("module-not-on-cluster")).size(),
            0);
    }

    void profileFileKeepsTheLists()
    {
        ClusterProfile p = ProfileBuilder::build(testbedInput(), nullptr).profile;
        const ClusterProfile soft = withSoftware();
        p.availableModules = soft.availableModules;
        p.containerImages = soft.containerImages;
        p.containerDirs = soft.containerDirs;
        for (const char *k : {"availableModules", "containerImages", "containerDirs"})
            p.sources.insert(QString::fromLatin1(k), soft.sources.value(QString::fromLatin1(k)));
        const auto loaded = loadProfile(ProfileJson::write(p), QStringLiteral("testbed.json"));
        QVERIFY2(loaded.profile, qPrintable(loaded.problems.isEmpty() ? QString() : loaded.problems.front().message));
        QCOMPARE(loaded.profile->availableModules, p.availableModules);
        QCOMPARE(loaded.profile->containerImages, p.containerImages);
        QCOMPARE(loaded.profile->containerDirs, p.containerDirs);
        QCOMPARE(loaded.profile->sources.value(QStringLiteral("availableModules")),
                 QStringLiteral("module -t spider (on testbed, 2026-11-27)"));
        // A wrong shape names the key.
        QByteArray bad = ProfileJson::write(p);
        bad.replace("\"availableModules\": {", "\"availableModules\": 3, \"unused\": {");
        const auto refused = loadProfile(bad, QStringLiteral("testbed.json"));
        QVERIFY(std::any_of(refused.problems.begin(), refused.problems.end(), [](const Diagnostic &d) {
            return d.field == QLatin1String("availableModules") && d.message.contains(QLatin1String("array"));
        }));
    }

    void discoveryReadsTheModuleSection()
    {
        const DiscoveryScript script(QStringLiteral("n0nce"));
        QVERIFY(script.argv().last().contains(QStringLiteral("module -t spider")));
        // What the SSH layer sends at all (no '!', no control character).
        for (const QString &arg : script.argv() + DiscoveryScript::imageListingArgv({QStringLiteral("$HOME/images")}))
            QVERIFY2(ShellQuote::isSafeForRemote(arg), qPrintable(arg));
        QByteArray out;
        for (const QString &name : DiscoveryScript::sectionNames()) {
            out += "@@scalelab-n0nce@@ " + name.toUtf8() + "\n";
            if (name == QLatin1String("modules"))
                out += QByteArray("lmod spider\n") + kLmodSpider;
            out += "@@scalelab-n0nce@@ rc " + QByteArray(name == QLatin1String("modules") ? "0" : "1") + "\n";
        }
        DiscoveryScript::Parsed parsed = script.parse(out, QStringLiteral("testbed"), QStringLiteral("2026-11-27"));
        QVERIFY(parsed.input.modules);
        QCOMPARE(parsed.input.modules->size(), 5);
        QCOMPARE(parsed.input.modulesCommand, QStringLiteral("module -t spider"));
        const BuiltProfile built = ProfileBuilder::build(parsed.input, nullptr);
        QCOMPARE(built.profile.availableModules, parsed.input.modules);
        QCOMPARE(built.profile.sources.value(QStringLiteral("availableModules")),
                 QStringLiteral("module -t spider (on testbed, 2026-11-27)"));
        // No module system: an info, and nothing listed.
        out.replace("lmod spider\n", "");
        out.replace("@@scalelab-n0nce@@ rc 0", "@@scalelab-n0nce@@ rc 3");
        parsed = script.parse(out, QStringLiteral("testbed"), QStringLiteral("2026-11-27"));
        QVERIFY(!parsed.input.modules);
        QCOMPARE(byRule(parsed.diagnostics, QStringLiteral("discovery-no-module-system")).size(), 1);
        QCOMPARE(byRule(parsed.diagnostics, QStringLiteral("discovery-no-module-system")).front().severity,
                 Severity::Info);
    }

    void imageListingRunsInAShell()
    {
        // The command itself, run by sh here: a folder name with a quote and a
        // space stays one word, and only image files are kept.
        QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/it's a dir-XXXXXX"));
        QVERIFY(dir.isValid());
        for (const char *f : {"pytorch.sif", "notes.txt", "data.sqsh"}) {
            QFile file(dir.filePath(QString::fromLatin1(f)));
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub.sif")));   // a folder is not an image
        const QStringList argv = DiscoveryScript::imageListingArgv({dir.path(), QStringLiteral("/nonexistent/x")});
        QProcess sh;
        sh.start(argv.front(), argv.mid(1));
        QVERIFY(sh.waitForFinished(10000));
        QCOMPARE(sh.exitCode(), 0);
        QCOMPARE(SoftwareCatalog::parseImageListing(QString::fromUtf8(sh.readAllStandardOutput())),
                 (QStringList{dir.filePath(QStringLiteral("data.sqsh")), dir.filePath(QStringLiteral("pytorch.sif"))}));
    }
};

QTEST_GUILESS_MAIN(TestSoftware)
#include "tst_software.moc"
