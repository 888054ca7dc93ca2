// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/project/ProjectIgnore.h"

#include <vector>

namespace scalelab {

ProjectIgnore ProjectIgnore::parse(const QByteArray &text, const QString &base)
{
    ProjectIgnore out;
    out.m_base = base;
    for (const QByteArray &raw : text.split('\n')) {
        QString line = QString::fromUtf8(raw);
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (auto rule = parseLine(line))
            out.m_rules << *rule;
    }
    return out;
}

ProjectIgnore ProjectIgnore::defaults()
{
    return parse(QByteArrayLiteral(".git/\n__pycache__/\n*.pyc\n.venv/\n"));
}

std::optional<ProjectIgnore::Rule> ProjectIgnore::parseLine(QString line)
{
    // Trailing spaces go unless escaped with a backslash.
    while (line.endsWith(QLatin1Char(' ')) && !line.endsWith(QLatin1String("\\ ")))
        line.chop(1);
    if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
        return std::nullopt;
    Rule r;
    if (line.startsWith(QLatin1Char('!'))) {
        r.negate = true;
        line.remove(0, 1);
    } else if (line.startsWith(QLatin1String("\\!")) || line.startsWith(QLatin1String("\\#"))) {
        line.remove(0, 1);
    }
    if (line.endsWith(QLatin1Char('/'))) {
        r.dirOnly = true;
        line.chop(1);
    }
    if (line.isEmpty())
        return std::nullopt;
    r.anchored = line.contains(QLatin1Char('/'));
    if (line.startsWith(QLatin1Char('/')))
        line.remove(0, 1);
    r.parts = compile(line);
    return r;
}

QList<ProjectIgnore::Part> ProjectIgnore::compile(const QString &pattern)
{
    QList<Part> parts;
    const qsizetype n = pattern.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = pattern[i];
        const bool startOfSegment = i == 0 || pattern[i - 1] == QLatin1Char('/');
        if (c == QLatin1Char('*') && i + 1 < n && pattern[i + 1] == QLatin1Char('*') && startOfSegment) {
            if (i + 2 == n) {   // "/**" at the end, or a lone "**": everything
                parts << Part{Token::DoubleStar, {}, {}, false};
                ++i;
                continue;
            }
            if (pattern[i + 2] == QLatin1Char('/')) {   // "**/": zero or more folders
                parts << Part{Token::DoubleStarSlash, {}, {}, false};
                i += 2;
                continue;
            }
        }
        if (c == QLatin1Char('*')) {
            parts << Part{Token::Star, {}, {}, false};
        } else if (c == QLatin1Char('?')) {
            parts << Part{Token::AnyChar, {}, {}, false};
        } else if (c == QLatin1Char('\\') && i + 1 < n) {
            parts << Part{Token::Literal, pattern[++i], {}, false};
        } else if (c == QLatin1Char('[')) {
            qsizetype j = i + 1;
            Part p{Token::Class, {}, {}, false};
            if (j < n && (pattern[j] == QLatin1Char('!') || pattern[j] == QLatin1Char('^'))) {
                p.negatedSet = true;
                ++j;
            }
            const qsizetype first = j;
            while (j < n && (pattern[j] != QLatin1Char(']') || j == first))
                ++j;
            if (j >= n) {   // no closing bracket: a literal '['
                parts << Part{Token::Literal, c, {}, false};
                continue;
            }
            p.set = pattern.mid(first, j - first);
            parts << p;
            i = j;
        } else {
            parts << Part{Token::Literal, c, {}, false};
        }
    }
    return parts;
}

bool ProjectIgnore::partMatches(const Part &p, QChar c)
{
    switch (p.token) {
    case Token::Literal:
        return p.ch == c;
    case Token::AnyChar:
        return c != QLatin1Char('/');
    case Token::Class: {
        if (c == QLatin1Char('/'))
            return false;
        bool in = false;
        for (qsizetype k = 0; k < p.set.size() && !in; ++k) {
            if (k + 2 < p.set.size() && p.set[k + 1] == QLatin1Char('-')) {
                in = c >= p.set[k] && c <= p.set[k + 2];
                k += 2;
            } else {
                in = c == p.set[k];
            }
        }
        return in != p.negatedSet;
    }
    default:
        return false;
    }
}

// Bottom-up over the pattern: row i says, for each position of the text,
// whether parts[i..] match the rest of the text from there.
bool ProjectIgnore::matches(const QList<Part> &parts, const QString &text)
{
    const qsizetype t = text.size();
    std::vector<char> next(size_t(t) + 1, 0), cur(size_t(t) + 1, 0);
    next[size_t(t)] = 1;   // the empty pattern matches the empty rest
    for (qsizetype i = parts.size() - 1; i >= 0; --i) {
        const Part &p = parts[i];
        bool slashAhead = false;   // DoubleStarSlash: some '/' at k >= j with next[k + 1]
        for (qsizetype j = t; j >= 0; --j) {
            const bool more = j < t;
            const QChar c = more ? text[j] : QChar();
            bool m = false;
            switch (p.token) {
            case Token::Star:
                m = next[size_t(j)] || (more && c != QLatin1Char('/') && cur[size_t(j) + 1]);
                break;
            case Token::DoubleStar:
                m = next[size_t(j)] || (more && cur[size_t(j) + 1]);
                break;
            case Token::DoubleStarSlash:
                slashAhead = slashAhead || (more && c == QLatin1Char('/') && next[size_t(j) + 1]);
                m = next[size_t(j)] || slashAhead;
                break;
            default:
                m = more && partMatches(p, c) && next[size_t(j) + 1];
                break;
            }
            cur[size_t(j)] = m ? 1 : 0;
        }
        std::swap(cur, next);
    }
    return next[0] != 0;
}

std::optional<bool> ProjectIgnore::decide(const QString &path, bool isDir) const
{
    QString rel = path;
    if (!m_base.isEmpty()) {
        if (!path.startsWith(m_base + QLatin1Char('/')))
            return std::nullopt;
        rel = path.mid(m_base.size() + 1);
    }
    const QString name = rel.section(QLatin1Char('/'), -1);
    for (qsizetype i = m_rules.size() - 1; i >= 0; --i) {
        const Rule &r = m_rules[i];
        if (r.dirOnly && !isDir)
            continue;
        if (matches(r.parts, r.anchored ? rel : name))
            return !r.negate;
    }
    return std::nullopt;
}

}   // namespace scalelab
