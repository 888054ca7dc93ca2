// SPDX-License-Identifier: GPL-3.0-or-later
// The log readers' pre-filters: each rule's literal, the one-pass anchor scan,
// the line check for a rule's further texts and the regex-free matcher, each
// against the plain search or the regex it stands in for.
#include "core/base/InputLimits.h"
#include "core/ingest/AnchorScan.h"
#include "core/ingest/LiteralNumberMatcher.h"
#include "core/ingest/LogLineText.h"
#include "core/ingest/LogMetricExtractor.h"
#include "core/ingest/RegexLiterals.h"

#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <random>

using namespace scalelab;

class TstLogScan : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void literalOf_data();
    void literalOf();
    void literalsOf();
    void anchorScanFindsEveryOccurrence();
    void anchorScanAtEveryPosition();
    void lineContainsAtEveryPosition();
    void containsAgreesWithFind();
    void lineBoundsAtEveryPosition();
    void fastMatcherShapes_data();
    void fastMatcherShapes();
    void fastMatcherAgreesWithRegex();
    void piecesReadLikeWhole();
};

namespace {

// Everything a read reports, as text: two reads agree when these are equal.
QString described(const LogMetricResult &r)
{
    QString d = QStringLiteral("bytes %1\n").arg(r.bytes);
    for (const LogMetric &m : r.metrics) {
        d += QStringLiteral("%1 %2 %3 count %4 line %5 rule %6 (%7) ranks %8 [%9]\n")
                 .arg(m.name, QString::number(m.value, 'g', 17), m.unit)
                 .arg(m.count)
                 .arg(m.line)
                 .arg(m.rule, m.formula)
                 .arg(m.ranks)
                 .arg(m.sourceLine);
        for (qsizetype i = 0; i < m.values.size(); ++i)
            d += QString::number(m.values[i], 'g', 17) + u'@' + QString::number(m.steps[i], 'g', 17) + u' ';
        d += u'\n';
    }
    for (const RunEnd &e : r.runEnds)
        d += QStringLiteral("end line %1: %2\n").arg(e.line).arg(e.text);
    for (const Diagnostic &x : r.diagnostics)
        d += QStringLiteral("%1 line %2: %3\n").arg(x.rule).arg(x.line).arg(x.message);
    return d;
}

}   // namespace

void TstLogScan::literalOf_data()
{
    QTest::addColumn<QString>("regex");
    QTest::addColumn<QString>("literal");
    QTest::newRow("plain") << "Test accuracy: ([0-9.]+)"
                           << "Test accuracy: ";
    QTest::newRow("alternation") << "a|b ([0-9]+)"
                                 << "";
    QTest::newRow("inline flag") << "(?i)loss ([0-9.]+)"
                                 << "";
    QTest::newRow("optional char") << "colou?r ([0-9]+)"
                                   << "colo";
    QTest::newRow("counted") << "x{2}yz ([0-9]+)"
                             << "yz ";
    QTest::newRow("escapes") << "\\[epoch\\] ([0-9]+)"
                             << "[epoch] ";
    QTest::newRow("dot") << "foo.ba ([0-9]+)"
                         << "foo";
    QTest::newRow("plus") << "ab+c ([0-9]+)"
                          << "ab";
    QTest::newRow("class") << "[abc]def ([0-9]+)"
                           << "def ";
    QTest::newRow("optional group") << "(abc)?def ([0-9]+)"
                                    << "def ";
    QTest::newRow("alternation in group") << "(?:a|b)/sec ([0-9]+)"
                                          << "/sec ";
    QTest::newRow("lookbehind") << "(?<!total )images/sec: ([0-9.]+)"
                                << "images/sec: ";
    QTest::newRow("class escape") << "\\d+ samples/s"
                                  << " samples/s";
}

void TstLogScan::literalOf()
{
    QFETCH(QString, regex);
    QFETCH(QString, literal);
    QCOMPARE(RegexLiterals::longest(regex), literal);
}

void TstLogScan::literalsOf()
{
    // Every fixed text a match needs, the longest first: lines without one never reach the regex.
    QCOMPARE(RegexLiterals::all(QStringLiteral("\\bRank [0-9]+ of ([0-9]+)\\b")),
             (QStringList{QStringLiteral("Rank "), QStringLiteral(" of ")}));
    QCOMPARE(RegexLiterals::all(QStringLiteral("\\biter ([0-9]++): loss [^,]*+, time ([0-9.]+)ms")),
             (QStringList{QStringLiteral(": loss "), QStringLiteral("iter "), QStringLiteral(", time ")}));
    QVERIFY(RegexLiterals::all(QStringLiteral("abc|def")).isEmpty());
    QCOMPARE(RegexLiterals::all(QStringLiteral("epochs?: (\\d+)")), QStringList{QStringLiteral("epoch")});
}

void TstLogScan::anchorScanFindsEveryOccurrence()
{
    // The one-pass anchor search against a plain search for each anchor, on text made of the
    // anchors' own bytes (so pairs, near misses and overlaps are everywhere), across block edges.
    const QList<QByteArray> anchors{"it/s", "s/it", "oss", "| lm loss: ", "*** ", "x", "ab", "abab", "] ["};
    std::mt19937 rng(7);
    const QByteArray alphabet("its/o| lmab*x]:[\n\r");
    for (int round = 0; round < 20; ++round) {
        QByteArray text;
        const int n = int(rng() % 3000);
        for (int i = 0; i < n; ++i)
            text +=
                (rng() % 9 == 0) ? anchors[rng() % anchors.size()] : QByteArray(1, alphabet[rng() % alphabet.size()]);
        QSet<QPair<int, qsizetype>> expected, found;
        for (int a = 0; a < anchors.size(); ++a)
            for (qsizetype at = text.indexOf(anchors[a]); at >= 0; at = text.indexOf(anchors[a], at + 1))
                expected.insert({a, at});
        AnchorScan(anchors).scan(std::string_view(text.constData(), size_t(text.size())), [&](int a, size_t at) {
            found.insert({a, qsizetype(at)});
            return true;
        });
        QCOMPARE(found, expected);
    }
}

void TstLogScan::anchorScanAtEveryPosition()
{
    // One anchor in filler text, at every offset of texts of every length up to 100 bytes:
    // across the 16- and 32-byte blocks of the vector filter, in the unvectorised tail and
    // as the text's last bytes (no line break after it). The filler holds the anchors'
    // own bytes so that the filter's nibble tables let positions through.
    const QList<QByteArray> anchors{"it/s", "oss", "] [", "x", "ab", "| lm loss: ", "Exited with exit code "};
    for (int a = 0; a < anchors.size(); ++a)
        for (int length = int(anchors[a].size()); length <= 100; ++length)
            for (int at = 0; at + anchors[a].size() <= length; ++at) {
                QByteArray text(length, 'z');
                for (int i = 0; i < length; ++i)
                    text[i] = "s/ti lo"[i % 7];
                text.replace(at, anchors[a].size(), anchors[a]);
                QList<qsizetype> expected, found;
                for (qsizetype k = text.indexOf(anchors[a]); k >= 0; k = text.indexOf(anchors[a], k + 1))
                    expected.append(k);
                AnchorScan({anchors[a]})
                    .scan(std::string_view(text.constData(), size_t(text.size())), [&](int, size_t k) {
                        found.append(qsizetype(k));
                        return true;
                    });
                QVERIFY2(found == expected, qPrintable(QStringLiteral("anchor %1 at %2 of %3 bytes")
                                                           .arg(QString::fromLatin1(anchors[a]))
                                                           .arg(at)
                                                           .arg(length)));
            }
}

void TstLogScan::lineContainsAtEveryPosition()
{
    // The line check before each rule: the text at every offset of lines up to 80 bytes,
    // in lines made of its own first and last bytes (candidates that do not hold it).
    for (const std::string text : {"ab", "abc", "val_loss", "Exited with exit code ", "aaab"}) {
        for (size_t length = text.size(); length <= 80; ++length)
            for (size_t at = 0; at + text.size() <= length; ++at) {
                std::string line(length, ' ');
                for (size_t i = 0; i < length; ++i)
                    line[i] = (i % 3 == 0) ? text.front() : text.back();
                QVERIFY(logtext::contains(line, text) == (line.find(text) != std::string::npos));
                line.replace(at, text.size(), text);
                QVERIFY2(logtext::contains(line, text), qPrintable(QString::fromStdString(line)));
                line[at + text.size() - 1] = '#';
                QCOMPARE(logtext::contains(line, text), line.find(text) != std::string::npos);
            }
    }
    QVERIFY(logtext::contains("abc", ""));
    QVERIFY(logtext::contains("", ""));
    QVERIFY(!logtext::contains("", "a"));
    QVERIFY(!logtext::contains("ab", "abc"));
}

void TstLogScan::lineBoundsAtEveryPosition()
{
    // The line around every position of texts up to 100 bytes with breaks
    // ('\n', '\r') anywhere, against a byte-by-byte walk.
    std::mt19937 rng(5);
    for (int round = 0; round < 300; ++round) {
        std::string text(rng() % 100, 'x');
        for (char &c : text)
            c = "ab\n\rcd"[rng() % 6];
        for (char &c : text)
            if (rng() % (2 + round % 40))
                c = 'x';
        const char *b = text.data();
        const char *e = b + text.size();
        for (const char *at = b; at <= e; ++at) {
            const char *start = at;
            while (start > b && start[-1] != '\n' && start[-1] != '\r')
                --start;
            const char *end = at;
            while (end < e && *end != '\n' && *end != '\r')
                ++end;
            QCOMPARE(logtext::lineStart(b, at) - b, start - b);
            QCOMPARE(logtext::lineEnd(at, e) - b, end - b);
        }
    }
}

void TstLogScan::containsAgreesWithFind()
{
    std::mt19937 rng(11);
    const std::string alphabet("abc/s ");
    for (int round = 0; round < 4000; ++round) {
        std::string line(rng() % 120, ' ');
        for (char &c : line)
            c = alphabet[rng() % alphabet.size()];
        std::string text(rng() % 7, ' ');
        for (char &c : text)
            c = alphabet[rng() % alphabet.size()];
        QCOMPARE(logtext::contains(line, text), line.find(text) != std::string::npos);
    }
}

void TstLogScan::fastMatcherShapes_data()
{
    QTest::addColumn<QString>("regex");
    QTest::addColumn<bool>("fast");
    QTest::newRow("literal + \\s* + class") << "Test accuracy:\\s*([0-9.]+)" << true;
    QTest::newRow("word boundary, [=:\\s]") << "\\btrain_time_s[=:\\s]\\s*([0-9.eE+-]+)" << true;
    QTest::newRow("escaped punctuation") << "\\[epoch\\] loss=(\\d+)" << true;
    QTest::newRow("no number group") << "loss ([a-z]+)" << false;
    QTest::newRow("quantified literal") << "losse?s ([0-9]+)" << false;
    QTest::newRow("trailing text") << "loss ([0-9]+)s" << false;
    QTest::newRow("class first") << "[Ll]oss ([0-9]+)" << false;
}

void TstLogScan::fastMatcherShapes()
{
    QFETCH(QString, regex);
    QFETCH(bool, fast);
    QCOMPARE(LiteralNumberMatcher::fromRegex(regex).has_value(), fast);
}

// The regex-free matcher finds the same values as PCRE on awkward input.
void TstLogScan::fastMatcherAgreesWithRegex()
{
    const QString num = QStringLiteral("([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)");
    const QString numP = QStringLiteral("([-+]?+(?:[0-9]*+\\.)?[0-9]++(?:[eE][-+]?+[0-9]++)?+)");
    const QStringList regexes = {
        QStringLiteral("Test accuracy:\\s*") + num, QStringLiteral("\\btest_accuracy[=:\\s]\\s*") + num,
        QStringLiteral("\\bval_loss[=:]\\s*") + num, QStringLiteral("loss\\s+") + num,
        QStringLiteral(" - loss: ") + num, QStringLiteral("samples/s\\s*[=:]\\s*([0-9.]+)"),
        QStringLiteral("acc=([0-9]+)"), QStringLiteral("x=([0-9.eE+-]+)"), QStringLiteral("\\b-x ([0-9]+)"),
        // The possessive forms the built-in readers use (ReaderRules' kNumP).
        QStringLiteral("\\| lm loss: ") + numP, QStringLiteral("\\breduced_train_loss[=:] ?+") + numP,
        QStringLiteral("Test accuracy:\\s*+") + numP, QStringLiteral("\\bval_loss[=:]\\s*+") + numP,
        QStringLiteral("loss\\s++") + numP};
    const QStringList lines = {"Test accuracy: 0.99",
                               "Test accuracy:0.5 Test accuracy:  .25 Test accuracy: 12.",
                               "Test accuracy: -1e-3x",
                               "Test accuracy: 1e",
                               "Test accuracy: abc",
                               "my_test_accuracy 0.3 test_accuracy=0.4 test_accuracy  0.5",
                               "xtest_accuracy:0.1",
                               "test_accuracy\t+7",
                               "val_loss: 0.2, val_loss=3E2, val_loss 9",
                               "loss 1 loss  2 lossy 3 loss\t4",
                               "a - loss: 0.5 - loss: .5. - loss: 5..",
                               "samples/s = 1.2.3 samples/s: 45",
                               "acc=12acc=3 acc= 4",
                               "x=1e5-3 x=+.e",
                               "a-x 1 a -x 2 -x 3",
                               "| lm loss: 5.897035E+00 | lm loss: -.5 | lm loss:  2 | lm loss: 3.",
                               "reduced_train_loss=6.130, reduced_train_loss: 1e-3 reduced_train_loss=  4 "
                               "xreduced_train_loss=5 reduced_train_loss= +.25e+1x",
                               "",
                               "Test accuracy: 9" + QString(300, u' ') + "Test accuracy: 8"};
    for (const QString &r : regexes) {
        const auto fast = LiteralNumberMatcher::fromRegex(r);
        QVERIFY2(fast, qPrintable(r));
        const QRegularExpression re(r);
        for (const QString &line : lines) {
            QList<double> expected;
            for (auto it = re.globalMatch(line); it.hasNext();) {
                bool ok = false;
                const double v = it.next().capturedView(1).toDouble(&ok);
                if (ok)
                    expected.append(v);
            }
            const QByteArray bytes = line.toUtf8();
            double out[16];
            const int n = fast->match(std::string_view(bytes.constData(), size_t(bytes.size())), out, 16);
            const QList<double> got(out, out + n);
            QVERIFY2(got == expected, qPrintable(r + QStringLiteral(" on '") + line + QStringLiteral("'")));
        }
    }
}

void TstLogScan::piecesReadLikeWhole()
{
    // A file read through a small buffer (lines cut at every piece's end,
    // lines longer than the buffer, '\r' updates, a last line without a line
    // break) gives what the whole text gives: every value, line and finding.
    QStringList files;
    for (const QString &dir : {QStringLiteral(SCALELAB_TEST_DATA_DIR "/ingest"),
                               QStringLiteral(SCALELAB_TESTS_DIR "/fuzz/corpus/logmetrics"),
                               QStringLiteral(SCALELAB_SHARED_DIR "/job-logs")})
        for (QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories); it.hasNext();)
            files << it.next();
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QByteArray longLine = QByteArray(70000, 'x') + " loss=0.5\n";
    QMap<QString, QByteArray> made{
        {QStringLiteral("cut.out"), "epoch 1 loss 0.5 time 1.2\nTest accuracy: 0.9\nTest accuracy: 0.9"},
        {QStringLiteral("bars.out"), "a 10%| | 1/10 [00:01<00:09,  1.00it/s]\r 20%| | 2/10 [00:02<00:08,  2.00it/s]\r\n"
                                     "\r\ntrain_loss=0.25 epoch=2\r\n"},
        {QStringLiteral("long.out"), longLine + "loss=0.25\n" + longLine + QByteArray(300, '\n') + longLine},
    };
    for (auto it = made.cbegin(); it != made.cend(); ++it) {
        QFile f(tmp.filePath(it.key()));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(it.value());
        files << f.fileName();
    }
    QVERIFY(files.size() > 40);
    // A pattern without fixed text reads every line, beside the anchored rules.
    MetricPattern anywhere{QStringLiteral("anywhere"), QStringLiteral("(\\d+)\\s*$"), QString(),
                           MetricAggregation::Max};
    for (const LogMetricExtractor &ex : {LogMetricExtractor(), LogMetricExtractor({anywhere}, true, false)})
        for (const QString &path : std::as_const(files)) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            if (InputLimits::encodingProblem(bytes, path, QStringLiteral("log"), InputLimits::Content::Log))
                continue;   // refused before it is read
            const QString whole = described(ex.extract(bytes));
            for (qsizetype piece : {qsizetype(64), qsizetype(1000), LogMetricExtractor::kReadBytes})
                QCOMPARE(described(ex.extractFile(path, piece)), whole);
        }
}

QTEST_GUILESS_MAIN(TstLogScan)
#include "tst_logscan.moc"
