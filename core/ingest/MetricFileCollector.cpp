// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/MetricFileCollector.h"

#include "core/base/InputLimits.h"
#include "core/ingest/MetricFileNames.h"

#include <QtNumeric>

#include <cmath>

namespace scalelab {

const FileMetric *MetricFileResult::find(const QString &name) const
{
    for (const FileMetric &m : metrics)
        if (m.name == name)
            return &m;
    return nullptr;
}

void MetricFileResult::append(const MetricFileResult &other)
{
    metrics += other.metrics;
    parameters += other.parameters;
    diagnostics += other.diagnostics;
    files += other.files;
}

MetricFileCollector::MetricFileCollector(const QString &format, const QString &source)
    : m_format(format)
    , m_source(source)
{}

void MetricFileCollector::setFile(const QString &file)
{
    m_file = file;
    if (!m_result.files.contains(file))
        m_result.files << file;
}

void MetricFileCollector::add(const QString &key, double step, double value, qint64 line)
{
    put(key, step, value, line, false);
}

void MetricFileCollector::addTotal(const QString &key, double value, qint64 line)
{
    put(key, qQNaN(), value, line, true);
}

void MetricFileCollector::put(const QString &key, double step, double value, qint64 line, bool total)
{
    const MetricFileName n = MetricFileNames::lookup(key);
    if (n.stepKey || n.name.isEmpty())
        return;
    if (!std::isfinite(value)) {
        if (!m_nonFinite.contains(key)) {
            m_nonFinite.insert(key, true);
            note(Severity::Info, QStringLiteral("metric-not-finite"), key, int(line),
                 QStringLiteral("%1 is %2 here (first such value; such values are not stored)")
                     .arg(key, std::isnan(value) ? QStringLiteral("NaN") : QStringLiteral("infinite")));
        }
        return;
    }
    auto it = m_index.find(n.name);
    if (it == m_index.end()) {
        FileMetric m;
        m.name = n.name;
        m.key = key;
        m.unit = n.unit;
        m.source = m_source;
        m.rule = m_format + u'.' + MetricFileNames::normalised(key);
        it = m_index.insert(n.name, int(m_result.metrics.size()));
        m_result.metrics << m;
    }
    FileMetric &m = m_result.metrics[*it];
    // The last value written wins, whichever of the name's keys wrote it.
    m.value = value;
    m.key = key;
    m.rule = m_format + u'.' + MetricFileNames::normalised(key);
    m.file = m_file;
    m.line = line;
    ++m.count;
    if (n.series && !total && m.values.size() < kMaxSeriesValues) {
        m.steps << step;
        m.values << value;
    }
}

void MetricFileCollector::parameter(const QString &key, const QString &value, int line)
{
    m_result.parameters << RunParameter{key, value, m_file, line};
}

void MetricFileCollector::note(Severity severity, const QString &rule, const QString &field, int line,
                               const QString &message)
{
    const int n = ++m_notes[m_file];
    if (n > InputLimits::kMaxDiagnosticsPerFile) {
        if (n == InputLimits::kMaxDiagnosticsPerFile + 1)
            m_result.diagnostics << finding(Severity::Info, QStringLiteral("too-many-findings"), QString(), 0,
                                            QStringLiteral("%1: more findings than %2; the rest are not listed")
                                                .arg(m_file)
                                                .arg(InputLimits::kMaxDiagnosticsPerFile));
        return;
    }
    // Messages of InputLimits and JsonSupport name the file already.
    const bool named = message.startsWith(m_file + u':');
    m_result.diagnostics << finding(severity, rule, field, line,
                                    named ? message : QStringLiteral("%1: %2").arg(m_file, message));
}

MetricFileResult MetricFileCollector::take()
{
    return std::move(m_result);
}

}   // namespace scalelab
