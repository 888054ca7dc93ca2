// SPDX-License-Identifier: GPL-3.0-or-later
// The script view's highlighter marks every command word of every row of the
// launcher table (core/model/Launcher.h) as a keyword, whole, and not a word
// that only begins like one.

#include "core/model/Launcher.h"
#include "ui/compose/ScriptHighlighter.h"

#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QtTest>

using namespace scalelab;

class TestScriptHighlighter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void marksEveryLauncherWord_data();
    void marksEveryLauncherWord();
    void leavesOtherWords();
};

namespace {

// The length of the bold run at the start of the line after `indent`; 0 if none.
int keywordAt(const QString &line, int indent)
{
    QTextDocument doc;
    doc.setPlainText(line);
    ScriptHighlighter highlighter(&doc);
    highlighter.rehighlight();
    for (const QTextLayout::FormatRange &r : doc.firstBlock().layout()->formats())
        if (r.start == indent && r.format.fontWeight() == QFont::Bold)
            return r.length;
    return 0;
}

}   // namespace

void TestScriptHighlighter::marksEveryLauncherWord_data()
{
    QTest::addColumn<QString>("word");
    for (const LauncherTraits &row : launcherTable())
        for (const QString &command : row.commands)
            QTest::addRow("%s", qPrintable(command)) << command.section(QLatin1Char(' '), 0, 0);
}

void TestScriptHighlighter::marksEveryLauncherWord()
{
    QFETCH(QString, word);
    QCOMPARE(keywordAt(word + QStringLiteral(" --flag train.py"), 0), int(word.size()));
    QCOMPARE(keywordAt(QStringLiteral("  ") + word + QStringLiteral(" train.py"), 2), int(word.size()));
}

void TestScriptHighlighter::leavesOtherWords()
{
    QCOMPARE(keywordAt(QStringLiteral("torchrunner train.py"), 0), 0);
    QCOMPARE(keywordAt(QStringLiteral("python3 train.py"), 0), 0);
    QCOMPARE(keywordAt(QStringLiteral("export X=1"), 0), 6);
}

QTEST_MAIN(TestScriptHighlighter)
#include "tst_scripthighlighter.moc"
