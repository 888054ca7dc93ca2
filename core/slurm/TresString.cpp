// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/slurm/TresString.h"
#include "core/base/Saturating.h"

#include <QStringList>

#include <algorithm>

namespace scalelab {

namespace {

std::optional<double> toDouble(QStringView s)
{
    bool ok = false;
    const double v = s.toDouble(&ok);
    if (!ok)
        return std::nullopt;
    return v;
}

double unitFactor(QChar c)
{
    switch (c.toUpper().unicode()) {
    case 'K':
        return 1024.0;
    case 'M':
        return 1024.0 * 1024.0;
    case 'G':
        return 1024.0 * 1024.0 * 1024.0;
    case 'T':
        return 1024.0 * 1024.0 * 1024.0 * 1024.0;
    case 'P':
        return 1024.0 * 1024.0 * 1024.0 * 1024.0 * 1024.0;
    default:
        return 0.0;
    }
}

}   // namespace

std::optional<double> TresString::parseSizeBytes(QStringView text)
{
    QStringView t = text.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    double factor = 1.0;
    const double f = unitFactor(t.back());
    if (f > 0) {
        factor = f;
        t.chop(1);
    }
    const auto v = toDouble(t);
    if (!v || *v < 0)
        return std::nullopt;
    return *v * factor;
}

std::optional<double> TresString::parseDurationSeconds(QStringView text)
{
    QStringView t = text.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    double days = 0;
    const qsizetype dash = t.indexOf(u'-');
    if (dash > 0) {
        const auto d = toDouble(t.left(dash));
        if (!d)
            return std::nullopt;
        days = *d;
        t = t.mid(dash + 1);
    }
    const auto parts = t.split(u':');
    if (parts.size() < 2 || parts.size() > 3)
        return std::nullopt;
    double total = 0;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        // Only the last component (seconds) may carry a fraction.
        if (i + 1 < parts.size() && parts[i].contains(u'.'))
            return std::nullopt;
        const auto v = toDouble(parts[i]);
        if (!v || *v < 0)
            return std::nullopt;
        total = total * 60.0 + *v;
    }
    if (dash > 0 && parts.size() == 2)   // "D-HH:MM"
        total *= 60.0;
    return days * 86400.0 + total;
}

TresParseResult TresString::parse(QStringView text, const QString &field)
{
    TresParseResult result;
    const QStringView trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return result;
    for (QStringView item : trimmed.split(u',')) {
        item = item.trimmed();
        if (item.isEmpty())
            continue;
        const qsizetype eq = item.indexOf(u'=');
        if (eq <= 0) {
            result.diagnostics.append({Severity::Warning,
                                       QStringLiteral("tres-malformed"),
                                       field,
                                       0,
                                       0,
                                       QStringLiteral("%1: TRES item '%2' is not key=value; it was ignored")
                                           .arg(field.isEmpty() ? QStringLiteral("TRES") : field, item),
                                       {}});
            continue;
        }
        const QString key = item.left(eq).toString();
        const QStringView value = item.mid(eq + 1);
        TresValue tv;
        tv.raw = value.toString();
        if (value.contains(u':')) {
            tv.kind = TresValue::Kind::Seconds;
            tv.number = parseDurationSeconds(value);
        } else if (!value.isEmpty() && unitFactor(value.back()) > 0) {
            tv.kind = TresValue::Kind::Bytes;
            tv.number = parseSizeBytes(value);
        } else {
            tv.kind = TresValue::Kind::Count;
            tv.number = toDouble(value);
        }
        if (!tv.number) {
            // Node names in TRESUsageInMaxNode and the like are text by design.
            tv.kind = TresValue::Kind::Text;
        }
        result.values.insert(key, tv);
    }
    return result;
}

std::optional<double> TresParseResult::number(const QString &key) const
{
    const auto it = values.constFind(key);
    return it == values.cend() ? std::nullopt : it->number;
}

static std::optional<double> numberOfKind(const TresParseResult &r, const QString &key, TresValue::Kind kind)
{
    const auto it = r.values.constFind(key);
    if (it == r.values.cend() || it->kind != kind)
        return std::nullopt;
    return it->number;
}

std::optional<double> TresParseResult::count(const QString &key) const
{
    return numberOfKind(*this, key, TresValue::Kind::Count);
}

std::optional<double> TresParseResult::bytes(const QString &key) const
{
    return numberOfKind(*this, key, TresValue::Kind::Bytes);
}

std::optional<double> TresParseResult::seconds(const QString &key) const
{
    return numberOfKind(*this, key, TresValue::Kind::Seconds);
}

std::optional<double> TresParseResult::gpuCount() const
{
    if (const auto n = count(QStringLiteral("gres/gpu")))
        return n;
    std::optional<double> sum;
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        if (it.key().startsWith(QLatin1String("gres/gpu:")) && it->kind == TresValue::Kind::Count && it->number)
            sum = sum.value_or(0) + *it->number;
    }
    return sum;
}

std::optional<int> TresString::gpusInGresRequest(QStringView text)
{
    std::optional<int> total;
    for (QStringView item : text.trimmed().split(u',')) {
        item = item.trimmed();
        // "gres:gpu:2" / "gres/gpu:2" / "gres/gpu=2" / "gpu:6" -> "gpu..."
        if (item.startsWith(u"gres:") || item.startsWith(u"gres/"))
            item = item.mid(5);
        if (!(item == u"gpu" || item.startsWith(u"gpu:") || item.startsWith(u"gpu=")))
            continue;
        int count = 1;   // "gres:gpu" with no count means one
        const qsizetype sep = std::max(item.lastIndexOf(u':'), item.lastIndexOf(u'='));
        if (sep > 0) {
            bool ok = false;
            const int n = item.mid(sep + 1).toInt(&ok);
            if (ok && n >= 0)
                count = n;
            else if (item.count(u':') > 1 || item.contains(u'='))
                continue;   // "gpu:a100:x": unreadable, not a guess
            // else "gpu:a100" (type, no count) -> 1
        }
        total = saturatingAdd(total.value_or(0), count);
    }
    return total;
}

}   // namespace scalelab
