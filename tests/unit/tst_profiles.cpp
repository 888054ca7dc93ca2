// SPDX-License-Identifier: GPL-3.0-or-later
// Profile loading: every bad profile is reported with file and line/column or
// key, never crashes, never hides the good profiles; user profiles override.
#include "core/model/JobSpecJson.h"
#include "core/profiles/ProfileLoader.h"
#include "core/profiles/ProfileRegistry.h"

#include <QDir>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;

namespace {

QByteArray goodProfile()
{
    QFile f(QStringLiteral(SCALELAB_TEST_DATA_DIR "/profiles/site.json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("tests/data/profiles/site.json missing");
    return f.readAll();
}

void write(const QString &path, const QByteArray &data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(data);
}

}   // namespace

class TestProfiles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void loadsGood();
    void malformedJsonHasLineAndColumn();
    void badKeysAreNamed_data();
    void badKeysAreNamed();
    void registryKeepsGoodProfilesAndUserOverrides();
    void brokenOverrideKeepsTheLowerProfileOutOfUse();
    void systemFolderBetweenShippedAndUser();
    void slurmSettingsLoad();
    void specParsing_data();
    void specParsing();
    void specRoundTrip();
};

void TestProfiles::loadsGood()
{
    const auto r = loadProfile(goodProfile(), QStringLiteral("site.json"));
    QVERIFY(r.profile);
    const Partition *p = r.profile->partition(QStringLiteral("gpu"));
    QVERIFY(p);
    QCOMPARE(p->maxGpusPerJob, 8);
    QCOMPARE(p->maxTimeSeconds, 2 * 86400);
    QCOMPARE(p->sources.value(QStringLiteral("maxGpusPerJob")), QStringLiteral("https://example.org/qos"));
    QCOMPARE(p->sources.value(QStringLiteral("gpusPerNode")), QStringLiteral("https://example.org/parts"));
}

void TestProfiles::malformedJsonHasLineAndColumn()
{
    QByteArray broken = goodProfile();
    broken.replace("\"name\": \"A site\",", "\"name\": \"A site\"");   // missing comma on line 2
    const auto r = loadProfile(broken, QStringLiteral("site.json"));
    QVERIFY(!r.profile);
    QCOMPARE(r.problems.size(), 1);
    QCOMPARE(r.problems.front().line, 3);
    QVERIFY(r.problems.front().column > 0);
    QVERIFY2(r.problems.front().message.startsWith(QLatin1String("site.json:3:")),
             qPrintable(r.problems.front().message));
}

void TestProfiles::badKeysAreNamed_data()
{
    QTest::addColumn<QByteArray>("from");
    QTest::addColumn<QByteArray>("to");
    QTest::addColumn<QString>("key");
    QTest::newRow("gpus per node as text")
        << QByteArray("\"gpusPerNode\": 4") << QByteArray("\"gpusPerNode\": \"four\"")
        << QStringLiteral("partitions[gpu].gpusPerNode");
    QTest::newRow("bad time") << QByteArray("\"2-00:00:00\"") << QByteArray("\"two days\"")
                              << QStringLiteral("partitions[gpu].maxTime");
    QTest::newRow("no source") << QByteArray("\"source\": \"https://example.org/parts\",") << QByteArray()
                               << QStringLiteral("partitions[gpu].gpusPerNode");
    QTest::newRow("unknown gpu type") << QByteArray("\"gpuType\": \"a100\", \"source\"")
                                      << QByteArray("\"gpuType\": \"h100\", \"source\"")
                                      << QStringLiteral("partitions[gpu].gpuType");
    QTest::newRow("typo key") << QByteArray("\"maxNodes\"") << QByteArray("\"maxNode\"")
                              << QStringLiteral("partitions[gpu].maxNode");
    QTest::newRow("bad style") << QByteArray("\"gres-typed\"") << QByteArray("\"gres-type\"")
                               << QStringLiteral("gpuRequest");
    QTest::newRow("bad default time") << QByteArray("\"maxTime\": \"2-00:00:00\",")
                                      << QByteArray("\"maxTime\": \"2-00:00:00\", \"defaultTime\": \"soon\",")
                                      << QStringLiteral("partitions[gpu].defaultTime");
    QTest::newRow("accounts not a list") << QByteArray("\"maxTime\": \"2-00:00:00\",")
                                         << QByteArray("\"maxTime\": \"2-00:00:00\", \"allowAccounts\": 5,")
                                         << QStringLiteral("partitions[gpu].allowAccounts");
    QTest::newRow("negative memory") << QByteArray("\"maxTime\": \"2-00:00:00\",")
                                     << QByteArray("\"maxTime\": \"2-00:00:00\", \"maxMemPerNodeMB\": -1,")
                                     << QStringLiteral("partitions[gpu].maxMemPerNodeMB");
    QTest::newRow("associations not a list")
        << QByteArray("\"id\": \"site\",") << QByteArray("\"id\": \"site\", \"associations\": 3,")
        << QStringLiteral("associations");
}

void TestProfiles::badKeysAreNamed()
{
    QFETCH(QByteArray, from);
    QFETCH(QByteArray, to);
    QFETCH(QString, key);
    QByteArray doc = goodProfile();
    QVERIFY(doc.contains(from));
    doc.replace(from, to);
    const auto r = loadProfile(doc, QStringLiteral("site.json"));
    QVERIFY(!r.profile);
    QVERIFY(std::any_of(r.problems.begin(), r.problems.end(), [&](const Diagnostic &d) {
        return d.field == key && d.message.startsWith(QLatin1String("site.json: ")) && d.message.contains(key);
    }));
}

void TestProfiles::registryKeepsGoodProfilesAndUserOverrides()
{
    QTemporaryDir builtIn, user;
    write(builtIn.filePath(QStringLiteral("site.json")), goodProfile());
    write(builtIn.filePath(QStringLiteral("broken.json")), "{ \"id\": ");
    write(builtIn.filePath(QStringLiteral("empty.json")), "");
    write(builtIn.filePath(QStringLiteral("binary.json")), QByteArray("\x00\x01\xff\xfe", 4));
    QByteArray mine = goodProfile();
    mine.replace("\"A site\"", "\"My copy of the site\"");
    write(user.filePath(QStringLiteral("site.json")), mine);
    ProfileRegistry reg;
    reg.loadDirectory(builtIn.path(), false);
    QCOMPARE(reg.profiles().size(), 1);
    QCOMPARE(reg.problems().size(), 3);
    for (const auto &d : reg.problems())
        QVERIFY(d.field.endsWith(QLatin1String(".json")));
    reg.loadDirectory(user.path(), true);
    QCOMPARE(reg.profiles().size(), 1);
    QCOMPARE(reg.find(QStringLiteral("site"))->name, QStringLiteral("My copy of the site"));
    QVERIFY(reg.find(QStringLiteral("site"))->userOverride);
}

void TestProfiles::brokenOverrideKeepsTheLowerProfileOutOfUse()
{
    QTemporaryDir shipped, user;
    write(shipped.filePath(QStringLiteral("site.json")), goodProfile());
    write(shipped.filePath(QStringLiteral("other.json")), goodProfile().replace("\"site\"", "\"other\""));
    // Malformed JSON: its id is taken from the file name.
    const QString malformed = user.filePath(QStringLiteral("site.json"));
    write(malformed, "{\n  \"id\": \"site\",\n  \"name\": \"Mine\",\n  oops\n}\n");
    // Valid JSON naming its id, but broken: the id it gives counts.
    QByteArray badKey = goodProfile().replace("\"site\"", "\"other\"");
    badKey.insert(1, "\"colour\": \"blue\", ");
    const QString named = user.filePath(QStringLiteral("my-other.json"));
    write(named, badKey);
    // Broken with no lower profile of its id: nothing to shadow.
    write(user.filePath(QStringLiteral("new-site.json")), "{");

    ProfileRegistry reg;
    reg.loadDirectory(shipped.path(), QStringLiteral("shipped"));
    QCOMPARE(reg.profiles().size(), 2);
    reg.loadDirectory(user.path(), QStringLiteral("user"));
    QVERIFY2(reg.profiles().isEmpty(), "never the shipped copy instead of the researcher's broken file");
    QVERIFY(!reg.find(QStringLiteral("site")));
    const QString site = reg.brokenOverride(QStringLiteral("site"));
    QVERIFY2(site.startsWith(QStringLiteral("profile \"site\" cannot be used: %1:4:").arg(malformed)),
             qPrintable(site));
    QVERIFY2(site.contains(
                 QStringLiteral("replaces the shipped profile %1").arg(shipped.filePath(QStringLiteral("site.json")))),
             qPrintable(site));
    const QString other = reg.brokenOverride(QStringLiteral("other"));
    QVERIFY2(other.contains(named) && other.contains(QLatin1String("colour")), qPrintable(other));
    QCOMPARE(reg.brokenOverride(QStringLiteral("new-site")), QString());

    // Loaded the other way round (a lower folder after a higher one) the result is the same.
    ProfileRegistry reversed;
    reversed.loadDirectory(user.path(), QStringLiteral("user"));
    reversed.loadDirectory(shipped.path(), QStringLiteral("shipped"));
    QVERIFY(reversed.profiles().isEmpty());
    QVERIFY(!reversed.brokenOverride(QStringLiteral("site")).isEmpty());

    // A usable file at the broken file's level or above gives the profile again.
    QTemporaryDir fixed;
    write(fixed.filePath(QStringLiteral("site.json")), goodProfile().replace("\"A site\"", "\"Fixed\""));
    reg.loadDirectory(fixed.path(), QStringLiteral("user"));
    QVERIFY(reg.find(QStringLiteral("site")));
    QCOMPARE(reg.find(QStringLiteral("site"))->name, QStringLiteral("Fixed"));
    QCOMPARE(reg.brokenOverride(QStringLiteral("site")), QString());
}

void TestProfiles::systemFolderBetweenShippedAndUser()
{
    // The folders are taken from the environment, so the test never reads
    // the machine's /etc/xdg or the home folder.
    const QStringList vars = {"SCALELAB_PROFILE_DIR", "SCALELAB_SYSTEM_PROFILE_DIR", "SCALELAB_USER_PROFILE_DIR",
                              "XDG_CONFIG_DIRS"};
    QMap<QString, QByteArray> saved;
    for (const QString &v : vars)
        if (qEnvironmentVariableIsSet(qPrintable(v)))
            saved.insert(v, qgetenv(qPrintable(v)));
    auto restore = qScopeGuard([&] {
        for (const QString &v : vars)
            if (saved.contains(v))
                qputenv(qPrintable(v), saved.value(v));
            else
                qunsetenv(qPrintable(v));
    });
    QTemporaryDir shipped, xdg, user;
    QVERIFY(QDir(xdg.path()).mkpath(QStringLiteral("scalelab/profiles")));
    const QString system = xdg.filePath(QStringLiteral("scalelab/profiles"));
    write(shipped.filePath(QStringLiteral("site.json")), goodProfile());
    QByteArray admins = goodProfile();
    admins.replace("\"A site\"", "\"The admins' copy\"");
    write(system + QStringLiteral("/site.json"), admins);
    QByteArray mine = goodProfile();
    mine.replace("\"A site\"", "\"My copy\"");

    // The system folder is every $XDG_CONFIG_DIRS entry + scalelab/profiles
    // (/etc/xdg/scalelab/profiles by default) unless the override names one.
    qunsetenv("SCALELAB_SYSTEM_PROFILE_DIR");
    qunsetenv("XDG_CONFIG_DIRS");
    QCOMPARE(ProfileRegistry::systemDirectories(), QStringList{QStringLiteral("/etc/xdg/scalelab/profiles")});
    qputenv("XDG_CONFIG_DIRS", (xdg.path() + QStringLiteral(":/nonexistent")).toUtf8());
    QCOMPARE(ProfileRegistry::systemDirectories(),
             (QStringList{system, QStringLiteral("/nonexistent/scalelab/profiles")}));
    qputenv("SCALELAB_PROFILE_DIR", shipped.path().toUtf8());
    qputenv("SCALELAB_USER_PROFILE_DIR", user.path().toUtf8());

    {   // The system copy replaces the shipped one.
        ProfileRegistry reg;
        reg.loadDefaults();
        QCOMPARE(reg.profiles().size(), 1);
        QCOMPARE(reg.find(QStringLiteral("site"))->name, QStringLiteral("The admins' copy"));
        QCOMPARE(reg.find(QStringLiteral("site"))->origin, QStringLiteral("system"));
        QVERIFY(reg.problems().isEmpty());
    }
    write(user.filePath(QStringLiteral("site.json")), mine);
    {   // The user's copy replaces the system one.
        ProfileRegistry reg;
        reg.loadDefaults();
        QCOMPARE(reg.profiles().size(), 1);
        QCOMPARE(reg.find(QStringLiteral("site"))->name, QStringLiteral("My copy"));
        QCOMPARE(reg.find(QStringLiteral("site"))->origin, QStringLiteral("user"));
    }
    {   // The override folder works the same way.
        QVERIFY(QFile::remove(user.filePath(QStringLiteral("site.json"))));
        qunsetenv("XDG_CONFIG_DIRS");
        qputenv("SCALELAB_SYSTEM_PROFILE_DIR", system.toUtf8());
        QCOMPARE(ProfileRegistry::systemDirectories(), QStringList{system});
        ProfileRegistry reg;
        reg.loadDefaults();
        QCOMPARE(reg.find(QStringLiteral("site"))->origin, QStringLiteral("system"));
    }
}

void TestProfiles::slurmSettingsLoad()
{
    // Slurm's own partition settings: bare (the partition's source), as a
    // setting with its own source, or null for "not known".
    QByteArray doc = goodProfile();
    doc.replace("\"maxTime\": \"2-00:00:00\",",
                "\"maxTime\": \"2-00:00:00\", \"state\": \"up\", "
                "\"defaultTime\": {\"value\": \"01:00:00\", \"source\": \"https://example.org/default\"}, "
                "\"allowAccounts\": [\"p1\", \"p2\"], \"allowQos\": \"ALL\", \"defMemPerCpuMB\": 2000, "
                "\"defCpusPerGpu\": 8, \"maxMemPerNodeMB\": null, \"tresBillingWeights\": \"CPU=1.0,GRES/gpu=4.0\",");
    const auto r = loadProfile(doc, QStringLiteral("site.json"));
    QVERIFY2(r.profile, qPrintable(r.problems.isEmpty() ? QString() : r.problems.front().message));
    const Partition *p = r.profile->partition(QStringLiteral("gpu"));
    QCOMPARE(p->state, QStringLiteral("UP"));
    QCOMPARE(p->defaultTimeSeconds, std::optional<qint64>(3600));
    QCOMPARE(p->sources.value(QStringLiteral("defaultTime")), QStringLiteral("https://example.org/default"));
    QCOMPARE(p->allowAccounts, (QStringList{"p1", "p2"}));
    QVERIFY(p->allowQos.isEmpty());
    QCOMPARE(p->defMemPerCpuMB, 2000);
    QCOMPARE(p->defCpusPerGpu, 8);
    QCOMPARE(p->tresBillingWeights, QStringLiteral("CPU=1.0,GRES/gpu=4.0"));
    QVERIFY(!p->isKnown(QStringLiteral("maxMemPerNodeMB")));
    QCOMPARE(p->sources.value(QStringLiteral("maxMemPerNodeMB")), QStringLiteral("https://example.org/parts"));
    QCOMPARE(p->sources.value(QStringLiteral("state")), QStringLiteral("https://example.org/parts"));
    // A profile that does not describe them is unchanged: nothing to check.
    const auto bare = loadProfile(goodProfile(), QStringLiteral("site.json"));
    QVERIFY(bare.profile);
    const Partition *plain = bare.profile->partition(QStringLiteral("gpu"));
    QVERIFY(plain->state.isEmpty());
    QCOMPARE(plain->defaultTimeSeconds, std::nullopt);
    QVERIFY(plain->unknown.isEmpty());
}

void TestProfiles::specParsing_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("line");
    QTest::newRow("unknown key") << QByteArray(
        "{\n \"profile\": \"t\",\n \"gpus\": 2,\n \"framework\": \"horovod\",\n \"gpu\": 3\n}")
                                 << QStringLiteral("gpu") << 5;
    QTest::newRow("nested unknown") << QByteArray(
        "{\"profile\": \"t\", \"gpus\": 2, \"framework\": \"horovod\",\n\"environment\": {\"modul\": []}}")
                                    << QStringLiteral("environment.modul") << 2;
    QTest::newRow("gpus text") << QByteArray("{\"profile\": \"t\", \"gpus\": \"2\", \"framework\": \"horovod\"}")
                               << QStringLiteral("gpus") << 1;
    QTest::newRow("gpus missing") << QByteArray("{\"profile\": \"t\", \"framework\": \"horovod\"}")
                                  << QStringLiteral("gpus") << 0;
    QTest::newRow("bad framework") << QByteArray("{\"profile\": \"t\", \"gpus\": 1, \"framework\": \"caffe\"}")
                                   << QStringLiteral("framework") << 1;
    QTest::newRow("bad launcher") << QByteArray(
        "{\"profile\": \"t\", \"gpus\": 1, \"framework\": \"horovod\", \"launcher\": \"ssh\"}")
                                  << QStringLiteral("launcher") << 1;
    QTest::newRow("not an object") << QByteArray("[1,2]") << QStringLiteral("(top level)") << 0;
}

void TestProfiles::specParsing()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, field);
    QFETCH(int, line);
    const auto r = parseJobSpec(json, QStringLiteral("spec.json"));
    QVERIFY(!r.spec);
    auto it = std::find_if(r.errors.begin(), r.errors.end(), [&](const Diagnostic &d) { return d.field == field; });
    QVERIFY2(it != r.errors.end(), qPrintable(r.errors.isEmpty() ? QString() : r.errors.front().message));
    QCOMPARE(it->line, line);
}

void TestProfiles::specRoundTrip()
{
    QFile f(QStringLiteral(SCALELAB_TEST_DATA_DIR "/specs/lumi-ddp-container-16gpu.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const auto a = parseJobSpec(f.readAll());
    QVERIFY(a.spec);
    const auto b = parseJobSpec(jobSpecToJson(*a.spec));
    QVERIFY(b.spec);
    QCOMPARE(*a.spec == *b.spec, true);
    QCOMPARE(b.spec->environment.container.binds.size(), 1);
    QCOMPARE(b.spec->launcher.value(), Launcher::Srun);
}

QTEST_GUILESS_MAIN(TestProfiles)
#include "tst_profiles.moc"
