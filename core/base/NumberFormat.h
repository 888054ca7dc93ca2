// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

namespace scalelab {

// Thousands separated by "," (reports read by people), or none (CSV read by programs).
enum class Grouping { Thousands, None };

// Numbers as a report prints them: fixed point, never in `e` notation, the
// same decimals for every value of a column (chosen from its values), and no
// space inside a number, so a table cell never breaks one.
class NumberFormat {
public:
    // The decimals that show `significant` digits of the largest magnitude
    // among `values` and at least two of the smallest non-zero one (0 for
    // 12,345 at three digits, 2 for 4.17 and 0.9, 5 for 0.00116 and 0.0005),
    // at most `maxDecimals`. Non-finite values are skipped.
    static int decimalsFor(const QList<double> &values, int significant, int maxDecimals = 6);
    // "12,345.68" for (12345.678, 2); "–" for NaN or infinity; never "-0".
    static QString fixed(double value, int decimals, Grouping grouping = Grouping::Thousands);
    // One value on its own with `significant` digits: fixed(value, decimalsFor({value}, significant)).
    static QString significant(double value, int significant, Grouping grouping = Grouping::Thousands);
    // As significant(), without trailing zeros after the point, for numbers
    // inside sentences: "1.81", "18,100", "0.000123"; never `e` notation.
    static QString compact(double value, int significant, Grouping grouping = Grouping::Thousands);
};

}   // namespace scalelab
