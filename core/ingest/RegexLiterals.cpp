// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/RegexLiterals.h"

#include <algorithm>

namespace scalelab {

namespace {

// The runs of fixed text read so far in a regex.
struct LiteralRuns {
    QString best, cur;
    QStringList runs;

    void end()
    {
        if (cur.size() > best.size())
            best = cur;
        if (cur.size() >= 3)
            runs.append(cur);
        cur.clear();
    }
    // The char before ?, *, {0,..} may be absent.
    void popOptional()
    {
        if (!cur.isEmpty())
            cur.chop(1);
        end();
    }
};

// The index of the ']' that closes the character class opened at `open`.
qsizetype classEnd(const QString &regex, qsizetype open)
{
    const qsizetype n = regex.size();
    qsizetype j = open + 1;
    if (j < n && regex[j] == u'^')
        ++j;
    if (j < n && regex[j] == u']')
        ++j;
    for (; j < n && regex[j] != u']'; ++j)
        if (regex[j] == u'\\')
            ++j;
    return j;
}

// Inline flags "(?i)" or "(?i:" at `open` make the text case-insensitive.
bool caseInsensitiveGroup(const QString &regex, qsizetype open)
{
    const qsizetype n = regex.size();
    if (open + 1 >= n || regex[open + 1] != u'?')
        return false;
    for (qsizetype j = open + 2; j < n && regex[j].isLetter(); ++j)
        if (regex[j] == u'i')
            return true;
    return false;
}

}   // namespace

QString RegexLiterals::longest(const QString &regex)
{
    return all(regex).value(0);
}

QStringList RegexLiterals::all(const QString &regex)
{
    LiteralRuns r;
    int depth = 0;
    const qsizetype n = regex.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = regex[i];
        if (c == u'\\') {
            if (i + 1 >= n)
                break;
            const QChar e = regex[++i];
            // \d, \s, \b, \1, \n ...: not a fixed char here
            if (depth == 0 && !e.isLetterOrNumber())
                r.cur += e;
            else
                r.end();
        } else if (c == u'[') {
            r.end();
            i = classEnd(regex, i);
        } else if (c == u'(') {
            r.end();
            if (caseInsensitiveGroup(regex, i))
                return {};
            ++depth;
        } else if (c == u')') {
            r.end();
            depth = std::max(0, depth - 1);
        } else if (c == u'|') {
            if (depth == 0)
                return {};   // either side may match: no text is certain
            r.end();
        } else if (c == u'?' || c == u'*') {
            r.popOptional();
        } else if (c == u'{') {
            r.popOptional();
            while (i < n && regex[i] != u'}')
                ++i;
        } else if (depth == 0 && c != u'.' && c != u'^' && c != u'$' && c != u'+') {
            r.cur += c;
        } else {
            r.end();
        }
    }
    r.end();
    if (r.best.isEmpty())
        return {};
    r.runs.removeOne(r.best);
    r.runs.prepend(r.best);
    return r.runs;
}

}   // namespace scalelab
