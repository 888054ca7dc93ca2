// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/CompiledRule.h"

#include "core/ingest/LogLineText.h"
#include "core/ingest/LogMetricExtractor.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scalelab {

namespace {

// A step the line does not print; a value that is no number.
constexpr double kUnread = std::numeric_limits<double>::quiet_NaN();

// The value of one regex match; `group(i)` gives capture group i as UTF-8
// bytes. `step` is the line's step when the rule has no step group.
template <typename Group>
std::optional<RuleValue> ruleValue(const MetricPattern &p, const Group &group, double step)
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
        v = v == 0 ? kUnread : 1.0 / v;
    if (std::isnan(v))
        return std::nullopt;
    if (p.stepGroup) {
        step = group(p.stepGroup).toDouble(&ok);
        if (!ok)
            step = kUnread;
    }
    int rank = -1;
    if (p.rankGroup) {
        rank = group(p.rankGroup).toInt(&ok);
        if (!ok)
            rank = -1;
    }
    return RuleValue{v, step, rank};
}

std::string_view bytesOf(const QByteArray &b)
{
    return std::string_view(b.constData(), size_t(b.size()));
}

}   // namespace

int CompiledRule::match(RuleLine &line, RuleValue *out, int max, bool *tooLong) const
{
    if (pattern.tqdmCounter)
        return matchTqdm(line, out, max);
    if (!numberBefore.isEmpty())
        return matchNumberBefore(line.text, out, max);
    if (fast)
        return matchFast(line.text, out, max);
    if (qsizetype(line.text.size()) > LogMetricExtractor::kMaxRegexLine) {
        *tooLong = true;
        return 0;
    }
    return matchRegex(line, out, max);
}

// The step printed after the rule's step text on the line; NaN when none.
double CompiledRule::stepOf(std::string_view line) const
{
    if (stepLiteral.isEmpty())
        return kUnread;
    const size_t at = line.find(bytesOf(stepLiteral));
    return at == std::string_view::npos ? kUnread
                                        : logtext::numberAfter(line, at + size_t(stepLiteral.size())).value_or(kUnread);
}

// tqdm's "n/total" before each rate on the line; the counter at a position is
// read once for the rules of both its numbers.
int CompiledRule::matchTqdm(RuleLine &line, RuleValue *out, int max) const
{
    int n = 0;
    const std::string_view lit = bytesOf(literal);
    for (size_t at = line.text.find(lit); at != std::string_view::npos && n < max; at = line.text.find(lit, at + 1)) {
        auto known = std::find_if(line.tqdm.begin(), line.tqdm.end(), [&](const auto &e) { return e.first == at; });
        if (known == line.tqdm.end()) {
            line.tqdm.emplace_back(at, logtext::tqdmCounter(line.text, at));
            known = line.tqdm.end() - 1;
        }
        if (const auto &counter = known->second)
            out[n++] = {pattern.tqdmCounter == 1 ? counter->first : counter->second, kUnread, -1};
    }
    return n;
}

int CompiledRule::matchFast(std::string_view line, RuleValue *out, int max) const
{
    int n = 0;
    double values[LogMetricExtractor::kMaxPerLine];
    const int k = fast->match(line, values, std::min(max, LogMetricExtractor::kMaxPerLine));
    const double step = k > 0 ? stepOf(line) : kUnread;
    const double scale = pattern.form == ValueForm::Milliseconds ? 1000.0
                         : pattern.form == ValueForm::Percent    ? 100.0
                                                                 : 1.0;
    for (int i = 0; i < k; ++i)
        if (std::isfinite(values[i]))   // a thousand digits is no metric
            out[n++] = {scale == 1.0 ? values[i] : values[i] / scale, step, -1};
    return n;
}

// The numbers printed right before the rule's text ("2.21it/s").
int CompiledRule::matchNumberBefore(std::string_view line, RuleValue *out, int max) const
{
    const ValueForm form = pattern.form;
    const std::string_view lit = bytesOf(numberBefore);
    int n = 0;
    size_t from = 0;
    while (n < max) {
        const size_t at = line.find(lit, from);
        if (at == std::string_view::npos)
            break;
        from = at + lit.size();
        const auto v = logtext::numberBefore(line, at);
        if (!v || (form == ValueForm::Reciprocal && *v == 0))
            continue;
        double value = *v;
        if (form == ValueForm::Reciprocal)
            value = 1.0 / value;
        else if (form == ValueForm::Percent)
            value /= 100.0;
        else if (form == ValueForm::Milliseconds)
            value /= 1000.0;
        out[n++] = {value, stepOf(line), -1};
    }
    return n;
}

// The rule's regex over the line: RE2 for a researcher's, PCRE for a built-in one.
int CompiledRule::matchRegex(RuleLine &line, RuleValue *out, int max) const
{
    const double lineStep = stepOf(line.text);
    int n = 0;
    if (user) {
        user->forEachMatch(line.text, max, [&](const std::string_view *groups, int count) {
            const auto group = [&](int i) {
                return i < count ? QByteArray(groups[i].data(), qsizetype(groups[i].size())) : QByteArray();
            };
            if (const auto m = ruleValue(pattern, group, lineStep))
                out[n++] = *m;
            return n < max;
        });
        return n;
    }
    if (!line.utf16)   // once per line for all the rules that run a regex on it
        line.utf16 = QString::fromUtf8(line.text.data(), qsizetype(line.text.size()));
    // fromUtf8 gives valid UTF-16 (bad bytes become U+FFFD): PCRE need not check it again per rule.
    QRegularExpressionMatchIterator it = re.globalMatch(*line.utf16, 0, QRegularExpression::NormalMatch,
                                                        QRegularExpression::DontCheckSubjectStringMatchOption);
    while (it.hasNext() && n < max) {
        const QRegularExpressionMatch m = it.next();
        const auto group = [&](int i) { return m.capturedView(i).toUtf8(); };
        if (const auto v = ruleValue(pattern, group, lineStep))
            out[n++] = *v;
    }
    return n;
}

}   // namespace scalelab
