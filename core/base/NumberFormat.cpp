// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/NumberFormat.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace scalelab {

int NumberFormat::decimalsFor(const QList<double> &values, int significant, int maxDecimals)
{
    // The largest magnitude shows `significant` digits, the smallest at least two.
    std::optional<int> largest, smallest;
    for (const double v : values) {
        if (!std::isfinite(v) || v == 0.0)
            continue;
        const int magnitude = int(std::floor(std::log10(std::abs(v))));
        largest = std::max(largest.value_or(magnitude), magnitude);
        smallest = std::min(smallest.value_or(magnitude), magnitude);
    }
    if (!largest)
        return 0;
    const int decimals = std::max(significant - 1 - *largest, 1 - *smallest);
    return std::clamp(decimals, 0, std::max(0, maxDecimals));
}

QString NumberFormat::fixed(double value, int decimals, Grouping grouping)
{
    if (!std::isfinite(value))
        return QStringLiteral("–");
    QString text = QString::number(value, 'f', std::max(0, decimals));   // 'f' never writes an exponent
    const bool negative = text.startsWith(u'-');
    if (negative)
        text.remove(0, 1);
    const qsizetype point = text.indexOf(u'.');
    QString whole = point < 0 ? text : text.left(point);
    const QString fraction = point < 0 ? QString() : text.mid(point);
    if (grouping == Grouping::Thousands)
        for (qsizetype at = whole.size() - 3; at > 0; at -= 3)
            whole.insert(at, u',');
    const QString digits = whole + fraction;
    // "-0.00": a negative value rounded to zero is zero.
    const bool zero = std::all_of(digits.begin(), digits.end(), [](QChar c) { return !c.isDigit() || c == u'0'; });
    return negative && !zero ? QStringLiteral("-") + digits : digits;
}

QString NumberFormat::significant(double value, int significant, Grouping grouping)
{
    return fixed(value, decimalsFor({value}, significant), grouping);
}

QString NumberFormat::compact(double value, int significant, Grouping grouping)
{
    QString text = NumberFormat::significant(value, significant, grouping);
    if (text.contains(u'.')) {
        while (text.endsWith(u'0'))
            text.chop(1);
        if (text.endsWith(u'.'))
            text.chop(1);
    }
    return text;
}

}   // namespace scalelab
