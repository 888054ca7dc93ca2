// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/LogMetricExtractor.h"

#include "core/base/InputLimits.h"
#include "core/ingest/LogLineText.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace scalelab {

namespace {


struct MatchValue {
    double value;
    double step;
    int rank;
};

// The value of one match; `group(i)` gives capture group i as UTF-8 bytes.
// `step` is the line's step when the pattern has no step group.
template <typename Group>
std::optional<MatchValue> valueOf(const MetricPattern &p, const Group &group, double step)
{
    bool ok = false;
    double v = 0;
    if (p.form == ValueForm::Duration) {
        const QByteArray t = group(p.valueGroup);
        const auto d = logtext::duration(std::string_view(t.constData(), size_t(t.size())));
        ok = d.has_value();
        v = d.value_or(0);
    } else {
        v = group(p.valueGroup).toDouble(&ok);
    }
    if (!ok || !std::isfinite(v))
        return std::nullopt;
    if (p.ratio) {
        bool ok2 = false;
        const double d = group(p.valueGroup + 1).toDouble(&ok2);
        if (!ok2 || d == 0)
            return std::nullopt;
        v /= d;
    }
    if (p.form == ValueForm::Percent)
        v /= 100.0;
    else if (p.form == ValueForm::Milliseconds)
        v /= 1000.0;
    else if (p.form == ValueForm::Reciprocal)
        v = v == 0 ? LogMetricExtractor::kNaN : 1.0 / v;
    if (std::isnan(v))
        return std::nullopt;
    if (p.stepGroup) {
        step = group(p.stepGroup).toDouble(&ok);
        if (!ok)
            step = LogMetricExtractor::kNaN;
    }
    int rank = -1;
    if (p.rankGroup) {
        rank = group(p.rankGroup).toInt(&ok);
        if (!ok)
            rank = -1;
    }
    return MatchValue{v, step, rank};
}

}   // namespace

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

QString LogMetricExtractor::literalOf(const QString &regex)
{
    return literalsOf(regex).value(0);
}

QStringList LogMetricExtractor::literalsOf(const QString &regex)
{
    QString best, cur;
    QStringList runs;
    int depth = 0;
    auto endRun = [&] {
        if (cur.size() > best.size())
            best = cur;
        if (cur.size() >= 3)
            runs.append(cur);
        cur.clear();
    };
    auto popOptional = [&] {   // the char before ?, *, {0,..} may be absent
        if (!cur.isEmpty())
            cur.chop(1);
        endRun();
    };
    const qsizetype n = regex.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = regex[i];
        if (c == u'\\') {
            if (i + 1 >= n)
                break;
            const QChar e = regex[++i];
            if (e.isLetterOrNumber()) {   // \d, \s, \b, \1, \n ...: not a fixed char here
                endRun();
                continue;
            }
            if (depth == 0)
                cur += e;
            else
                endRun();
            continue;
        }
        if (c == u'[') {
            endRun();
            qsizetype j = i + 1;
            if (j < n && regex[j] == u'^')
                ++j;
            if (j < n && regex[j] == u']')
                ++j;
            for (; j < n && regex[j] != u']'; ++j)
                if (regex[j] == u'\\')
                    ++j;
            i = j;
            continue;
        }
        if (c == u'(') {
            endRun();
            if (i + 1 < n && regex[i + 1] == u'?') {
                // Inline flags "(?i)" or "(?i:" make the text case-insensitive.
                qsizetype j = i + 2;
                while (j < n && regex[j].isLetter()) {
                    if (regex[j] == u'i')
                        return {};
                    ++j;
                }
            }
            ++depth;
            continue;
        }
        if (c == u')') {
            endRun();
            depth = std::max(0, depth - 1);
            continue;
        }
        if (c == u'|') {
            if (depth == 0)
                return {};   // either side may match: no text is certain
            endRun();
            continue;
        }
        if (c == u'.' || c == u'^' || c == u'$') {
            endRun();
            continue;
        }
        if (c == u'?' || c == u'*') {
            popOptional();
            continue;
        }
        if (c == u'{') {
            popOptional();
            while (i < n && regex[i] != u'}')
                ++i;
            continue;
        }
        if (c == u'+') {
            endRun();
            continue;
        }
        if (depth == 0)
            cur += c;
        else
            endRun();
    }
    endRun();
    if (best.isEmpty())
        return {};
    runs.removeOne(best);
    runs.prepend(best);
    return runs;
}

LogMetricExtractor::LogMetricExtractor(const QList<MetricPattern> &userPatterns, bool includeBuiltins, bool rank0Only)
    : m_rank0Only(rank0Only)
{
    // A user pattern named like a built-in metric replaces the built-in rules of that metric.
    QSet<QString> userNames;
    for (const MetricPattern &p : userPatterns)
        userNames.insert(p.name.trimmed());
    QList<MetricPattern> all;
    if (includeBuiltins)
        for (const MetricPattern &p : builtinPatterns())
            if (!userNames.contains(p.name))
                all.append(p);
    const qsizetype firstUser = all.size();
    all.append(userPatterns);
    QHash<QByteArray, int> groupOf;
    for (qsizetype i = 0; i < all.size(); ++i) {
        MetricPattern p = all[i];
        const bool user = i >= firstUser;
        const QString where = user ? QStringLiteral("patterns[%1]").arg(i - firstUser) : QStringLiteral("builtin");
        if (user && p.rule.isEmpty())
            p.rule = where;
        auto fail = [&](const QString &field, const QString &msg) {
            m_diagnostics.append(
                {Severity::Error, QStringLiteral("metric-pattern-invalid"), where + u'.' + field, 0, 0, msg, {}});
        };
        if (p.name.trimmed().isEmpty()) {
            fail(QStringLiteral("name"), QStringLiteral("%1: the metric pattern has no name; give it one").arg(where));
            continue;
        }
        if (user && i - firstUser >= kMaxUserPatterns) {
            m_diagnostics.append({Severity::Error,
                                  QStringLiteral("metric-pattern-invalid"),
                                  where,
                                  0,
                                  0,
                                  QStringLiteral("%1 and after: ScaleLab reads at most %2 user patterns; the other %3 "
                                                 "are left out: keep the metrics you need")
                                      .arg(where)
                                      .arg(kMaxUserPatterns)
                                      .arg(all.size() - i),
                                  {}});
            break;
        }
        Compiled c;
        int captures = 0;
        if (user) {
            // A researcher's regex runs in linear time (RE2) or not at all.
            auto compiled = UserRegex::compile(p.regex);
            if (!compiled) {
                fail(QStringLiteral("regex"),
                     QStringLiteral("metric '%1': %2").arg(InputLimits::quoted(p.name), compiled.errorText()));
                continue;
            }
            captures = compiled->captureCount();
            c.user = std::move(*compiled);
        } else {
            c.re = QRegularExpression(p.regex);
            if (!c.re.isValid()) {
                fail(QStringLiteral("regex"),
                     QStringLiteral("metric '%1': the regex is invalid at offset %2: %3; fix the pattern")
                         .arg(p.name)
                         .arg(c.re.patternErrorOffset())
                         .arg(c.re.errorString()));
                continue;
            }
            captures = c.re.captureCount();
            c.re.optimize();
        }
        const int needed = std::max({p.valueGroup + (p.ratio ? 1 : 0), p.stepGroup, p.rankGroup});
        if (!p.ncclTable && (p.valueGroup < 1 || captures < needed)) {
            fail(QStringLiteral("regex"),
                 QStringLiteral("metric '%1': the regex needs %2 capture group(s) around the number, it has %3; "
                                "put ( ) around the value")
                     .arg(p.name)
                     .arg(needed)
                     .arg(captures));
            continue;
        }
        c.pattern = p;
        c.numberBefore = p.numberBefore.toUtf8();
        c.stepLiteral = p.stepLiteral.toUtf8();
        for (const QString &x : p.excludeIf)
            c.exclude.append(x.toUtf8());
        c.literal =
            (!p.numberBefore.isEmpty() ? p.numberBefore : (p.literal.isEmpty() ? literalOf(p.regex) : p.literal))
                .toUtf8();
        const QByteArray anchor = p.anchor.isEmpty() ? c.literal : p.anchor.toUtf8();
        if (!p.ratio && p.valueGroup == 1 && p.stepGroup == 0 && p.rankGroup == 0 && p.form == ValueForm::Number
            && p.numberBefore.isEmpty()) {
            c.fast = LiteralNumberMatcher::fromRegex(p.regex);
            // "Train Epoch: 1 [...]\tLoss: 0.5": the frequent line gets the regex-free form too.
            if (!c.fast && !user && p.regex.startsWith(QLatin1String("Train Epoch: [0-9]+ .*\\sLoss: "))) {
                c.fast =
                    LiteralNumberMatcher::fromRegex(QStringLiteral("\tLoss: ") + p.regex.mid(p.regex.indexOf(u'(')));
                c.alsoRequired = "Train Epoch: ";
            }
        }
        c.metric = int(m_metricNames.indexOf(p.name));
        if (c.metric < 0) {
            c.metric = int(m_metricNames.size());
            m_metricNames.append(p.name);
        }
        c.literalIsAnchor = c.literal == anchor;
        if (!user && !c.fast && p.numberBefore.isEmpty() && !p.tqdmCounter)
            for (const QString &t : literalsOf(p.regex).mid(1))
                c.required.append(t.toUtf8());
        const int index = int(m_patterns.size());
        m_patterns.append(c);
        if (p.ncclTable)
            continue;   // read from the whole log, not per line
        auto it = groupOf.find(anchor);
        if (it == groupOf.end()) {
            it = groupOf.insert(anchor, int(m_groups.size()));
            m_groups.append({anchor, {}});
        }
        m_groups[*it].patterns.append(index);
        if (user && c.literal.isEmpty())
            m_diagnostics.append({Severity::Info,
                                  QStringLiteral("metric-pattern-slow"),
                                  where + QStringLiteral(".regex"),
                                  0,
                                  0,
                                  QStringLiteral("metric '%1': the regex has no fixed text, so every line is "
                                                 "matched against it; a literal word in it makes ingest faster")
                                      .arg(p.name),
                                  {}});
    }
    QList<QByteArray> anchors;
    for (int g = 0; g < int(m_groups.size()); ++g) {
        if (m_groups[g].anchor.isEmpty())
            m_unanchored.append(g);
        anchors.append(m_groups[g].anchor);   // an empty one is never found
    }
    anchors.append(RunEndReader::anchors());
    m_scan.emplace(anchors);
}

// Values of one rule in one line (ANSI already removed).
int LogMetricExtractor::matchSegment(const Compiled &c, std::string_view line, std::optional<QString> &text,
                                     SegmentMatch *out, int max, bool *tooLong) const
{
    const MetricPattern &p = c.pattern;
    auto stepOf = [&](size_t from) {
        if (c.stepLiteral.isEmpty())
            return kNaN;
        const size_t at = line.find(std::string_view(c.stepLiteral.constData(), size_t(c.stepLiteral.size())));
        Q_UNUSED(from);
        return at == std::string_view::npos
                   ? kNaN
                   : logtext::numberAfter(line, at + size_t(c.stepLiteral.size())).value_or(kNaN);
    };
    int n = 0;
    if (p.tqdmCounter) {
        const std::string_view lit(c.literal.constData(), size_t(c.literal.size()));
        for (size_t at = line.find(lit); at != std::string_view::npos && n < max; at = line.find(lit, at + 1))
            if (const auto counter = logtext::tqdmCounter(line, at))
                out[n++] = {p.tqdmCounter == 1 ? counter->first : counter->second, kNaN, -1};
        return n;
    }
    if (!c.numberBefore.isEmpty()) {
        const std::string_view lit(c.numberBefore.constData(), size_t(c.numberBefore.size()));
        size_t from = 0;
        while (n < max) {
            const size_t at = line.find(lit, from);
            if (at == std::string_view::npos)
                break;
            if (auto v = logtext::numberBefore(line, at)) {
                double value = *v;
                if (p.form == ValueForm::Reciprocal) {
                    if (value == 0) {
                        from = at + lit.size();
                        continue;
                    }
                    value = 1.0 / value;
                } else if (p.form == ValueForm::Percent) {
                    value /= 100.0;
                } else if (p.form == ValueForm::Milliseconds) {
                    value /= 1000.0;
                }
                out[n++] = {value, stepOf(at), -1};
            }
            from = at + lit.size();
        }
        return n;
    }
    if (c.fast) {
        double values[kMaxPerLine];
        const int k = c.fast->match(line, values, std::min(max, kMaxPerLine));
        const double step = k > 0 ? stepOf(0) : kNaN;
        for (int i = 0; i < k; ++i)
            if (std::isfinite(values[i]))   // a thousand digits is no metric
                out[n++] = {values[i], step, -1};
        return n;
    }
    if (qsizetype(line.size()) > kMaxRegexLine) {
        *tooLong = true;
        return 0;
    }
    const double lineStep = stepOf(0);
    if (c.user) {
        c.user->forEachMatch(line, max, [&](const std::string_view *groups, int count) {
            const auto group = [&](int i) {
                return i < count ? QByteArray(groups[i].data(), qsizetype(groups[i].size())) : QByteArray();
            };
            if (const auto m = valueOf(p, group, lineStep))
                out[n++] = {m->value, m->step, m->rank};
            return n < max;
        });
        return n;
    }
    if (!text)   // once per line for all the rules that run a regex on it
        text = QString::fromUtf8(line.data(), qsizetype(line.size()));
    QRegularExpressionMatchIterator it = c.re.globalMatch(*text);
    while (it.hasNext() && n < max) {
        const QRegularExpressionMatch m = it.next();
        const auto group = [&](int i) { return m.capturedView(i).toUtf8(); };
        if (const auto v = valueOf(p, group, lineStep))
            out[n++] = {v->value, v->step, v->rank};
    }
    return n;
}

}   // namespace scalelab
