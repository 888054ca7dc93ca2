// SPDX-License-Identifier: GPL-3.0-or-later
// TRESBillingWeights: parse and apply.
#include "core/slurm/BillingWeights.h"

#include <cmath>

namespace scalelab {

namespace {

// "0.25G" -> 0.25 per GB = 0.25/1024 per MB (the base unit of the mem TRES;
// other TRES have no base unit and a suffix scales them by 1024 per step from
// their count, as Slurm's convert_str reads them).
std::optional<double> weightPerBase(QString value, const QString &key)
{
    value = value.trimmed();
    if (value.isEmpty())
        return std::nullopt;
    static const QString kUnits = QStringLiteral("KMGTP");
    const QChar last = value.back().toUpper();
    int unitStep = -1;   // -1: no suffix
    if (const qsizetype u = kUnits.indexOf(last); u >= 0) {
        unitStep = int(u);
        value.chop(1);
    }
    bool ok = false;
    const double w = value.toDouble(&ok);
    if (!ok || !std::isfinite(w) || w < 0)
        return std::nullopt;
    if (unitStep < 0)
        return w;
    // Memory counts in MB (step 1); a weight per K is 1024 times one per MB.
    const int baseStep = key == QLatin1String("mem") ? 1 : 0;
    return w / std::pow(1024.0, unitStep - baseStep);
}

}   // namespace

BillingWeights BillingWeights::parse(const QString &text)
{
    BillingWeights b;
    const QString t = text.left(4000);
    for (const QString &item : t.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype eq = item.indexOf(QLatin1Char('='));
        const QString key = item.left(eq).trimmed().toLower();
        const auto w = eq > 0 ? weightPerBase(item.mid(eq + 1), key) : std::nullopt;
        if (key.isEmpty() || !w) {
            b.diagnostics << finding(Severity::Warning, QStringLiteral("billing-weight-unreadable"),
                                     QStringLiteral("tresBillingWeights"), 0,
                                     QStringLiteral("TRESBillingWeights item \"%1\" is not TRES=number; it is left "
                                                    "out of the billing")
                                         .arg(item.left(80)));
            continue;
        }
        b.perUnit.insert(key, *w);
    }
    return b;
}

std::optional<double> BillingWeights::billingOf(const TresRequest &r) const
{
    double sum = 0;
    for (auto it = perUnit.begin(); it != perUnit.end(); ++it) {
        const QString &k = it.key();
        double count = 0;
        if (k == QLatin1String("cpu"))
            count = r.cpus;
        else if (k == QLatin1String("node"))
            count = r.nodes;
        else if (k == QLatin1String("gres/gpu"))
            count = r.gpus;
        else if (k.startsWith(QLatin1String("gres/gpu:")))
            count = !r.gpuType.isEmpty() && k.mid(9) == r.gpuType.toLower() ? r.gpus : 0;
        else if (k == QLatin1String("mem")) {
            if (it.value() > 0 && !r.memMB)
                return std::nullopt;
            count = r.memMB.value_or(0);
        }
        sum += it.value() * count;
    }
    return sum;
}

}   // namespace scalelab
