// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/MetricAccumulator.h"

#include <QStringList>

namespace scalelab {

namespace {

QString formOf(const MetricPattern &p)
{
    switch (p.form) {
    case ValueForm::Milliseconds:
        return QStringLiteral("printed milliseconds / 1000");
    case ValueForm::Percent:
        return QStringLiteral("printed percent / 100");
    case ValueForm::Reciprocal:
        return QStringLiteral("1 / printed seconds per iteration");
    case ValueForm::Duration:
        return QStringLiteral("printed H:MM:SS.ff in seconds");
    case ValueForm::Number:
        break;
    }
    return p.ratio ? QStringLiteral("printed numerator / denominator") : QString();
}

}   // namespace

void MetricAccumulator::add(const Value &v)
{
    const bool first = m_values.isEmpty();
    if (first) {
        m_firstRule = v.rule;
        m_aggregation = v.aggregation;
    }
    m_values.append(v.read.value);
    m_steps.append(v.read.step);
    m_sum += v.read.value;
    bool chosen = true;
    if (!first && m_aggregation == MetricAggregation::Max)
        chosen = v.read.value > m_chosen.read.value;
    else if (!first && m_aggregation == MetricAggregation::Min)
        chosen = v.read.value < m_chosen.read.value;
    if (chosen) {
        m_chosen = v;
        m_chosenLineKept = false;
    }
    if (v.read.rank >= 0) {
        auto &[sum, n] = m_perRank[v.read.rank];
        sum += v.read.value;
        n += 1;
    }
}

qint64 MetricAccumulator::keepChosenLine()
{
    if (m_chosenLineKept || m_values.isEmpty())
        return -1;
    m_chosenLineKept = true;
    m_chosenText.assign(m_chosen.lineBegin, size_t(m_chosen.lineEnd - m_chosen.lineBegin));
    m_chosen.lineBegin = m_chosen.lineEnd = nullptr;
    return m_chosen.offset;
}

LogMetric MetricAccumulator::result(const QList<CompiledRule> &rules) const
{
    const MetricPattern &first = rules[m_firstRule].pattern;
    const MetricPattern &rule = rules[m_chosen.rule].pattern;
    LogMetric m;
    m.name = first.name;
    m.unit = first.unit;
    m.aggregation = first.aggregation;
    m.count = count();
    m.values = m_values;
    m.steps = m_steps;
    m.rule = rule.rule;
    m.meaning = rule.meaning;
    QStringList formula;
    if (const QString f = formOf(rule); !f.isEmpty())
        formula << f;
    const qsizetype n = m_values.size();
    switch (m.aggregation) {
    case MetricAggregation::Last:
        m.value = m_chosen.read.value;
        break;
    case MetricAggregation::Mean:
        m.value = m_sum / double(n);
        formula << QStringLiteral("mean of %1 values").arg(n);
        break;
    case MetricAggregation::Max:
        m.value = m_chosen.read.value;
        formula << QStringLiteral("maximum of %1 values").arg(n);
        break;
    case MetricAggregation::Min:
        m.value = m_chosen.read.value;
        formula << QStringLiteral("minimum of %1 values").arg(n);
        break;
    case MetricAggregation::PerRankSum:
        m.ranks = int(m_perRank.size());
        m.value = 0;
        for (const auto &[s, k] : m_perRank)
            m.value += s / k;
        formula << QStringLiteral("sum over %1 ranks of each rank's mean (%2 values)").arg(m_perRank.size()).arg(n);
        break;
    }
    m.formula = formula.join(QStringLiteral("; "));
    m.line = m_chosenLine;
    m.sourceLine = QString::fromUtf8(m_chosenText.data(), qsizetype(m_chosenText.size()));
    return m;
}

}   // namespace scalelab
