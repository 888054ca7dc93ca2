// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace scalelab {

// One line of a line-by-line diff. Line numbers are 1-based; 0 where the line
// does not exist on that side.
struct DiffLine {
    enum class Kind { Same, Removed, Added };
    Kind kind = Kind::Same;
    QString text;
    int leftLine = 0;
    int rightLine = 0;
    bool operator==(const DiffLine &) const = default;
};

struct TextDiffResult {
    QList<DiffLine> lines;
    int added = 0;
    int removed = 0;

    bool identical() const { return added == 0 && removed == 0; }
    // "unified"-style text: "  same", "- removed", "+ added".
    QString toText() const;
};

// Shortest line diff (Myers' O(ND) algorithm): for job scripts and
// environments, which are small, so the whole trace is kept in memory.
// Removals are listed before additions within a change.
class TextDiff {
public:
    static TextDiffResult diffLines(const QStringList &left, const QStringList &right);
    static TextDiffResult diff(const QString &left, const QString &right);   // split on \n
};

}   // namespace scalelab
