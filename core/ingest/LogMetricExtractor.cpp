// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/LogMetricExtractor.h"

#include "core/base/InputLimits.h"
#include "core/ingest/LogRuleSet.h"
#include "core/ingest/LogScan.h"
#include "core/ingest/ReaderRules.h"

#include <QFile>

#include <cstring>

namespace scalelab {

const LogMetric *LogMetricResult::find(const QString &name) const
{
    for (const LogMetric &m : metrics)
        if (m.name == name)
            return &m;
    return nullptr;
}

std::optional<double> LogMetricResult::value(const QString &name) const
{
    const LogMetric *m = find(name);
    return m ? std::optional<double>(m->value) : std::nullopt;
}

LogMetricExtractor::LogMetricExtractor(const QList<MetricPattern> &userPatterns, bool includeBuiltins, bool rank0Only)
    : m_rules(std::make_shared<const LogRuleSet>(userPatterns, includeBuiltins))
    , m_rank0Only(rank0Only)
{}

QList<MetricPattern> LogMetricExtractor::builtinPatterns()
{
    // Order matters where rules of one metric can match the same line: the first wins.
    return readers::trainingStackReaders() + readers::frameworkReaders();
}

QString LogMetricExtractor::aggregationId(MetricAggregation a)
{
    switch (a) {
    case MetricAggregation::Last:
        return QStringLiteral("last");
    case MetricAggregation::Mean:
        return QStringLiteral("mean");
    case MetricAggregation::Max:
        return QStringLiteral("max");
    case MetricAggregation::Min:
        return QStringLiteral("min");
    case MetricAggregation::PerRankSum:
        return QStringLiteral("per-rank-sum");
    }
    return {};
}

std::optional<MetricAggregation> LogMetricExtractor::aggregationFromId(const QString &id)
{
    for (MetricAggregation a : {MetricAggregation::Last, MetricAggregation::Mean, MetricAggregation::Max,
                                MetricAggregation::Min, MetricAggregation::PerRankSum})
        if (aggregationId(a) == id.trimmed().toLower())
            return a;
    return std::nullopt;
}

const Diagnostics &LogMetricExtractor::patternDiagnostics() const
{
    return m_rules->diagnostics();
}

int LogMetricExtractor::patternCount() const
{
    return int(m_rules->rules().size());
}

LogMetricResult LogMetricExtractor::extract(QByteArrayView log) const
{
    LogScan scan(*m_rules, m_rank0Only);
    scan.feed(std::string_view(log.data(), size_t(log.size())), true);
    return scan.finish();
}

LogMetricResult LogMetricExtractor::extractFile(const QString &path, qsizetype pieceBytes) const
{
    auto unreadable = [&](const QString &message) {
        LogMetricResult r;
        r.file = path;
        r.diagnostics.append({Severity::Error, QStringLiteral("log-unreadable"), {}, 0, 0, message, {}});
        return r;
    };
    auto opened = InputLimits::openFile(path, QStringLiteral("job output"));
    if (!opened)
        return unreadable(opened.errorText());
    QFile &f = **opened;
    LogScan scan(*m_rules, m_rank0Only);
    // One buffer, reused: each piece ends after its last line break and the
    // rest of the buffer (a line cut at its end) starts the next fill.
    QByteArray buf(std::max<qsizetype>(pieceBytes, 64), Qt::Uninitialized);
    qsizetype held = 0;
    for (bool first = true;; first = false) {
        bool eof = false;
        while (held < buf.size() && !eof) {
            const qint64 n = f.read(buf.data() + held, buf.size() - held);
            if (n < 0)
                return unreadable(QStringLiteral("%1: cannot read this job output: %2").arg(path, f.errorString()));
            eof = n == 0;
            held += n;
        }
        const std::string_view text(buf.constData(), size_t(held));
        if (first) {
            if (auto bad = InputLimits::encodingProblem(QByteArrayView(buf.constData(), held), path,
                                                        QStringLiteral("job output"), InputLimits::Content::Log))
                return unreadable(bad->message);
            scan.prepare(text);
        }
        if (eof) {
            scan.feed(text, true);
            break;
        }
        const auto *lastBreak = static_cast<const char *>(memrchr(buf.constData(), '\n', size_t(held)));
        if (!lastBreak) {   // a line longer than the buffer
            buf.resize(buf.size() * 2);
            continue;
        }
        const qsizetype piece = lastBreak - buf.constData() + 1;
        scan.feed(text.substr(0, size_t(piece)), false);
        std::memmove(buf.data(), buf.constData() + piece, size_t(held - piece));
        held -= piece;
    }
    LogMetricResult r = scan.finish();
    r.file = path;
    for (LogMetric &m : r.metrics)
        m.file = path;
    return r;
}

}   // namespace scalelab
