// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile input from outside (issue 11): each reproducer that once crashed,
// overflowed or was read wrongly gives one clear finding naming the file, key
// or line, and every cap on what is read is reported when hit. The inputs that
// once crawled are in tst_inputgrowth (run under a CTest timeout).
#include "ScriptImportFixtures.h"

#include "core/base/InputLimits.h"
#include "core/base/JsonSupport.h"
#include "core/compose/JobValidator.h"
#include "core/model/JobSpecJson.h"
#include "core/profiles/ProfileLoader.h"
#include "core/profiles/ProfileRegistry.h"
#include "core/scriptimport/ScriptImporter.h"
#include "core/slurm/SacctParser.h"
#include "core/sshconfig/SshConfigFile.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;
using namespace scalelab::testing;

namespace {

QByteArray goodProfile()
{
    QFile f(QStringLiteral(SCALELAB_TEST_DATA_DIR "/profiles/site.json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("tests/data/profiles/site.json missing");
    return f.readAll();
}

bool write(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

QList<Diagnostic> withRule(const Diagnostics &diags, const QString &rule)
{
    QList<Diagnostic> out;
    for (const auto &d : diags)
        if (d.rule == rule)
            out << d;
    return out;
}

}   // namespace

class TestInputCaps : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // F1: a number no double holds used to abort the process (exit 134).
    void hugeNumberInSpecIsAFinding()
    {
        const QByteArray spec =
            "{\n  \"profile\": \"testbed\",\n  \"gpus\": 1e999,\n  \"framework\": \"pytorch-ddp\"\n}\n";
        const auto r = parseJobSpec(spec, QStringLiteral("spec.json"));
        QVERIFY(!r.spec);
        QCOMPARE(r.errors.size(), 1);
        QCOMPARE(r.errors[0].rule, QStringLiteral("spec-malformed"));
        QCOMPARE(r.errors[0].line, 3);
        QCOMPARE(r.errors[0].column, 11);
        QCOMPARE(r.errors[0].message,
                 QStringLiteral("spec.json:3:11: malformed JSON: number overflow parsing '1e999': the number is too "
                                "large; write a smaller value"));
    }

    void negativeHugeNumberInProfileIsAFinding()
    {
        QByteArray profile = goodProfile();
        const qsizetype at = profile.indexOf("\"gpusPerNode\"");
        QVERIFY(at > 0);
        const qsizetype colon = profile.indexOf(':', at);
        const qsizetype end = profile.indexOf(',', colon);
        profile.replace(colon + 1, end - colon - 1, " -1e999");
        const auto r = loadProfile(profile, QStringLiteral("site.json"));
        QVERIFY(!r.profile);
        QCOMPARE(r.problems.size(), 1);
        QCOMPARE(r.problems[0].rule, QStringLiteral("profile-malformed"));
        int line = 0, column = 0;
        JsonSupport::lineColumnAt(profile, std::size_t(colon + 2), &line, &column);
        QCOMPARE(r.problems[0].line, line);
        QCOMPARE(r.problems[0].column, column);
        QVERIFY2(r.problems[0].message.startsWith(QStringLiteral("site.json:%1:%2: malformed JSON: number overflow "
                                                                 "parsing '-1e999'")
                                                      .arg(line)
                                                      .arg(column)),
                 qPrintable(r.problems[0].message));
    }

    // One bad profile never hides the good ones.
    void registryKeepsGoodProfilesBesideAnOverflowingOne()
    {
        QTemporaryDir dir;
        QVERIFY(write(dir.filePath(QStringLiteral("a-good.json")), goodProfile()));
        QVERIFY(write(dir.filePath(QStringLiteral("b-bad.json")), "{\"id\": \"bad\", \"name\": 1e400}"));
        ProfileRegistry reg;
        reg.loadDirectory(dir.path(), true);
        QCOMPARE(reg.profiles().size(), 1);
        QCOMPARE(reg.profiles()[0].id, QStringLiteral("site"));
        QCOMPARE(reg.problems().size(), 1);
        QCOMPARE(reg.problems()[0].field, dir.filePath(QStringLiteral("b-bad.json")));
        QVERIFY2(reg.problems()[0].message.startsWith(dir.filePath(QStringLiteral("b-bad.json"))
                                                      + QStringLiteral(":1:23: malformed JSON: number overflow")),
                 qPrintable(reg.problems()[0].message));
    }

    // Whole numbers past what an int holds are refused, not wrapped.
    void profileLimitBeyondIntIsRefused()
    {
        QByteArray profile = goodProfile();
        const qsizetype at = profile.indexOf("\"gpusPerNode\"");
        const qsizetype colon = profile.indexOf(':', at);
        const qsizetype end = profile.indexOf(',', colon);
        profile.replace(colon + 1, end - colon - 1, " 18446744073709551615");
        const auto r = loadProfile(profile, QStringLiteral("site.json"));
        QVERIFY(!r.profile);
        QCOMPARE(r.problems.size(), 1);
        QCOMPARE(r.problems[0].field, QStringLiteral("partitions[gpu].gpusPerNode"));
        QCOMPARE(r.problems[0].message, QStringLiteral("site.json: partitions[gpu].gpusPerNode: must be at most "
                                                       "1000000000, found 18446744073709551615"));
    }

    // F9 and the key cap: thousands of unknown keys are one finding.
    void thousandsOfUnknownKeysAreOneFinding()
    {
        QByteArray spec = "{\"profile\": \"testbed\", \"gpus\": 2, \"framework\": \"pytorch-ddp\"";
        for (int i = 0; i < 5000; ++i)
            spec += ",\n\"unknown" + QByteArray::number(i) + "\": " + QByteArray::number(i);
        spec += "}\n";
        const auto r = parseJobSpec(spec, QStringLiteral("many.json"));
        QVERIFY(!r.spec);
        QCOMPARE(r.errors.size(), 1);
        QCOMPARE(r.errors[0].rule, QStringLiteral("spec-malformed"));
        // The 1001st key of the object, "unknown997", is on line 999 (three keys on line 1).
        QCOMPARE(r.errors[0].line, 999);
        QCOMPARE(r.errors[0].message, QStringLiteral("many.json:999:1: an object has more than 1000 keys; ScaleLab "
                                                     "reads at most 1000 per object"));
    }

    void unknownKeysUnderTheCapAreNamedWithTheirLine()
    {
        QByteArray spec = "{\"profile\": \"testbed\", \"gpus\": 2, \"framework\": \"pytorch-ddp\"";
        for (int i = 0; i < 300; ++i)
            spec += ",\n\"unknown" + QByteArray::number(i) + "\": " + QByteArray::number(i);
        spec += "}\n";
        const auto r = parseJobSpec(spec, QStringLiteral("many.json"));
        QVERIFY(!r.spec);
        // 200 findings are kept, the other 100 are counted in one more.
        QCOMPARE(r.errors.size(), 201);
        QCOMPARE(r.errors[0].line, 2);
        QVERIFY2(r.errors[0].message.startsWith(QLatin1String("many.json:2:1: \"unknown0\" is not a known key")),
                 qPrintable(r.errors[0].message));
        QCOMPARE(r.errors[199].line, 201);
        QCOMPARE(r.errors[200].rule, QStringLiteral("too-many-findings"));
        QCOMPARE(r.errors[200].severity, Severity::Error);
        QCOMPARE(r.errors[200].message, QStringLiteral("many.json: 100 more findings are not shown (at most 200 per "
                                                       "file); fix the ones above first."));
    }

    void deepNestingIsCapped()
    {
        const QByteArray spec = QByteArray(100, '[') + QByteArray(100, ']');
        const auto r = parseJobSpec(spec, QStringLiteral("deep.json"));
        QCOMPARE(r.errors.size(), 1);
        QCOMPARE(r.errors[0].message,
                 QStringLiteral("deep.json:1:65: nested more than 64 levels deep; ScaleLab reads at most 64"));
    }

    void fileSizeIsCapped()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.sbatch"));
        QVERIFY(write(path, QByteArray(InputLimits::kMaxFileBytes + 1, '#')));
        const auto big = InputLimits::readFile(path, QStringLiteral("script"));
        QVERIFY(!big.ok);
        QVERIFY(big.data.isEmpty());
        QCOMPARE(big.problem.rule, QStringLiteral("input-too-large"));
        QCOMPARE(big.problem.message, path
                                          + QStringLiteral(": this script is larger than 16 MB, the most ScaleLab "
                                                           "reads; it cannot be a real script. Check that the right "
                                                           "file was chosen."));
        QVERIFY(write(path, QByteArray(InputLimits::kMaxFileBytes, '#')));
        const auto exact = InputLimits::readFile(path, QStringLiteral("script"));
        QVERIFY(exact.ok);
        QCOMPARE(exact.data.size(), InputLimits::kMaxFileBytes);

        QVERIFY(write(dir.filePath(QStringLiteral("huge.json")), QByteArray(InputLimits::kMaxFileBytes + 10, ' ')));
        const auto profile = loadProfileFile(dir.filePath(QStringLiteral("huge.json")));
        QCOMPARE(profile.problems.size(), 1);
        QCOMPARE(profile.problems[0].rule, QStringLiteral("input-too-large"));
    }

    // Only regular files are read: a device used to be read up to the cap
    // (and a FIFO to block the open), a folder gave Qt's own error.
    void specialFilesAreRefusedByType()
    {
        QTemporaryDir dir;
        const auto zero = InputLimits::readFile(QStringLiteral("/dev/zero"), QStringLiteral("job spec"));
        QVERIFY(!zero.ok);
        QCOMPARE(zero.problem.rule, QStringLiteral("file-unreadable"));
        QCOMPARE(zero.problem.message, QStringLiteral("/dev/zero: cannot read this job spec: it is a device, not a "
                                                      "regular file; give a regular file instead"));
        const auto folder = InputLimits::readFile(dir.path(), QStringLiteral("profile"));
        QVERIFY(!folder.ok);
        QCOMPARE(folder.problem.message, dir.path()
                                             + QStringLiteral(": cannot read this profile: it is a folder, "
                                                              "not a file; give a regular file instead"));
        const auto missing =
            InputLimits::readFile(dir.filePath(QStringLiteral("none.json")), QStringLiteral("profile"));
        QVERIFY(missing.problem.message.endsWith(QLatin1String("none.json: cannot read this profile: no such file")));
        QVERIFY(!InputLimits::openFile(QStringLiteral("/dev/null"), QStringLiteral("log")));
    }

    void encodingsAreNamed()
    {
        using InputLimits::Content;
        const QString name = QStringLiteral("f.json");
        const QString what = QStringLiteral("job spec");
        QVERIFY(!InputLimits::encodingProblem("{\"gpus\": 1}\n", name, what));
        QVERIFY(!InputLimits::encodingProblem("\xef\xbb\xbf{}", name, what));   // UTF-8 with its mark
        const auto le = InputLimits::encodingProblem(QByteArrayView("\xff\xfe{\0}\0", 6), name, what);
        QVERIFY(le);
        QCOMPARE(le->line, 1);
        QVERIFY2(le->message.startsWith(QLatin1String("f.json:1: this job spec is UTF-16 text")),
                 qPrintable(le->message));
        const auto utf32 = InputLimits::encodingProblem(QByteArrayView("\xff\xfe\0\0{\0\0\0", 8), name, what);
        QVERIFY(utf32 && utf32->message.contains(QLatin1String("UTF-32")));
        const QByteArrayView nul("a\nb\nc\0d\n", 8);
        const auto bad = InputLimits::encodingProblem(nul, name, what);
        QVERIFY(bad);
        QCOMPARE(bad->line, 3);
        QCOMPARE(bad->message,
                 QStringLiteral("f.json:3: line 3 holds a NUL byte (column 2): this job spec is not plain "
                                "text; check that the right file was chosen"));
        // Job output may hold NUL bytes (a crashed node's padding), never UTF-16.
        QVERIFY(!InputLimits::encodingProblem(nul, name, what, Content::Log));
        QVERIFY(InputLimits::encodingProblem(QByteArrayView("\xfe\xff\0a", 4), name, what, Content::Log));
    }

    void quotedTextIsShortened()
    {
        QCOMPARE(InputLimits::quoted(QStringLiteral("abc"), 5), QStringLiteral("abc"));
        QCOMPARE(InputLimits::quoted(QString(300, QLatin1Char('7')), 4),
                 QStringLiteral("7777... (296 more characters)"));
    }

    // A huge value is quoted back shortened, saying how much was left out.
    void longValuesAreQuotedShortened()
    {
        const QString script = QStringLiteral("#!/bin/bash\n#SBATCH --nodes=") + QString(100000, QLatin1Char('9'))
                               + QStringLiteral("x\nsrun python train.py\n");
        const ScriptImport imp = importSbatchScript(script, fixtureProfile(QStringLiteral("puhti")));
        const auto found = withRule(imp.diagnostics, QStringLiteral("invalid-value"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found[0].message, QStringLiteral("--nodes=") + QString(120, QLatin1Char('9'))
                                       + QStringLiteral("... (99881 more characters) is not a node count."));
        const QString error =
            SshConfigFile::fromText(QString(5000, QLatin1Char('!')), QStringLiteral("config")).errorText();
        QCOMPARE(error, QStringLiteral("config:1: cannot parse \"") + QString(120, QLatin1Char('!'))
                            + QStringLiteral("... (4880 more characters)\" (expected: Keyword value)"));
    }

    // F4: MaxRSS beyond 2^63 bytes, inf or nan was converted with undefined behaviour.
    void sacctSizesBeyondRangeAreUnknown_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("bytes");
        QTest::newRow("1e300") << QStringLiteral("1e300") << qint64(-1);
        QTest::newRow("1e300K") << QStringLiteral("1e300K") << qint64(-1);
        QTest::newRow("inf") << QStringLiteral("inf") << qint64(-1);
        QTest::newRow("nan") << QStringLiteral("nan") << qint64(-1);
        QTest::newRow("9e6P") << QStringLiteral("9e6P") << qint64(-1);
        QTest::newRow("8e18") << QStringLiteral("8e18") << qint64(8000000000000000000LL);
        QTest::newRow("2048K") << QStringLiteral("2048K") << qint64(2097152);
    }
    void sacctSizesBeyondRangeAreUnknown()
    {
        QFETCH(QString, text);
        QFETCH(qint64, bytes);
        QCOMPARE(SacctParser::sizeToBytes(text), bytes);
    }

    // F5: --mem-per-gpu=2^40 T x 8 GPUs turned into a negative --mem.
    void memoryPerGpuOverflowIsAFinding()
    {
        const QString script = QStringLiteral("#!/bin/bash\n#SBATCH --partition=gpu\n#SBATCH --gres=gpu:4\n"
                                              "#SBATCH --mem-per-gpu=1099511627776T\n#SBATCH --time=01:00:00\n"
                                              "srun python train.py\n");
        const ScriptImport imp = importSbatchScript(script, fixtureProfile(QStringLiteral("puhti")));
        QCOMPARE(imp.spec.memory, QString());
        const auto found = withRule(imp.diagnostics, QStringLiteral("invalid-value"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found[0].line, 4);
        QCOMPARE(found[0].field, QStringLiteral("memory"));
        QCOMPARE(found[0].message, QStringLiteral("--mem-per-gpu=1099511627776T x 4 is more memory than any node has "
                                                  "(over 1024 TB); check the number and the unit."));
    }

    // F6: the LUMI advice multiplied two large ints.
    void cpusPerGpuAdviceDoesNotOverflow()
    {
        const QString script =
            QStringLiteral("#!/bin/bash\n#SBATCH --partition=small-g\n#SBATCH --gpus-per-node=100000\n"
                           "#SBATCH --cpus-per-gpu=100000\n#SBATCH --time=01:00:00\n"
                           "srun python train.py\n");
        const ScriptImport imp = importSbatchScript(script, fixtureProfile(QStringLiteral("lumi")));
        const auto found = withRule(imp.diagnostics, QStringLiteral("site-cpus-per-gpu"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found[0].line, 4);
        QVERIFY2(found[0].message.endsWith(QLatin1String("Request CPUs with --cpus-per-task instead.")),
                 qPrintable(found[0].message));
    }

    // A spec's memory of 10^14 T is past what a 64-bit count of megabytes holds:
    // an error on the field, never a wrapped (undefined) number.
    void specMemoryBeyondRangeIsAFinding()
    {
        JobSpec spec;
        spec.profile = QStringLiteral("lumi");
        spec.partition = QStringLiteral("small-g");
        spec.gpus = 1;
        spec.time = QStringLiteral("01:00:00");
        spec.program = QStringLiteral("train.py");
        spec.memory = QStringLiteral("99999999999999T");
        const Diagnostics d = validateJob(spec, fixtureProfile(QStringLiteral("lumi")));
        const auto found = withRule(d, QStringLiteral("memory-malformed"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found[0].field, QStringLiteral("memory"));
    }

    // F2 semantics: a quote is followed to where it closes, however far.
    void quoteClosingFarAwayIsOneLogicalLine()
    {
        QString script = QStringLiteral("#!/bin/bash\n#SBATCH --time=01:00:00\necho \"start\n");
        for (int i = 0; i < 2500; ++i)
            script += QStringLiteral("line %1\n").arg(i);
        script += QStringLiteral("end\"\nsrun python train.py\n");
        const ParsedSbatchScript parsed = parseSbatchScript(script);
        QCOMPARE(withRule(parsed.diagnostics, QStringLiteral("cannot-parse")).size(), 0);
        QCOMPARE(parsed.lines.size(), 2);
        QCOMPARE(parsed.lines[0].line, 3);
        QCOMPARE(parsed.lines[0].lastLine, 2504);
        QCOMPARE(parsed.lines[0].lineAt(int(parsed.lines[0].text.indexOf(QLatin1String("line 1000")))), 1004);
        QCOMPARE(parsed.lines[1].line, 2505);
        QCOMPARE(parsed.lines[1].text, QStringLiteral("srun python train.py"));
    }

    void unclosedQuotesAreReportedPerLine()
    {
        QString script = QStringLiteral("#!/bin/bash\n#SBATCH --time=01:00:00\n");
        for (int i = 0; i < 50; ++i)
            script += QStringLiteral("echo $(date\n");
        const ParsedSbatchScript parsed = parseSbatchScript(script);
        const auto unclosed = withRule(parsed.diagnostics, QStringLiteral("cannot-parse"));
        QCOMPARE(unclosed.size(), 50);
        QCOMPARE(unclosed.front().line, 3);
        QCOMPARE(unclosed.back().line, 52);
        QCOMPARE(parsed.lines.size(), 50);
        QCOMPARE(parsed.lines[7].text, QStringLiteral("echo $(date"));
    }

    // F10: a config including itself twice was read 2^16 times.
    void sshIncludeCycleIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config"));
        QVERIFY(
            write(path, ("Host a\n  HostName a.example.org\nInclude " + path + "\nInclude " + path + "\n").toUtf8()));
        const SshConfigFile cfg = SshConfigFile::load(path);
        QCOMPARE(cfg.errorText(),
                 QStringLiteral("%1:3: Include %1 includes itself (directly or through other files); remove the "
                                "loop")
                     .arg(path));
        QCOMPARE(cfg.resolve(QStringLiteral("a")).hostName, QStringLiteral("a.example.org"));
    }

    void sshIncludeFanOutIsCapped()
    {
        // Each level includes the next twice: no cycle, but 2^12 reads.
        QTemporaryDir dir;
        for (int level = 0; level < 12; ++level) {
            const QString next = dir.filePath(QStringLiteral("level%1").arg(level + 1));
            QVERIFY(
                write(dir.filePath(QStringLiteral("level%1").arg(level)),
                      ("Host h" + QString::number(level) + "\n  Port 22\nInclude " + next + "\nInclude " + next + "\n")
                          .toUtf8()));
        }
        QVERIFY(write(dir.filePath(QStringLiteral("level12")), "Host last\n  User researcher\n"));
        const QString error = SshConfigFile::load(dir.filePath(QStringLiteral("level0"))).errorText();
        QVERIFY2(error.endsWith(QLatin1String(": Include: more than 256 files included in all; ScaleLab stops reading "
                                              "Includes here")),
                 qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestInputCaps)
#include "tst_inputcaps.moc"
