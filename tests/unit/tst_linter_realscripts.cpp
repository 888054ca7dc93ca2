// SPDX-License-Identifier: GPL-3.0-or-later
// The linter on real public scripts (../shared/real-scripts, read in place,
// never copied; see its MANIFEST.md): every script an expert found correct
// gets no error and no warning under its site's shipped profile (generic
// where the site has none), and every knowable cause of a WRONG script is
// reported as an error or warning with its rule.

#include "core/profiles/ProfileRegistry.h"
#include "core/scriptimport/ScriptImporter.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

using namespace scalelab;

namespace {

const QString kScripts = QStringLiteral(SCALELAB_SHARED_DIR "/real-scripts/");

// The knowable cause of each WRONG script, as a rule id; "" = the cause lies
// outside the script (a file missing from its repository).
struct WrongCause {
    const char *file;
    const char *rule;
};
constexpr WrongCause kWrong[] = {
    {"generic__PrincetonUniversity__tensorflow-job.slurm.sh", ""},
    {"generic__SquareJacob__torch-gpus1-nproc4.sh", "launcher-too-many-processes"},
    {"generic__SquareJacob__torch-gpus4-nproc1.sh", "launcher-too-few-processes"},
    {"generic__sertacafsari__habrok-srun-x-torchrun.sh", "launcher-too-many-processes"},
    {"lumi__Lumi-supercomputer__ai-guide-run_ddp_torchrun-2025-11-CCONTAINER-typo.sh", "variable-never-set"},
    {"lumi__Lumi-supercomputer__ai-guide-run_ds-2024-12.sh", "launcher-too-many-processes"},
};

struct Verdict {
    QString file;
    QString verdict;   // "Looks correct", "Risky", "WRONG"
};

QList<Verdict> manifest()
{
    QFile f(kScripts + QStringLiteral("MANIFEST.md"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    static const QRegularExpression row(QStringLiteral("^\\| `([^`]+\\.sh)` \\|.*\\| ([^|]+) \\|\\s*$"));
    QList<Verdict> out;
    for (const QString &line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'))) {
        const auto m = row.match(line);
        if (!m.hasMatch())
            continue;
        const QString v = m.captured(2).trimmed();
        out << Verdict{m.captured(1), v.startsWith(QLatin1String("Looks correct")) ? QStringLiteral("Looks correct")
                                      : v.startsWith(QLatin1String("WRONG"))       ? QStringLiteral("WRONG")
                                                                                   : QStringLiteral("Risky")};
    }
    return out;
}

QString profileIdOf(const QString &file)
{
    const QString site = file.section(QStringLiteral("__"), 0, 0);
    return site == QLatin1String("aau") ? QStringLiteral("aau-ai-cloud") : site;
}

QString listed(const Diagnostics &diags)
{
    QStringList out;
    for (const Diagnostic &d : diags)
        if (d.severity != Severity::Info)
            out << QStringLiteral("%1 %2@%3: %4").arg(severityName(d.severity), d.rule).arg(d.line).arg(d.message);
    return out.join(QLatin1Char('\n'));
}

}   // namespace

class TstLinterRealScripts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void correctScriptsAreQuiet_data();
    void correctScriptsAreQuiet();
    void wrongScriptsNameTheirCause_data();
    void wrongScriptsNameTheirCause();
    void everyWrongScriptHasAnExpectedCause();

private:
    ScriptImport lint(const QString &file);
    ProfileRegistry m_profiles;
    QList<Verdict> m_manifest;
};

void TstLinterRealScripts::initTestCase()
{
    m_manifest = manifest();
    if (m_manifest.isEmpty())
        QSKIP("../shared/real-scripts (with its MANIFEST.md) is absent: the real-script tests need it");
    m_profiles.loadDirectory(QStringLiteral(SCALELAB_TESTS_DIR "/../profiles"), false);
    QVERIFY(m_profiles.find(QStringLiteral("generic")));
}

ScriptImport TstLinterRealScripts::lint(const QString &file)
{
    QFile f(kScripts + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file));
    const ClusterProfile *p = m_profiles.find(profileIdOf(file));
    if (!p)
        p = m_profiles.find(QStringLiteral("generic"));
    return importSbatchScript(QString::fromUtf8(f.readAll()), *p);
}

void TstLinterRealScripts::correctScriptsAreQuiet_data()
{
    QTest::addColumn<QString>("file");
    for (const Verdict &v : manifest())
        if (v.verdict == QLatin1String("Looks correct"))
            QTest::newRow(qPrintable(v.file)) << v.file;
}

void TstLinterRealScripts::correctScriptsAreQuiet()
{
    QFETCH(QString, file);
    const ScriptImport imp = lint(file);
    const QString loud = listed(imp.diagnostics);
    if (!loud.isEmpty())
        qWarning().noquote() << file << "\n" << loud;
    QCOMPARE(countOf(imp.diagnostics, Severity::Error), 0);
    QCOMPARE(countOf(imp.diagnostics, Severity::Warning), 0);
}

void TstLinterRealScripts::wrongScriptsNameTheirCause_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("rule");
    for (const WrongCause &w : kWrong)
        if (*w.rule)
            QTest::newRow(w.file) << QString::fromLatin1(w.file) << QString::fromLatin1(w.rule);
}

void TstLinterRealScripts::wrongScriptsNameTheirCause()
{
    QFETCH(QString, file);
    QFETCH(QString, rule);
    const ScriptImport imp = lint(file);
    const bool found = std::any_of(imp.diagnostics.begin(), imp.diagnostics.end(),
                                   [&](const Diagnostic &d) { return d.rule == rule && d.severity != Severity::Info; });
    if (!found)
        qWarning().noquote() << file << "\n" << listed(imp.diagnostics);
    QVERIFY2(found, qPrintable(rule));
}

void TstLinterRealScripts::everyWrongScriptHasAnExpectedCause()
{
    int wrong = 0;
    for (const Verdict &v : m_manifest) {
        if (v.verdict != QLatin1String("WRONG"))
            continue;
        ++wrong;
        const bool known = std::any_of(std::begin(kWrong), std::end(kWrong),
                                       [&](const WrongCause &w) { return v.file == QLatin1String(w.file); });
        QVERIFY2(known, qPrintable(v.file + QStringLiteral(": a WRONG script without an expected cause")));
    }
    QCOMPARE(wrong, int(std::size(kWrong)));
}

QTEST_GUILESS_MAIN(TstLinterRealScripts)
#include "tst_linter_realscripts.moc"
