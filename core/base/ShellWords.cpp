// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/ShellWords.h"

#include <QSet>

namespace scalelab {

QStringList ShellCommand::texts() const
{
    QStringList out;
    out.reserve(words.size());
    for (const auto &w : words)
        out << w.text;
    return out;
}

namespace {

bool isNameStart(QChar c)
{
    return c.isLetter() || c == QLatin1Char('_');
}
bool isNameChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}
bool isBlank(QChar c)
{
    return c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\n') || c == QLatin1Char('\r');
}

class Lexer {
public:
    Lexer(const QString &text, const VariableLookup &lookup)
        : m_s(text)
        , m_lookup(lookup)
    {}

    // Lexes from `from` up to the first top-level newline instead of the end.
    void stopAtNewline(int from)
    {
        m_i = from;
        m_stopAtNewline = true;
    }
    int stoppedAt() const { return m_stoppedAt; }
    // Reads the structure only: no words, commands or unresolved names kept.
    void keepNoWords() { m_keepWords = false; }

    ShellLexResult run()
    {
        const int n = int(m_s.size());
        while (m_i < n) {
            const QChar c = m_s.at(m_i);
            if (m_stopAtNewline && c == QLatin1Char('\n')) {
                m_stoppedAt = m_i;
                break;
            }
            if (isBlank(c)) {
                endWord();
                ++m_i;
            } else if (c == QLatin1Char('#') && !m_inWord) {
                while (m_i < n && m_s.at(m_i) != QLatin1Char('\n'))
                    ++m_i;
            } else if (c == QLatin1Char('\\')) {
                if (m_i + 1 >= n) {
                    m_r.trailingBackslash = true;
                    ++m_i;
                } else if (m_s.at(m_i + 1) == QLatin1Char('\n')) {
                    m_i += 2;   // line continuation inside the text
                } else {
                    startWord();
                    m_word += m_s.at(m_i + 1);
                    m_i += 2;
                }
            } else if (c == QLatin1Char('\'')) {
                startWord();
                const int close = int(m_s.indexOf(QLatin1Char('\''), m_i + 1));
                if (close < 0) {
                    fail(m_i);
                    m_word += m_s.mid(m_i + 1);
                    m_i = n;
                } else {
                    m_word += m_s.mid(m_i + 1, close - m_i - 1);
                    m_i = close + 1;
                }
            } else if (c == QLatin1Char('"')) {
                startWord();
                doubleQuoted();
            } else if (c == QLatin1Char('$')) {
                startWord();
                dollar(false);
            } else if (c == QLatin1Char('`')) {
                startWord();
                backtick();
            } else if (c == QLatin1Char('>') || c == QLatin1Char('<')) {
                redirect();
            } else if (c == QLatin1Char(';') || c == QLatin1Char('|') || c == QLatin1Char('&') || c == QLatin1Char('(')
                       || c == QLatin1Char(')')) {
                if (c == QLatin1Char('&') && m_i + 1 < n && m_s.at(m_i + 1) == QLatin1Char('>')) {
                    redirect();
                    continue;
                }
                endWord();
                QString op(c);
                if (m_i + 1 < n
                    && (m_s.at(m_i + 1) == c || (c == QLatin1Char('|') && m_s.at(m_i + 1) == QLatin1Char('&'))))
                    op += m_s.at(m_i + 1);
                m_i += int(op.size());
                endCommand(op);
            } else {
                startWord();
                m_word += c;
                ++m_i;
            }
        }
        endWord();
        endCommand(QString());
        return m_r;
    }

private:
    void fail(int at)
    {
        if (!m_r.unterminatedQuote) {
            m_r.unterminatedQuote = true;
            m_r.unterminatedOffset = at;
        }
    }

    void startWord()
    {
        if (!m_inWord) {
            m_inWord = true;
            m_wordStart = m_i;
        }
    }

    void endWord()
    {
        if (!m_inWord)
            return;
        m_inWord = false;
        if (m_redirectPending) {
            // The word is a redirection target, not an argument.
            m_redirectPending = false;
            if (m_heredocPending) {
                m_r.heredocs << ShellHeredoc{m_word, m_heredocStripTabs};
                m_heredocPending = false;
            }
        } else if (m_keepWords) {
            m_cmd.words << ShellWord{m_word, m_wordStart, m_i};
        }
        m_word.clear();
    }

    void endCommand(const QString &op)
    {
        if (!m_cmd.words.isEmpty() || !op.isEmpty()) {
            m_cmd.terminator = op;
            if (!m_cmd.words.isEmpty())
                m_cmd.offset = m_cmd.words.front().offset;
            if (!m_cmd.words.isEmpty())
                m_r.commands << m_cmd;
            else if (!m_r.commands.isEmpty() && m_r.commands.back().terminator.isEmpty())
                m_r.commands.back().terminator = op;
        }
        m_cmd = ShellCommand{};
    }

    void redirect()
    {
        // "2>" and "2>&1": a word made only of digits directly before is the fd.
        if (m_inWord && !m_word.isEmpty()) {
            bool digits = true;
            for (QChar ch : m_word)
                digits = digits && ch.isDigit();
            if (digits && m_wordStart + m_word.size() == m_i) {
                m_inWord = false;
                m_word.clear();
            }
        }
        endWord();
        static const char *const ops[] = {"<<<", "<<-", "&>>", "<<", "<&", "<>", ">>", ">&", ">|", "&>", "<", ">"};
        QString op;
        for (const char *candidate : ops) {
            const QLatin1String o(candidate);
            if (QStringView(m_s).mid(m_i).startsWith(o)) {
                op = o;
                break;
            }
        }
        if (op.isEmpty())
            op = m_s.at(m_i);
        m_i += int(op.size());
        if (op == QLatin1String("<<") || op == QLatin1String("<<-")) {
            m_heredocPending = true;
            m_heredocStripTabs = op == QLatin1String("<<-");
        }
        // ">&1" / "<&-": the target follows without blanks; also fine with blanks.
        m_redirectPending = true;
    }

    void doubleQuoted()
    {
        const int n = int(m_s.size());
        const int open = m_i;
        ++m_i;
        while (m_i < n) {
            const QChar c = m_s.at(m_i);
            if (c == QLatin1Char('"')) {
                ++m_i;
                return;
            }
            if (c == QLatin1Char('\\') && m_i + 1 < n) {
                const QChar next = m_s.at(m_i + 1);
                if (next == QLatin1Char('\n')) {
                    m_i += 2;
                    continue;
                }
                if (next == QLatin1Char('"') || next == QLatin1Char('\\') || next == QLatin1Char('$')
                    || next == QLatin1Char('`')) {
                    m_word += next;
                    m_i += 2;
                    continue;
                }
                m_word += c;
                ++m_i;
            } else if (c == QLatin1Char('$')) {
                dollar(true);
            } else if (c == QLatin1Char('`')) {
                backtick();
            } else {
                m_word += c;
                ++m_i;
            }
        }
        fail(open);
    }

    // Copies a balanced $( ... ) or $(( ... )) verbatim.
    void commandSubstitution()
    {
        const int n = int(m_s.size());
        const int open = m_i;
        int depth = 0;
        QChar quote;
        int j = m_i + 1;   // at '('
        for (; j < n; ++j) {
            const QChar c = m_s.at(j);
            if (!quote.isNull()) {
                if (c == quote)
                    quote = QChar();
                else if (c == QLatin1Char('\\') && quote == QLatin1Char('"'))
                    ++j;
                continue;
            }
            if (c == QLatin1Char('\'') || c == QLatin1Char('"'))
                quote = c;
            else if (c == QLatin1Char('\\'))
                ++j;
            else if (c == QLatin1Char('('))
                ++depth;
            else if (c == QLatin1Char(')') && --depth == 0)
                break;
        }
        if (j >= n) {
            fail(open);
            m_word += m_s.mid(m_i);
            m_i = n;
            return;
        }
        m_word += m_s.mid(m_i, j - m_i + 1);
        m_i = j + 1;
    }

    void backtick()
    {
        const int close = int(m_s.indexOf(QLatin1Char('`'), m_i + 1));
        if (close < 0) {
            fail(m_i);
            m_word += m_s.mid(m_i);
            m_i = int(m_s.size());
            return;
        }
        m_word += m_s.mid(m_i, close - m_i + 1);
        m_i = close + 1;
    }

    void noteUnresolved(const QString &name)
    {
        // A set beside the ordered list: a line with a million distinct
        // $names must not search the list a million times.
        if (m_keepWords && !m_unresolvedSeen.contains(name)) {
            m_unresolvedSeen.insert(name);
            m_r.unresolved << name;
        }
    }

    std::optional<QString> lookup(const QString &name) const
    {
        if (!m_lookup)
            return std::nullopt;
        return m_lookup(name);
    }

    void dollar(bool inDoubleQuotes)
    {
        Q_UNUSED(inDoubleQuotes);
        const int n = int(m_s.size());
        if (m_i + 1 >= n) {
            m_word += QLatin1Char('$');
            ++m_i;
            return;
        }
        const QChar next = m_s.at(m_i + 1);
        if (next == QLatin1Char('(')) {
            commandSubstitution();
            return;
        }
        if (next == QLatin1Char('{')) {
            const int close = int(m_s.indexOf(QLatin1Char('}'), m_i + 2));
            if (close < 0) {
                fail(m_i);
                m_word += m_s.mid(m_i);
                m_i = n;
                return;
            }
            const QString inner = m_s.mid(m_i + 2, close - m_i - 2);
            int k = 0;
            while (k < inner.size() && isNameChar(inner.at(k)))
                ++k;
            const QString name = inner.left(k);
            const QString rest = inner.mid(k);
            const QString verbatim = m_s.mid(m_i, close - m_i + 1);
            m_i = close + 1;
            if (name.isEmpty()
                || !(rest.isEmpty() || rest.startsWith(QLatin1String(":-")) || rest.startsWith(QLatin1Char('-')))) {
                m_word += verbatim;   // ${#x}, ${x/a/b} ...: beyond this lexer
                if (!name.isEmpty())
                    noteUnresolved(name);
                return;
            }
            if (auto v = lookup(name); v && !(rest.startsWith(QLatin1String(":-")) && v->isEmpty())) {
                m_word += *v;
            } else if (!rest.isEmpty()) {
                m_word += rest.mid(rest.startsWith(QLatin1String(":-")) ? 2 : 1);
            } else {
                m_word += verbatim;
                noteUnresolved(name);
            }
            return;
        }
        if (isNameStart(next)) {
            int j = m_i + 1;
            while (j < n && isNameChar(m_s.at(j)))
                ++j;
            const QString name = m_s.mid(m_i + 1, j - m_i - 1);
            if (auto v = lookup(name)) {
                m_word += *v;
            } else {
                m_word += m_s.mid(m_i, j - m_i);
                noteUnresolved(name);
            }
            m_i = j;
            return;
        }
        if (next.isDigit()) {
            noteUnresolved(QString(next));
            m_word += m_s.mid(m_i, 2);
            m_i += 2;
            return;
        }
        m_word += QLatin1Char('$');
        ++m_i;
    }

    const QString &m_s;
    const VariableLookup &m_lookup;
    ShellLexResult m_r;
    ShellCommand m_cmd;
    QString m_word;
    bool m_inWord = false;
    int m_wordStart = 0;
    int m_i = 0;
    bool m_redirectPending = false;
    bool m_heredocPending = false;
    bool m_heredocStripTabs = false;
    bool m_stopAtNewline = false;
    bool m_keepWords = true;
    int m_stoppedAt = -1;
    QSet<QString> m_unresolvedSeen;
};

}   // namespace

ShellLexResult lexShell(const QString &text, const VariableLookup &lookup)
{
    return Lexer(text, lookup).run();
}

ShellLexResult scanShell(const QString &text)
{
    const VariableLookup none;
    Lexer lexer(text, none);
    lexer.keepNoWords();
    return lexer.run();
}

ShellLineEnd findShellLineEnd(const QString &text, int from)
{
    const VariableLookup none;
    Lexer lexer(text, none);
    lexer.keepNoWords();
    lexer.stopAtNewline(from);
    const ShellLexResult r = lexer.run();
    ShellLineEnd e;
    e.end = lexer.stoppedAt() >= 0 ? lexer.stoppedAt() : int(text.size());
    e.unterminated = r.unterminatedQuote;
    e.unterminatedOffset = r.unterminatedOffset;
    return e;
}

}   // namespace scalelab
