// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/NameSuggester.h"

#include "core/scriptimport/LintRules.h"

#include <algorithm>
#include <bit>

namespace scalelab {

NameSuggester::NameSuggester(const QSet<QString> &names)
{
    QStringList sorted(names.cbegin(), names.cend());
    std::sort(sorted.begin(), sorted.end());
    for (const QString &n : std::as_const(sorted)) {
        if (n.size() < 2 || n.size() > 66)
            continue;   // never within a typo of a name suggest() looks up
        m_byLength[int(n.size())].append(Entry{n, charBits(n)});
        m_byFoldedCase.insert(n.toCaseFolded(), n);   // the last in order wins; any is right
    }
}

// Letters (either case), digits and '_' each have a bit; anything else shares
// the rest. One edit adds or removes at most two characters, so names within
// `cap` edits differ in at most 2 * cap bits.
quint64 NameSuggester::charBits(const QString &name)
{
    quint64 bits = 0;
    for (const QChar c : name) {
        const char16_t u = c.toCaseFolded().unicode();
        int bit = 38 + int(u % 26);
        if (u >= u'a' && u <= u'z')
            bit = int(u - u'a');
        else if (u >= u'0' && u <= u'9')
            bit = 26 + int(u - u'0');
        else if (u == u'_')
            bit = 36;
        bits |= quint64(1) << bit;
    }
    return bits;
}

QString NameSuggester::suggest(const QString &name)
{
    if (name.size() < 4 || name.size() > 64)
        return {};
    if (const auto same = m_byFoldedCase.constFind(name.toCaseFolded()); same != m_byFoldedCase.cend())
        return *same;
    const int cap = name.size() >= 12 ? 2 : 1;
    const quint64 bits = charBits(name);
    QString best;
    int bestDist = cap + 1;
    for (int len = int(name.size()) - cap; len <= int(name.size()) + cap; ++len) {
        const auto bucket = m_byLength.constFind(len);
        if (bucket == m_byLength.cend())
            continue;
        for (const Entry &e : *bucket) {
            if (m_comparisons >= kMaxComparisons)
                return best;
            ++m_comparisons;
            if (std::popcount(e.chars ^ bits) > 2 * cap)
                continue;
            const int d = editDistance(e.name, name, cap);
            if (d < bestDist || (d == bestDist && d <= cap && e.name < best)) {
                bestDist = d;
                best = e.name;
            }
        }
    }
    return bestDist <= cap ? best : QString();
}

}   // namespace scalelab
