// SPDX-License-Identifier: GPL-3.0-or-later
// Keeps the house rule "functions short enough to read at once": no function
// in core/, ui/ or app/ is longer than 80 lines (signature to closing brace),
// except a data table marked by a `// table:` comment on the line before it.
//
// The scanner is a pragmatic brace matcher, not a C++ parser: it skips
// comments, strings, character literals, raw strings and preprocessor lines,
// and calls a `{` at namespace or class level a function body when it follows
// a `)` (possibly with const/noexcept/override/final, a trailing `-> type` or
// a constructor's initialiser list). It visits each character a bounded
// number of times, so its work is linear in the file's size.
#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QSet>
#include <QtTest>

#include "FunctionScanner.h"

using namespace Qt::StringLiterals;
using namespace scalelab::test;

namespace {

// Functions still over 80 lines, each with the reason it is not cut yet (none
// today: keep it so; a function cut short is removed from here).
const QStringList &knownLongFunctions()
{
    static const QStringList known = {};
    return known;
}

// Classes whose out-of-line methods are still in more than one .cpp, each
// with the reason (ARCHITECTURE.md, "Code shape"). A class split since is
// removed from here; a class newly spread fails the test.
const QMap<QString, QString> &knownSpreadClasses()
{
    static const QMap<QString, QString> known = {};
    return known;
}

// The sources checked: this tree, or another one named by SCALELAB_SOURCE_ROOT
// (to count the long functions of another branch).
QString repoRoot()
{
    const QString other = qEnvironmentVariable("SCALELAB_SOURCE_ROOT");
    return QDir(other.isEmpty() ? QStringLiteral(SCALELAB_TESTS_DIR "/..") : other).canonicalPath();
}

QStringList productFiles()
{
    QStringList files;
    const QString root = repoRoot();
    for (const QString &room : {u"core"_s, u"ui"_s, u"app"_s}) {
        QDirIterator it(root + u'/' + room, {u"*.cpp"_s, u"*.h"_s}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files.append(QDir(root).relativeFilePath(it.next()));
    }
    files.sort();
    return files;
}

QString readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

QString repeatedLines(const QString &line, int count)
{
    QString text;
    for (int i = 0; i < count; ++i)
        text += line;
    return text;
}

}   // namespace

class TestFunctionLength : public QObject {
    Q_OBJECT

private slots:
    void scannerMeasuresAFunction();
    void scannerIgnoresBracesInStringsAndComments();
    void scannerReadsClassesAndInitialiserLists();
    void scannerSkipsTablesAndDataInitialisers();
    void scannerWorkIsLinear();
    void productFunctionsAreShort();
    void classMethodsLiveInOneFile();
};

void TestFunctionLength::scannerMeasuresAFunction()
{
    // 1 signature line + '{' + 78 body lines + '}' = 81 lines.
    const QString text = u"int longOne(int a)\n{\n"_s + repeatedLines(u"    a += 1;\n"_s, 78) + u"}\n"_s;
    const ScanResult scanned = scanFunctions(text);
    QCOMPARE(scanned.functions.size(), 1);
    QCOMPARE(scanned.functions[0].name, u"longOne"_s);
    QCOMPARE(scanned.functions[0].startLine, 1);
    QCOMPARE(scanned.functions[0].length(), 81);
    const QString exact = u"int fits()\n{\n"_s + repeatedLines(u"    ;\n"_s, 77) + u"}\n"_s;
    QCOMPARE(scanFunctions(exact).functions.value(0).length(), 80);
}

void TestFunctionLength::scannerIgnoresBracesInStringsAndComments()
{
    const QString text = uR"FIXTURE(// a comment with { a brace
namespace {
/* } a block comment } */
const char *open = "{ \" {";
const char brace = '{';
const char quote = '\'';
const int million = 1'000'000;
const char *raw = R"x({ ")" } )x";
#define OPEN {
#define CONTINUED { \
    }
QString f(int a) const
{
    if (a) { return QStringLiteral("}}}"); }
    return u"{"_s;
}
} // namespace
Q_DECLARE_METATYPE(Foo)
void g()
{
}
)FIXTURE"_s;
    const ScanResult scanned = scanFunctions(text);
    QCOMPARE(scanned.functions.size(), 2);
    QCOMPARE(scanned.functions[0].name, u"f"_s);
    QCOMPARE(scanned.functions[0].startLine, 12);
    QCOMPARE(scanned.functions[0].endLine, 16);
    QCOMPARE(scanned.functions[1].name, u"g"_s);
    QCOMPARE(scanned.functions[1].startLine, 19);
}

void TestFunctionLength::scannerReadsClassesAndInitialiserLists()
{
    const QString text = uR"FIXTURE(template <typename T = int>
class Box : public Base {
    SOME_MACRO
public:
    Box(int a, int b)
        : m_a{a}
        , m_b(b)
    {
        m_a += 1;
    }
    ~Box() override { }
    int size() const noexcept { return m_a; }
    auto twice() const -> std::optional<int> { return {m_a * 2}; }
protected:
    void later();
private:
    int m_a{0};
    int m_b = 0;
};
enum class Kind { A, B };
auto helper = [](int x) { return x + 1; };
)FIXTURE"_s;
    const ScanResult scanned = scanFunctions(text);
    QStringList names;
    for (const FunctionSpan &span : scanned.functions)
        names.append(span.name + u':' + QString::number(span.startLine) + u'-' + QString::number(span.endLine));
    QCOMPARE(names,
             (QStringList{u"Box:5-10"_s, u"~Box:11-11"_s, u"size:12-12"_s, u"twice:13-13"_s, u"(lambda):21-21"_s}));
}

void TestFunctionLength::scannerSkipsTablesAndDataInitialisers()
{
    const QString text = uR"FIXTURE(const Row rows[] = {
    {"a", tr("b")},
    {"c", f(1)},
};
// A table of names.
// table: one row per field
const QStringList &fields()
{
    static const QStringList all = {"x", "y"};
    return all;
}
)FIXTURE"_s;
    const ScanResult scanned = scanFunctions(text);
    QCOMPARE(scanned.functions.size(), 1);
    QCOMPARE(scanned.functions[0].name, u"fields"_s);
    QVERIFY(scanned.functions[0].table);
}

void TestFunctionLength::scannerWorkIsLinear()
{
    // Shapes that would make a careless scanner re-read text: a long initialiser
    // list, many unterminated strings, deep nesting and a long qualifier tail.
    const int n = 20000;
    const QStringList shapes = {
        u"A::A()\n    : m_0{0}\n"_s + repeatedLines(u"    , m_x{f(1)}\n"_s, n) + u"{\n}\n"_s,
        repeatedLines(u"const char *s = \"{ unterminated\n"_s, n),
        u"void f()\n"_s + repeatedLines(u"{"_s, n) + repeatedLines(u"}"_s, n),
        u"void f() "_s + repeatedLines(u"const "_s, n) + u"{ }\n"_s,
        repeatedLines(u"int x = (a) /* { */ + R\"(})\" + ')';\n"_s, n),
    };
    for (const QString &text : shapes) {
        const ScanResult scanned = scanFunctions(text);
        QVERIFY2(scanned.work <= 3 * qint64(text.size()),
                 qPrintable(u"work %1 for %2 characters"_s.arg(scanned.work).arg(text.size())));
    }
}

void TestFunctionLength::productFunctionsAreShort()
{
    const QString root = repoRoot();
    const QStringList files = productFiles();
    QVERIFY2(files.size() > 100, qPrintable(u"found only %1 product files under %2"_s.arg(files.size()).arg(root)));
    QStringList offenders;
    QMap<QString, QPair<int, int>> countsByRoom;   // room -> (> 80, > 150), known entries included
    QSet<QString> seenKnown;
    for (const QString &file : files) {
        const QString room = file.section(u'/', 0, 0);
        for (const FunctionSpan &span : scanFunctions(readText(root + u'/' + file)).functions) {
            if (span.length() <= kMaxLines || span.table)
                continue;
            auto &counts = countsByRoom[room];
            ++counts.first;
            if (span.length() > 150)
                ++counts.second;
            const QString key = file + u':' + span.name;
            if (knownLongFunctions().contains(key)) {
                seenKnown.insert(key);
                continue;
            }
            offenders.append(u"%1:%2: %3 is %4 lines (at most %5)"_s.arg(file)
                                 .arg(span.startLine)
                                 .arg(span.name)
                                 .arg(span.length())
                                 .arg(kMaxLines));
        }
    }
    for (auto it = countsByRoom.cbegin(); it != countsByRoom.cend(); ++it)
        qInfo("%s: %d functions over 80 lines, %d over 150", qPrintable(it.key()), it.value().first, it.value().second);
    for (const QString &key : knownLongFunctions())
        if (!seenKnown.contains(key))
            qInfo("%s is short now or gone: remove it from knownLongFunctions()", qPrintable(key));
    for (const QString &offender : offenders)
        qWarning("%s", qPrintable(offender));
    QVERIFY2(offenders.isEmpty(),
             qPrintable(u"%1 functions over %2 lines: cut them into named steps or tables "
                        u"(a real data table may be marked `// table:` on the line before it)"_s.arg(offenders.size())
                            .arg(kMaxLines)));
}

void TestFunctionLength::classMethodsLiveInOneFile()
{
    // "Foo::bar" defined in a .cpp belongs to class Foo ("A::B::c" to A::B).
    const QString root = repoRoot();
    QMap<QString, QStringList> filesOf;
    for (const QString &file : productFiles()) {
        if (!file.endsWith(u".cpp"_s))
            continue;
        QSet<QString> classes;
        for (const FunctionSpan &span : scanFunctions(readText(root + u'/' + file)).functions) {
            const qsizetype last = span.name.lastIndexOf(u"::"_s);
            if (last > 0)
                classes.insert(span.name.left(last));
        }
        for (const QString &name : std::as_const(classes))
            filesOf[name].append(file);
    }
    QStringList offenders;
    for (auto it = filesOf.cbegin(); it != filesOf.cend(); ++it) {
        if (it.value().size() < 2)
            continue;
        const QString where = u"%1 has methods in %2"_s.arg(it.key(), it.value().join(u", "_s));
        if (knownSpreadClasses().contains(it.key()))
            qInfo("%s (known: %s)", qPrintable(where), qPrintable(knownSpreadClasses().value(it.key())));
        else
            offenders.append(where);
    }
    // The list stays true: a class split since leaves it.
    QStringList stale;
    for (auto it = knownSpreadClasses().cbegin(); it != knownSpreadClasses().cend(); ++it)
        if (filesOf.value(it.key()).size() < 2)
            stale << it.key();
    QVERIFY2(stale.isEmpty(),
             qPrintable(stale.join(u", ") + u" in one file now or gone: remove from knownSpreadClasses()"_s));
    for (const QString &offender : offenders)
        qWarning("%s", qPrintable(offender));
    QVERIFY2(
        offenders.isEmpty(),
        qPrintable(u"%1 classes have methods in several .cpp files: one class per file; a class that needs "
                   u"several files holds several responsibilities, split it into classes"_s.arg(offenders.size())));
}

QTEST_GUILESS_MAIN(TestFunctionLength)
#include "tst_function_length.moc"
