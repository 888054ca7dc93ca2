// SPDX-License-Identifier: GPL-3.0-or-later
// The scanner behind tst_function_length: a pragmatic brace matcher, not a
// C++ parser. It skips comments, strings, character literals, raw strings and
// preprocessor lines, and calls a `{` at namespace or class level a function
// body when it follows a `)` (possibly with const/noexcept/override/final, a
// trailing `-> type` or a constructor's initialiser list). It visits each
// character a bounded number of times, so its work is linear in the size.
#pragma once

#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

namespace scalelab::test {

using namespace Qt::StringLiterals;

constexpr int kMaxLines = 80;

struct FunctionSpan {
    QString name;
    int startLine = 0;   // the signature's first line (1-based)
    int endLine = 0;   // the closing brace's line
    bool table = false;
    int length() const { return endLine - startLine + 1; }
};

struct ScanResult {
    QList<FunctionSpan> functions;
    qint64 work = 0;   // characters visited plus text re-read: the linearity measure
};

inline bool isIdentChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'_';
}

class FunctionScanner {
public:
    explicit FunctionScanner(const QString &text)
        : m_text(text)
        , m_lines(text.split(u'\n'))
    {}

    ScanResult run()
    {
        while (m_pos < m_text.size()) {
            ++m_result.work;
            step();
        }
        return m_result;
    }

private:
    enum class Block { Container, Function, Other, MemberInit };
    struct Open {
        Block kind;
        FunctionSpan span;
    };
    // What the scanner knows of the declaration being read at namespace or class level.
    struct Statement {
        int startLine = 0;
        int parenDepth = 0;
        bool sawParen = false;
        bool afterParen = false;
        bool classKey = false;
        bool classAssign = false;
        bool namespaceKey = false;
        bool externKey = false;
        bool enumKey = false;
        bool initList = false;
        QString tail;   // significant text since the last top-level ')' or member initialiser
        QString name;   // the qualified name before the first '('
        QString run;   // the qualified identifier being read
        bool runEnded = false;
        QChar lastSignificant;
        bool lineBrokenAfterParen = false;   // a newline came after the last top-level ')'
        int restartLine = 0;   // the line of the first name after that newline
    };

    bool atContainerLevel() const { return m_stack.isEmpty() || m_stack.last().kind == Block::Container; }

    QChar peek(int offset = 1) const
    {
        const int at = m_pos + offset;
        return at < m_text.size() ? m_text.at(at) : QChar();
    }

    void advance()
    {
        if (m_text.at(m_pos) == u'\n') {
            ++m_line;
            m_lineStart = true;
        }
        ++m_pos;
    }

    void step()
    {
        const QChar c = m_text.at(m_pos);
        if (c == u'\n' || c.isSpace()) {
            finishWord();
            if (atContainerLevel())
                onSpace(c);
            advance();
            return;
        }
        if (m_lineStart && c == u'#') {
            finishWord();
            skipPreprocessorLine();
            return;
        }
        m_lineStart = false;
        if (c == u'/' && peek() == u'/') {
            finishWord();
            skipUntil(QStringLiteral("\n"), false);
            return;
        }
        if (c == u'/' && peek() == u'*') {
            finishWord();
            skipUntil(QStringLiteral("*/"), true);
            return;
        }
        if (c == u'"' || (c == u'\'' && !numberBeingRead())) {
            const bool raw = c == u'"' && isRawPrefix(m_word);
            finishWord();
            raw ? skipRawString() : skipQuoted(c);
            if (atContainerLevel())
                significant(c);
            return;
        }
        if (isIdentChar(c) || c == u'\'') {
            m_word += c;
            if (atContainerLevel())
                onIdentChar(c);
            advance();
            return;
        }
        finishWord();
        onPunctuation(c);
    }

    bool numberBeingRead() const { return !m_word.isEmpty() && m_word.at(0).isDigit(); }

    static bool isRawPrefix(const QString &word)
    {
        return word == u"R" || word == u"u8R" || word == u"uR" || word == u"UR" || word == u"LR";
    }

    void skipPreprocessorLine()
    {
        while (m_pos < m_text.size() && m_text.at(m_pos) != u'\n') {
            ++m_result.work;
            if (m_text.at(m_pos) == u'\\' && peek() == u'\n')
                advance();
            advance();
        }
    }

    void skipUntil(const QString &end, bool consumeEnd)
    {
        const int found = m_text.indexOf(end, m_pos + 2);
        const int stop = found < 0 ? m_text.size() : found + (consumeEnd ? end.size() : 0);
        while (m_pos < stop) {
            ++m_result.work;
            advance();
        }
    }

    void skipQuoted(QChar quote)
    {
        advance();
        while (m_pos < m_text.size()) {
            ++m_result.work;
            const QChar c = m_text.at(m_pos);
            if (c == u'\\' && m_pos + 1 < m_text.size()) {
                advance();
                advance();
                continue;
            }
            if (c == u'\n')   // unterminated: C++ does not continue it, nor does the scanner
                return;
            advance();
            if (c == quote)
                return;
        }
    }

    void skipRawString()
    {
        const int open = m_text.indexOf(u'(', m_pos);
        const int delimiterEnd = open < 0 ? m_text.size() : open;
        const QString closing = u')' + m_text.mid(m_pos + 1, delimiterEnd - m_pos - 1) + u'"';
        const int found = open < 0 ? -1 : m_text.indexOf(closing, open);
        const int stop = found < 0 ? m_text.size() : found + closing.size();
        while (m_pos < stop) {
            ++m_result.work;
            advance();
        }
    }

    void finishWord()
    {
        if (m_word.isEmpty())
            return;
        if (atContainerLevel())
            onWord(m_word);
        m_word.clear();
    }

    // --- the declaration layer: only at namespace or class level ---

    void begin()
    {
        if (m_statement.startLine == 0)
            m_statement.startLine = m_line;
    }

    void significant(QChar c)
    {
        begin();
        m_statement.lastSignificant = c;
        if (m_statement.parenDepth == 0)
            m_statement.tail += c;
        m_statement.runEnded = true;
    }

    void onSpace(QChar c)
    {
        if (m_statement.startLine == 0)
            return;
        m_statement.runEnded = true;
        if (m_statement.parenDepth == 0)
            m_statement.tail += c;
        if (c == u'\n' && m_statement.parenDepth == 0 && m_statement.afterParen)
            m_statement.lineBrokenAfterParen = true;
    }

    void onIdentChar(QChar c)
    {
        begin();
        if (m_statement.runEnded) {
            m_statement.run.clear();
            m_statement.runEnded = false;
        }
        m_statement.run += c;
        m_statement.lastSignificant = c;
        if (m_statement.lineBrokenAfterParen && m_statement.restartLine == 0)
            m_statement.restartLine = m_line;
        if (m_statement.parenDepth == 0)
            m_statement.tail += c;
    }

    void onWord(const QString &word)
    {
        Statement &s = m_statement;
        if (word == u"class" || word == u"struct" || word == u"union")
            s.classKey = true;
        else if (word == u"namespace")
            s.namespaceKey = true;
        else if (word == u"extern")
            s.externKey = true;
        else if (word == u"enum")
            s.enumKey = true;
        m_lastWord = word;
    }

    static bool isAccessLabel(const QString &word)
    {
        static const QStringList labels = {u"public"_s, u"private"_s,   u"protected"_s, u"signals"_s,
                                           u"slots"_s,  u"Q_SIGNALS"_s, u"Q_SLOTS"_s};
        return labels.contains(word);
    }

    // After the last ')' only qualifiers (and perhaps a trailing return type) were written.
    bool tailIsQualifiers()
    {
        static const QStringList words = {u"const"_s, u"noexcept"_s, u"override"_s,
                                          u"final"_s, u"volatile"_s, u"mutable"_s};
        const QString &t = m_statement.tail;
        m_result.work += t.size();
        qsizetype i = 0;
        while (i < t.size()) {
            const QChar c = t.at(i);
            if (c.isSpace() || c == u'&') {
                ++i;
            } else if (c == u'-' && i + 1 < t.size() && t.at(i + 1) == u'>') {
                // A trailing return type: anything but an assignment or the end of a declaration.
                return !t.mid(i).contains(u'=') && !t.mid(i).contains(u';');
            } else if (isIdentChar(c)) {
                qsizetype j = i;
                while (j < t.size() && isIdentChar(t.at(j)))
                    ++j;
                if (!words.contains(t.mid(i, j - i)))
                    return false;
                i = j;
            } else {
                return false;
            }
        }
        return true;
    }

    void onPunctuation(QChar c)
    {
        if (c == u'{') {
            openBrace();
        } else if (c == u'}') {
            closeBrace();
        } else if (atContainerLevel()) {
            onContainerPunctuation(c);
            return;
        }
        advance();
    }

    void onContainerPunctuation(QChar c)
    {
        Statement &s = m_statement;
        if (c == u':' && peek() == u':') {
            begin();
            s.run += QStringLiteral("::");
            s.runEnded = false;
            if (s.parenDepth == 0)
                s.tail += QStringLiteral("::");
            advance();
            advance();
            return;
        }
        if (c == u';' && s.parenDepth == 0) {
            resetStatement();
            advance();
            return;
        }
        if (c == u':' && s.parenDepth == 0 && isAccessLabel(m_lastWord) && isIdentChar(s.lastSignificant)) {
            resetStatement();
            advance();
            return;
        }
        if (c == u':' && s.parenDepth == 0 && s.afterParen && tailIsQualifiers())
            s.initList = true;
        if (c == u'=' && s.classKey)
            s.classAssign = true;
        if (c == u'~') {
            begin();
            s.run = QStringLiteral("~");
            s.runEnded = false;
            s.lastSignificant = c;
            advance();
            return;
        }
        const bool opens = c == u'(';
        const bool closes = c == u')';
        if (opens && s.parenDepth == 0 && s.afterParen && s.restartLine != 0 && !s.initList && !tailIsQualifiers())
            restartAfterMacro();
        if (opens && !s.sawParen) {
            s.sawParen = true;
            s.name = isIdentChar(s.lastSignificant) ? s.run : QString();
        }
        significant(c);
        if (opens)
            ++s.parenDepth;
        if (closes && s.parenDepth > 0 && --s.parenDepth == 0) {
            s.tail.clear();
            s.afterParen = true;
            s.lineBrokenAfterParen = false;
            s.restartLine = 0;
        }
        advance();
    }

    void resetStatement() { m_statement = Statement(); }

    // "Q_DECLARE_METATYPE(X)\nvoid f(int a)": the first parentheses were a macro
    // without a semicolon; the declaration starts on the line of the new name.
    void restartAfterMacro()
    {
        Statement fresh;
        fresh.startLine = m_statement.restartLine;
        fresh.run = m_statement.run;
        fresh.lastSignificant = m_statement.lastSignificant;
        m_statement = fresh;
    }

    Block classify()
    {
        const Statement &s = m_statement;
        if (s.parenDepth > 0)
            return Block::Other;
        if (s.initList)
            return isIdentChar(s.lastSignificant) ? Block::MemberInit : Block::Function;
        if (s.sawParen && s.afterParen && !s.enumKey && tailIsQualifiers())
            return Block::Function;
        if (s.namespaceKey || s.externKey || (s.classKey && !s.enumKey && !s.classAssign))
            return Block::Container;
        return Block::Other;
    }

    void openBrace()
    {
        if (!atContainerLevel()) {
            m_stack.append({Block::Other, {}});
            return;
        }
        begin();
        const Block kind = classify();
        FunctionSpan span;
        if (kind == Block::Function) {
            span.name = m_statement.name.isEmpty() ? QStringLiteral("(lambda)") : m_statement.name;
            span.startLine = m_statement.startLine;
            const QString before = m_lines.value(span.startLine - 2);
            span.table = before.contains(QStringLiteral("// table:"));
        }
        m_stack.append({kind, span});
        if (kind != Block::MemberInit)
            resetStatement();
    }

    void closeBrace()
    {
        if (m_stack.isEmpty())   // unbalanced (a brace inside #if branches): tolerate
            return;
        Open open = m_stack.takeLast();
        if (open.kind == Block::MemberInit) {
            m_statement.tail.clear();
            m_statement.lastSignificant = u'}';
            return;
        }
        if (open.kind == Block::Function) {
            open.span.endLine = m_line;
            m_result.functions.append(open.span);
        }
        if (atContainerLevel())
            resetStatement();
    }

    const QString &m_text;
    const QStringList m_lines;
    int m_pos = 0;
    int m_line = 1;
    bool m_lineStart = true;
    QString m_word;
    QString m_lastWord;
    Statement m_statement;
    QList<Open> m_stack;
    ScanResult m_result;
};

inline ScanResult scanFunctions(const QString &text)
{
    return FunctionScanner(text).run();
}

}   // namespace scalelab::test
