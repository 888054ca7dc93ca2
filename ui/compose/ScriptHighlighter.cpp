// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compose/ScriptHighlighter.h"

#include "core/model/Launcher.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>

namespace scalelab {

namespace {

// Shell words and every launcher's command words, at the start of a line.
QString keywordPattern()
{
    QStringList words = {QStringLiteral("export"), QStringLiteral("module"), QStringLiteral("set"),
                         QStringLiteral("source"), QStringLiteral("cd"),     QStringLiteral("if"),
                         QStringLiteral("then"),   QStringLiteral("fi"),     QStringLiteral("else"),
                         QStringLiteral("for"),    QStringLiteral("do"),     QStringLiteral("done")};
    QStringList launchers = launcherCommandWords();
    // Longest first, so "accelerate-launch" is marked whole, not its "accelerate".
    std::sort(launchers.begin(), launchers.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
    for (const QString &w : launchers)
        words << QRegularExpression::escape(w);
    return QStringLiteral(R"(^\s*(%1)\b)").arg(words.join(QLatin1Char('|')));
}

}   // namespace

ScriptHighlighter::ScriptHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document)
    , m_variableRe(QStringLiteral(R"(\$(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@#?*$]))"))
    , m_keywordRe(keywordPattern())
{
    setDarkBackground(QGuiApplication::palette().color(QPalette::Base).lightness() < 128);
}

void ScriptHighlighter::setDarkBackground(bool dark)
{
    // Two hand-picked sets with enough contrast on white and on near-black.
    m_directive.setForeground(dark ? QColor(0x8a, 0xb4, 0xff) : QColor(0x1a, 0x4f, 0xb0));
    m_directive.setFontWeight(QFont::Bold);
    m_directiveValue.setForeground(dark ? QColor(0xb8, 0xd0, 0xff) : QColor(0x20, 0x3a, 0x80));
    m_comment.setForeground(dark ? QColor(0x9a, 0xa5, 0x9a) : QColor(0x5f, 0x6b, 0x5f));
    m_comment.setFontItalic(true);
    m_keyword.setForeground(dark ? QColor(0xe0, 0x9c, 0xff) : QColor(0x8a, 0x1f, 0x9c));
    m_keyword.setFontWeight(QFont::Bold);
    m_string.setForeground(dark ? QColor(0xa8, 0xe0, 0x8c) : QColor(0x2b, 0x72, 0x12));
    m_variable.setForeground(dark ? QColor(0xff, 0xc0, 0x70) : QColor(0xa3, 0x4c, 0x00));
    rehighlight();
}

void ScriptHighlighter::highlightBlock(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.startsWith(QLatin1String("#SBATCH"))) {
        const int start = int(text.indexOf(QLatin1String("#SBATCH")));
        setFormat(start, 7, m_directive);
        // The option up to an inline comment.
        int end = int(text.indexOf(QLatin1String(" #"), start + 7));
        if (end < 0)
            end = int(text.size());
        setFormat(start + 7, end - start - 7, m_directiveValue);
        if (end < text.size())
            setFormat(end, int(text.size()) - end, m_comment);
        return;
    }
    if (trimmed.startsWith(QLatin1Char('#'))) {
        setFormat(0, int(text.size()), m_comment);
        return;
    }
    if (const auto m = m_keywordRe.match(text); m.hasMatch())
        setFormat(int(m.capturedStart(1)), int(m.capturedLength(1)), m_keyword);

    // Strings, then variables (also inside double quotes), then a trailing comment.
    QChar quote;
    int quoteStart = -1;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoteStart >= 0) {
            if (c == QLatin1Char('\\') && quote == QLatin1Char('"')) {
                ++i;
                continue;
            }
            if (c == quote) {
                setFormat(quoteStart, i - quoteStart + 1, m_string);
                quoteStart = -1;
            }
            continue;
        }
        if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            quote = c;
            quoteStart = i;
        } else if (c == QLatin1Char('#') && (i == 0 || text[i - 1].isSpace())) {
            setFormat(i, int(text.size()) - i, m_comment);
            break;
        }
    }
    if (quoteStart >= 0)
        setFormat(quoteStart, int(text.size()) - quoteStart, m_string);
    auto it = m_variableRe.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        if (format(int(m.capturedStart())) == m_comment)
            continue;
        setFormat(int(m.capturedStart()), int(m.capturedLength()), m_variable);
    }
}

}   // namespace scalelab
