// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/LiteralNumberMatcher.h"

#include <QByteArrayView>

#include <cstring>

namespace scalelab {

namespace {

bool isWord(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// PCRE's \s: space, \t, \n, \v, \f, \r.
bool isSpace(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

bool eat(const QString &re, qsizetype &i, const char *token)
{
    const QLatin1String t(token);
    if (re.mid(i, t.size()) == t) {
        i += t.size();
        return true;
    }
    return false;
}

// The possessive form of a separator first: before a number, where no space
// can start, it matches what the plain form matches.
bool eatEither(const QString &re, qsizetype &i, const char *possessive, const char *plain)
{
    return eat(re, i, possessive) || eat(re, i, plain);
}

}   // namespace

std::optional<LiteralNumberMatcher> LiteralNumberMatcher::fromRegex(const QString &re)
{
    LiteralNumberMatcher m;
    qsizetype i = 0;
    if (eat(re, i, "\\b"))
        m.m_wordBoundary = true;
    static const QString special = QStringLiteral(".^$|?*+()[]{}\\");
    while (i < re.size()) {
        const QChar c = re[i];
        if (c == u'\\' && i + 1 < re.size() && !re[i + 1].isLetterOrNumber() && re[i + 1].unicode() < 128) {
            m.m_literal += char(re[i + 1].unicode());
            i += 2;
        } else if (!special.contains(c) && c.unicode() < 128) {
            // A literal char followed by a quantifier is not fixed text.
            if (i + 1 < re.size() && QStringLiteral("?*+{").contains(re[i + 1]))
                return std::nullopt;
            m.m_literal += char(c.unicode());
            ++i;
        } else {
            break;
        }
    }
    if (m.m_literal.empty())
        return std::nullopt;
    if (eatEither(re, i, "\\s*+[=:]\\s*+", "\\s*[=:]\\s*")) {
        m.m_sep = Sep::SpacesOneOfSpaces;
        m.m_sepChars = "=:";
    } else if (eatEither(re, i, "\\s*+", "\\s*"))
        m.m_sep = Sep::Spaces0;
    else if (eatEither(re, i, "\\s++", "\\s+"))
        m.m_sep = Sep::Spaces1;
    else if (eatEither(re, i, "[=:\\s]\\s*+", "[=:\\s]\\s*")) {
        m.m_sep = Sep::OneOfThenSpaces;
        m.m_sepChars = "=: \t\n\v\f\r";
    } else if (eatEither(re, i, "[=:]\\s*+", "[=:]\\s*")) {
        m.m_sep = Sep::OneOfThenSpaces;
        m.m_sepChars = "=:";
    } else if (eatEither(re, i, "[=:] ?+", "[=:] ?")) {
        m.m_sep = Sep::OneOfThenSpace;
        m.m_sepChars = "=:";
    }
    const QString group = re.mid(i);
    // The decimal form, also possessive (ReaderRules' kNumP): before the end
    // of the regex both match the same text.
    if (group == QLatin1String("([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)")
        || group == QLatin1String("([-+]?+(?:[0-9]*+\\.)?[0-9]++(?:[eE][-+]?+[0-9]++)?+)")) {
        m.m_num = Num::Decimal;
    } else if (group == QLatin1String("([0-9]+)") || group == QLatin1String("(\\d+)")) {
        m.m_num = Num::Class;
        m.m_classDigits = true;
    } else if (group == QLatin1String("([0-9.]+)") || group == QLatin1String("([\\d.]+)")) {
        m.m_num = Num::Class;
        m.m_classDigits = true;
        m.m_classChars = ".";
    } else if (group == QLatin1String("([0-9.eE+-]+)")) {
        m.m_num = Num::Class;
        m.m_classDigits = true;
        m.m_classChars = ".eE+-";
    } else {
        return std::nullopt;
    }
    return m;
}

size_t LiteralNumberMatcher::numberEnd(std::string_view s, size_t p) const
{
    const size_t n = s.size();
    if (m_num == Num::Class) {
        size_t q = p;
        while (q < n && ((m_classDigits && isDigit(s[q])) || m_classChars.find(s[q]) != std::string_view::npos))
            ++q;
        return q > p ? q : std::string_view::npos;
    }
    // [-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)? with the regex's backtracking:
    // "12." matches "12", ".5" matches ".5", "1e" matches "1".
    size_t q = p;
    if (q < n && (s[q] == '-' || s[q] == '+'))
        ++q;
    const size_t intStart = q;
    while (q < n && isDigit(s[q]))
        ++q;
    const bool haveInt = q > intStart;
    if (q + 1 < n && s[q] == '.' && isDigit(s[q + 1])) {
        q += 2;
        while (q < n && isDigit(s[q]))
            ++q;
    } else if (!haveInt) {
        return std::string_view::npos;
    }
    if (q + 1 < n && (s[q] == 'e' || s[q] == 'E')) {
        size_t e = q + 1;
        if (e < n && (s[e] == '-' || s[e] == '+'))
            ++e;
        if (e < n && isDigit(s[e])) {
            while (e < n && isDigit(s[e]))
                ++e;
            q = e;
        }
    }
    return q;
}

int LiteralNumberMatcher::match(std::string_view line, double *out, int max) const
{
    int found = 0;
    size_t from = 0;
    while (found < max) {
        const size_t at = line.find(m_literal, from);
        if (at == std::string_view::npos)
            break;
        from = at + 1;
        if (m_wordBoundary) {
            const bool before = at > 0 && isWord(line[at - 1]);
            if (before == isWord(m_literal.front()))
                continue;
        }
        size_t p = at + m_literal.size();
        const size_t n = line.size();
        switch (m_sep) {
        case Sep::None:
            break;
        case Sep::Spaces0:
            while (p < n && isSpace(line[p]))
                ++p;
            break;
        case Sep::Spaces1: {
            const size_t s = p;
            while (p < n && isSpace(line[p]))
                ++p;
            if (p == s)
                continue;
            break;
        }
        case Sep::OneOfThenSpaces:
            if (p >= n || m_sepChars.find(line[p]) == std::string_view::npos)
                continue;
            ++p;
            while (p < n && isSpace(line[p]))
                ++p;
            break;
        case Sep::OneOfThenSpace:
            if (p >= n || m_sepChars.find(line[p]) == std::string_view::npos)
                continue;
            ++p;
            if (p < n && line[p] == ' ')
                ++p;
            break;
        case Sep::SpacesOneOfSpaces:
            while (p < n && isSpace(line[p]))
                ++p;
            if (p >= n || m_sepChars.find(line[p]) == std::string_view::npos)
                continue;
            ++p;
            while (p < n && isSpace(line[p]))
                ++p;
            break;
        }
        const size_t end = numberEnd(line, p);
        if (end == std::string_view::npos)
            continue;
        bool ok = false;
        const double v = QByteArrayView(line.data() + p, qsizetype(end - p)).toDouble(&ok);
        from = end;
        if (ok)
            out[found++] = v;
    }
    return found;
}

}   // namespace scalelab
