// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/slurm/SlurmTime.h"

#include <QDateTime>
#include <QStringList>
#include <QTimeZone>

namespace scalelab {

namespace {

std::optional<qint64> toNumber(QStringView s)
{
    if (s.isEmpty() || s.size() > 9)
        return std::nullopt;
    qint64 v = 0;
    for (QChar c : s) {
        if (!c.isDigit())
            return std::nullopt;
        v = v * 10 + c.digitValue();
    }
    return v;
}

}   // namespace

std::optional<qint64> SlurmTime::parseSeconds(const QString &input)
{
    const QString text = input.trimmed();
    if (text.isEmpty())
        return std::nullopt;
    if (text.compare(QLatin1String("UNLIMITED"), Qt::CaseInsensitive) == 0
        || text.compare(QLatin1String("INFINITE"), Qt::CaseInsensitive) == 0)
        return std::nullopt;

    qint64 days = 0;
    QStringView rest(text);
    const qsizetype dash = text.indexOf(QLatin1Char('-'));
    const bool hasDays = dash >= 0;
    if (hasDays) {
        auto d = toNumber(rest.left(dash));
        if (!d)
            return std::nullopt;
        days = *d;
        rest = rest.mid(dash + 1);
    }
    // sacct prints fractional seconds in TotalCPU ("00:01.234"); drop them.
    if (const qsizetype dot = rest.indexOf(QLatin1Char('.')); dot >= 0)
        rest = rest.left(dot);
    const auto parts = rest.split(QLatin1Char(':'));
    if (parts.isEmpty() || parts.size() > 3)
        return std::nullopt;
    qint64 values[3] = {0, 0, 0};
    for (int i = 0; i < parts.size(); ++i) {
        auto v = toNumber(parts[i]);
        if (!v)
            return std::nullopt;
        values[i] = *v;
    }
    qint64 h = 0, m = 0, s = 0;
    if (hasDays) {
        // days-hours, days-hours:minutes, days-hours:minutes:seconds
        h = values[0];
        m = parts.size() > 1 ? values[1] : 0;
        s = parts.size() > 2 ? values[2] : 0;
    } else if (parts.size() == 1) {
        m = values[0];   // "minutes"
    } else if (parts.size() == 2) {
        m = values[0];   // "minutes:seconds"
        s = values[1];
    } else {
        h = values[0];
        m = values[1];
        s = values[2];
    }
    if ((parts.size() > 1 || hasDays) && (m > 59 || s > 59))
        return std::nullopt;
    return ((days * 24 + h) * 60 + m) * 60 + s;
}

QString SlurmTime::format(qint64 seconds)
{
    if (seconds < 0)
        seconds = 0;
    const qint64 d = seconds / 86400;
    const qint64 h = (seconds % 86400) / 3600;
    const qint64 m = (seconds % 3600) / 60;
    const qint64 s = seconds % 60;
    const QString hms = QStringLiteral("%1:%2:%3")
                            .arg(h, 2, 10, QLatin1Char('0'))
                            .arg(m, 2, 10, QLatin1Char('0'))
                            .arg(s, 2, 10, QLatin1Char('0'));
    return d > 0 ? QStringLiteral("%1-%2").arg(d).arg(hms) : hms;
}

std::optional<qint64> SlurmTime::parseTimestamp(const QString &text)
{
    const QString t = text.trimmed();
    if (t.isEmpty() || t == QLatin1String("Unknown") || t == QLatin1String("None") || t == QLatin1String("N/A"))
        return std::nullopt;
    bool digits = true;
    for (const QChar c : t)
        digits = digits && c.isDigit();
    if (digits) {
        bool ok = false;
        const qint64 v = t.toLongLong(&ok);
        // 0 and NO_VAL/INFINITE (2^32-2, 2^32-1) mean "not set" in Slurm.
        if (!ok || v <= 0 || v >= 4294967294LL)
            return std::nullopt;
        return v;
    }
    QDateTime dt = QDateTime::fromString(t, Qt::ISODate);
    if (!dt.isValid())
        return std::nullopt;
    dt.setTimeZone(QTimeZone::utc());
    return dt.toSecsSinceEpoch();
}

}   // namespace scalelab
