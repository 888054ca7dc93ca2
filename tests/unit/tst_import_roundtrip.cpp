// SPDX-License-Identifier: GPL-3.0-or-later
// `scalelab import` round trip: a script imported, rendered and imported
// again gives the same spec (a fixed point), and what the rendered script
// asks of Slurm differs from the original only where the import summary
// says so. Over every sbatch script in tests/data and every real public
// script in ../shared/real-scripts (read in place, never copied; skipped
// with a message when absent).

#include "core/compose/SbatchRenderer.h"
#include "core/model/JobSpecJson.h"
#include "core/profiles/ProfileRegistry.h"
#include "core/scriptimport/ImportSummary.h"
#include "core/scriptimport/ScriptFile.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

using namespace scalelab;

namespace {

const QString kRealScripts = QStringLiteral(SCALELAB_SHARED_DIR "/real-scripts/");

// What a script asks Slurm for, after the importer's conversions.
QMap<QString, QString> resources(const ScriptImport &imp)
{
    const ScriptRequest &r = imp.request;
    QMap<QString, QString> out;
    out[QStringLiteral("gpus")] = QString::number(r.gpus);
    out[QStringLiteral("nodes")] = QString::number(r.effectiveNodes());
    out[QStringLiteral("cpus")] = QString::number(r.cpusPerNode() * r.effectiveNodes());
    out[QStringLiteral("memory")] = imp.spec.memory;
    out[QStringLiteral("time")] = imp.spec.time;
    out[QStringLiteral("partition")] = imp.spec.partition;
    out[QStringLiteral("account")] = imp.spec.account;
    for (const auto &[name, value] : imp.spec.slurmOptions)
        out[name] = value;
    return out;
}

// The spec fields and options the summary says the import changed or dropped.
QSet<QString> saidChanged(const ScriptImport &imp)
{
    QSet<QString> out;
    for (const Diagnostic &d : imp.summary) {
        if (!d.field.isEmpty())
            out << d.field;
        for (const QString &word : d.message.split(QRegularExpression(QStringLiteral("[^A-Za-z-]+"))))
            out << word;
    }
    return out;
}

QString differences(const JobSpec &a, const JobSpec &b)
{
    const QJsonObject ja = QJsonDocument::fromJson(jobSpecToJson(a)).object();
    const QJsonObject jb = QJsonDocument::fromJson(jobSpecToJson(b)).object();
    QStringList out;
    QStringList keys = ja.keys() + jb.keys();
    keys.removeDuplicates();
    for (const QString &k : keys)
        if (ja.value(k) != jb.value(k))
            out << QStringLiteral("%1: %2 -> %3")
                       .arg(k, QString::fromUtf8(QJsonDocument(QJsonArray{ja.value(k)}).toJson(QJsonDocument::Compact)),
                            QString::fromUtf8(QJsonDocument(QJsonArray{jb.value(k)}).toJson(QJsonDocument::Compact)));
    out.sort();
    return out.join(QStringLiteral("; "));
}

}   // namespace

class TstImportRoundTrip : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void testDataScripts_data();
    void testDataScripts();
    void realScripts_data();
    void realScripts();

private:
    // Why a script does not reach the fixed point, "" when it does.
    QString roundTrip(const QString &path);
    ProfileRegistry m_profiles;
};

void TstImportRoundTrip::initTestCase()
{
    m_profiles.loadDirectory(QStringLiteral(SCALELAB_TESTS_DIR "/../profiles"), false);
    QVERIFY(m_profiles.find(QStringLiteral("generic")));
}

QString TstImportRoundTrip::roundTrip(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read");
    const QString text = ScriptFile::decode(f.readAll());
    // As `scalelab import` without --profile: the site the script names, else generic.
    const ClusterProfile *profile = m_profiles.find(QStringLiteral("generic"));
    if (const auto site =
            recogniseSite(ScriptFile::importText(text, path, *profile), m_profiles.profiles(), profile->id))
        profile = m_profiles.find(site->profileId);
    const ScriptImport first = ScriptFile::importText(text, path, *profile);
    if (!first.launch())
        return {};   // no program: nothing to render back
    const QString rendered = renderSbatch(first.spec, *profile);
    const ScriptImport second = ScriptFile::importText(rendered, QString(), *profile);
    if (first.spec != second.spec)
        return QStringLiteral("not a fixed point: ") + differences(first.spec, second.spec);
    const auto before = resources(first);
    const auto after = resources(second);
    const QSet<QString> said = saidChanged(first);
    QStringList unsaid;
    for (auto it = before.cbegin(); it != before.cend(); ++it)
        if (after.value(it.key()) != it.value() && !said.contains(it.key()))
            unsaid << QStringLiteral("%1 %2 -> %3").arg(it.key(), it.value(), after.value(it.key()));
    if (!unsaid.isEmpty())
        return QStringLiteral("resources changed without a word in the summary: ") + unsaid.join(QStringLiteral(", "));
    return {};
}

void TstImportRoundTrip::testDataScripts_data()
{
    QTest::addColumn<QString>("path");
    QDirIterator it(QStringLiteral(SCALELAB_TESTS_DIR "/data"), {QStringLiteral("*.sbatch"), QStringLiteral("*.sh")},
                    QDir::Files, QDirIterator::Subdirectories);
    QStringList paths;
    while (it.hasNext())
        paths << it.next();
    paths.sort();
    QVERIFY(paths.size() > 50);
    for (const QString &p : paths)
        QTest::newRow(qPrintable(QDir(QStringLiteral(SCALELAB_TESTS_DIR "/data")).relativeFilePath(p))) << p;
}

void TstImportRoundTrip::testDataScripts()
{
    QFETCH(QString, path);
    const QString why = roundTrip(path);
    QVERIFY2(why.isEmpty(), qPrintable(why));
}

void TstImportRoundTrip::realScripts_data()
{
    QTest::addColumn<QString>("file");
    if (!QFileInfo::exists(kRealScripts + QStringLiteral("MANIFEST.md")))
        return;
    for (const QString &f : QDir(kRealScripts).entryList({QStringLiteral("*.sh")}, QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(f)) << f;
}

void TstImportRoundTrip::realScripts()
{
    if (!QFileInfo::exists(kRealScripts + QStringLiteral("MANIFEST.md")))
        QSKIP("../shared/real-scripts (with its MANIFEST.md) is absent: the real-script round trip needs it");
    QFETCH(QString, file);
    const QString why = roundTrip(kRealScripts + file);
    QVERIFY2(why.isEmpty(), qPrintable(file + QStringLiteral(": ") + why));
}

QTEST_GUILESS_MAIN(TstImportRoundTrip)
#include "tst_import_roundtrip.moc"
