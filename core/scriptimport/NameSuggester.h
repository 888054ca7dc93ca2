// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

namespace scalelab {

// Did-you-mean over the names a script sets, with bounded work: names are
// indexed by length and by the characters they hold, so a name is compared
// only with set names of about its length that could be a typo away, and all
// suggestions of one lint share a budget of comparisons. A script naming a
// hundred thousand variables costs no more than one naming a few thousand.
class NameSuggester {
public:
    // Set names examined per lint at most; past it, no more suggestions.
    static constexpr qint64 kMaxComparisons = 1000000;

    explicit NameSuggester(const QSet<QString> &names);

    // The set name that differs from `name` only in case or by a typo (one
    // edit; two for names of 12 characters or more), empty when there is none,
    // `name` is shorter than 4 or longer than 64 characters, or the budget is
    // spent. Ties go to the name first in alphabetical order.
    QString suggest(const QString &name);

    // Set names examined so far (for tests: the work stays bounded).
    qint64 comparisons() const { return m_comparisons; }

private:
    struct Entry {
        QString name;
        quint64 chars;   // one bit per character class the name holds
    };
    static quint64 charBits(const QString &name);

    QHash<int, QList<Entry>> m_byLength;
    QHash<QString, QString> m_byFoldedCase;
    qint64 m_comparisons = 0;
};

}   // namespace scalelab
