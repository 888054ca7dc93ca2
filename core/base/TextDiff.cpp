// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/TextDiff.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace scalelab {

QString TextDiffResult::toText() const
{
    QString out;
    for (const DiffLine &l : lines) {
        switch (l.kind) {
        case DiffLine::Kind::Same:
            out += QLatin1String("  ");
            break;
        case DiffLine::Kind::Removed:
            out += QLatin1String("- ");
            break;
        case DiffLine::Kind::Added:
            out += QLatin1String("+ ");
            break;
        }
        out += l.text;
        out += QLatin1Char('\n');
    }
    return out;
}

TextDiffResult TextDiff::diff(const QString &left, const QString &right)
{
    auto split = [](const QString &s) {
        if (s.isEmpty())
            return QStringList();
        QStringList l = s.split(QLatin1Char('\n'));
        if (s.endsWith(QLatin1Char('\n')))
            l.removeLast();   // a final newline is not an extra empty line
        return l;
    };
    return diffLines(split(left), split(right));
}

namespace {

using Trace = std::vector<std::vector<int>>;

// "All removed, all added": still a correct (if long) diff.
TextDiffResult replaceAll(const QStringList &a, const QStringList &b)
{
    TextDiffResult r;
    for (int i = 0; i < a.size(); ++i)
        r.lines.append({DiffLine::Kind::Removed, a[i], i + 1, 0});
    for (int j = 0; j < b.size(); ++j)
        r.lines.append({DiffLine::Kind::Added, b[j], 0, j + 1});
    r.removed = int(a.size());
    r.added = int(b.size());
    return r;
}

// Myers' forward pass: trace[d] = the furthest x reached on each diagonal k
// after d edits. Returns the number of edits, or nothing when the trace would
// grow too big (very different large texts).
std::optional<int> forwardPass(const QStringList &a, const QStringList &b, Trace &trace)
{
    const int n = int(a.size());
    const int m = int(b.size());
    const int max = n + m;
    const int offset = max + 1;
    std::vector<int> v(size_t(2 * max + 3), 0);
    for (int d = 0; d <= max; ++d) {
        for (int k = -d; k <= d; k += 2) {
            int x;
            if (k == -d || (k != d && v[size_t(offset + k - 1)] < v[size_t(offset + k + 1)]))
                x = v[size_t(offset + k + 1)];   // step down: an insertion
            else
                x = v[size_t(offset + k - 1)] + 1;   // step right: a deletion
            int y = x - k;
            while (x < n && y < m && a[x] == b[y]) {
                ++x;
                ++y;
            }
            v[size_t(offset + k)] = x;
            if (x >= n && y >= m) {
                trace.push_back(v);
                return d;
            }
        }
        trace.push_back(v);
        if (double(trace.size()) * double(v.size()) > 3e7)
            return std::nullopt;
    }
    return std::nullopt;
}

// Walks back from (n, m) to (0, 0), collecting the edit script in reverse.
QList<DiffLine> walkBack(const QStringList &a, const QStringList &b, const Trace &trace, int found)
{
    const int offset = int(a.size() + b.size()) + 1;
    QList<DiffLine> rev;
    int x = int(a.size()), y = int(b.size());
    for (int d = found; d > 0; --d) {
        const std::vector<int> &prev = trace[size_t(d - 1)];
        const int k = x - y;
        int prevK;
        if (k == -d || (k != d && prev[size_t(offset + k - 1)] < prev[size_t(offset + k + 1)]))
            prevK = k + 1;
        else
            prevK = k - 1;
        const int prevX = prev[size_t(offset + prevK)];
        const int prevY = prevX - prevK;
        while (x > prevX && y > prevY) {
            --x;
            --y;
            rev.append({DiffLine::Kind::Same, a[x], x + 1, y + 1});
        }
        if (x == prevX) {
            --y;
            rev.append({DiffLine::Kind::Added, b[y], 0, y + 1});
        } else {
            --x;
            rev.append({DiffLine::Kind::Removed, a[x], x + 1, 0});
        }
    }
    while (x > 0 && y > 0) {
        --x;
        --y;
        rev.append({DiffLine::Kind::Same, a[x], x + 1, y + 1});
    }
    return rev;
}

}   // namespace

TextDiffResult TextDiff::diffLines(const QStringList &a, const QStringList &b)
{
    Trace trace;
    const std::optional<int> found = forwardPass(a, b, trace);
    if (!found)
        return replaceAll(a, b);
    const QList<DiffLine> rev = walkBack(a, b, trace, *found);
    TextDiffResult r;
    r.lines.reserve(rev.size());
    for (auto it = rev.crbegin(); it != rev.crend(); ++it)
        r.lines.append(*it);
    // Within each change block, list removals before additions (easier to read).
    for (qsizetype i = 0; i < r.lines.size();) {
        if (r.lines[i].kind == DiffLine::Kind::Same) {
            ++i;
            continue;
        }
        qsizetype j = i;
        while (j < r.lines.size() && r.lines[j].kind != DiffLine::Kind::Same)
            ++j;
        std::stable_partition(r.lines.begin() + i, r.lines.begin() + j,
                              [](const DiffLine &l) { return l.kind == DiffLine::Kind::Removed; });
        i = j;
    }
    for (const DiffLine &l : r.lines) {
        if (l.kind == DiffLine::Kind::Added)
            ++r.added;
        else if (l.kind == DiffLine::Kind::Removed)
            ++r.removed;
    }
    return r;
}

}   // namespace scalelab
