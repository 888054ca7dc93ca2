// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/LogRuleSet.h"

#include "core/base/InputLimits.h"
#include "core/ingest/LogMetricExtractor.h"
#include "core/ingest/RegexLiterals.h"
#include "core/ingest/RunEndReader.h"

#include <QSet>

#include <algorithm>

namespace scalelab {

namespace {

void addInvalidPattern(Diagnostics &diagnostics, const QString &where, const QString &field, const QString &message)
{
    diagnostics.append(
        {Severity::Error, QStringLiteral("metric-pattern-invalid"), where + u'.' + field, 0, 0, message, {}});
}

Diagnostic tooManyPatterns(const QString &where, qsizetype left)
{
    return {Severity::Error,
            QStringLiteral("metric-pattern-invalid"),
            where,
            0,
            0,
            QStringLiteral("%1 and after: ScaleLab reads at most %2 user patterns; the other %3 are left out: keep "
                           "the metrics you need")
                .arg(where)
                .arg(LogMetricExtractor::kMaxUserPatterns)
                .arg(left),
            {}};
}

}   // namespace

LogRuleSet::LogRuleSet(const QList<MetricPattern> &userPatterns, bool includeBuiltins)
{
    // A user pattern named like a built-in metric replaces the built-in rules of that metric.
    QSet<QString> userNames;
    for (const MetricPattern &p : userPatterns)
        userNames.insert(p.name.trimmed());
    QList<MetricPattern> all;
    if (includeBuiltins)
        for (const MetricPattern &p : LogMetricExtractor::builtinPatterns())
            if (!userNames.contains(p.name))
                all.append(p);
    const qsizetype firstUser = all.size();
    all.append(userPatterns);
    for (qsizetype i = 0; i < all.size(); ++i) {
        MetricPattern p = all[i];
        const bool user = i >= firstUser;
        const QString where = user ? QStringLiteral("patterns[%1]").arg(i - firstUser) : QStringLiteral("builtin");
        if (user && p.rule.isEmpty())
            p.rule = where;
        if (p.name.trimmed().isEmpty()) {
            addInvalidPattern(m_diagnostics, where, QStringLiteral("name"),
                              QStringLiteral("%1: the metric pattern has no name; give it one").arg(where));
            continue;
        }
        if (user && i - firstUser >= LogMetricExtractor::kMaxUserPatterns) {
            m_diagnostics.append(tooManyPatterns(where, all.size() - i));
            break;
        }
        if (std::optional<CompiledRule> c = compile(p, user, where))
            addRule(std::move(*c), user, where);
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

// The pattern's regex compiled (a user's with RE2, in linear time, or not at
// all), with enough capture groups; nullopt (noted) otherwise.
std::optional<CompiledRule> LogRuleSet::compile(const MetricPattern &p, bool user, const QString &where)
{
    CompiledRule c;
    int captures = 0;
    if (user) {
        auto compiled = UserRegex::compile(p.regex);
        if (!compiled) {
            addInvalidPattern(m_diagnostics, where, QStringLiteral("regex"),
                              QStringLiteral("metric '%1': %2").arg(InputLimits::quoted(p.name), compiled.errorText()));
            return std::nullopt;
        }
        captures = compiled->captureCount();
        c.user = std::move(*compiled);
    } else {
        c.re = QRegularExpression(p.regex);
        if (!c.re.isValid()) {
            addInvalidPattern(m_diagnostics, where, QStringLiteral("regex"),
                              QStringLiteral("metric '%1': the regex is invalid at offset %2: %3; fix the pattern")
                                  .arg(p.name)
                                  .arg(c.re.patternErrorOffset())
                                  .arg(c.re.errorString()));
            return std::nullopt;
        }
        captures = c.re.captureCount();
        c.re.optimize();
    }
    const int needed = std::max({p.valueGroup + (p.ratio ? 1 : 0), p.stepGroup, p.rankGroup});
    if (!p.ncclTable && (p.valueGroup < 1 || captures < needed)) {
        addInvalidPattern(m_diagnostics, where, QStringLiteral("regex"),
                          QStringLiteral("metric '%1': the regex needs %2 capture group(s) around the number, it has "
                                         "%3; put ( ) around the value")
                              .arg(p.name)
                              .arg(needed)
                              .arg(captures));
        return std::nullopt;
    }
    c.pattern = p;
    return c;
}

int LogRuleSet::textId(const QByteArray &bytes, bool raw)
{
    for (int i = 0; i < int(m_texts.size()); ++i)
        if (m_texts[i].raw == raw && m_texts[i].bytes == bytes)
            return i;
    m_texts.append({bytes, raw});
    return int(m_texts.size()) - 1;
}

// The texts a line must hold before the rule runs, the regex-free form when
// the regex has that shape, its metric, and its anchor's group.
void LogRuleSet::addRule(CompiledRule c, bool user, const QString &where)
{
    const MetricPattern &p = c.pattern;
    c.numberBefore = p.numberBefore.toUtf8();
    c.stepLiteral = p.stepLiteral.toUtf8();
    for (const QString &x : p.excludeIf)
        c.excludeTexts.append(textId(x.toUtf8(), true));
    c.literal = (!p.numberBefore.isEmpty() ? p.numberBefore
                                           : (p.literal.isEmpty() ? RegexLiterals::longest(p.regex) : p.literal))
                    .toUtf8();
    const QByteArray anchor = p.anchor.isEmpty() ? c.literal : p.anchor.toUtf8();
    QByteArray alsoRequired;
    // A number as printed, or in milliseconds or percent (divided as the regex's value would be).
    const bool scaled = p.form == ValueForm::Milliseconds || p.form == ValueForm::Percent;
    if (!p.ratio && p.valueGroup == 1 && p.stepGroup == 0 && p.rankGroup == 0 && (p.form == ValueForm::Number || scaled)
        && p.numberBefore.isEmpty()) {
        c.fast = LiteralNumberMatcher::fromRegex(p.regex);
        // "Train Epoch: 1 [...]\tLoss: 0.5": the frequent line gets the regex-free form too.
        if (!c.fast && !user && p.regex.startsWith(QLatin1String("Train Epoch: [0-9]+ .*\\sLoss: "))) {
            c.fast = LiteralNumberMatcher::fromRegex(QStringLiteral("\tLoss: ") + p.regex.mid(p.regex.indexOf(u'(')));
            alsoRequired = "Train Epoch: ";
        }
    }
    c.metric = int(m_metricNames.indexOf(p.name));
    if (c.metric < 0) {
        c.metric = int(m_metricNames.size());
        m_metricNames.append(p.name);
    }
    c.literalIsAnchor = c.literal == anchor;
    // A literal holding the anchor is looked for only where the anchor is.
    if (!c.literal.isEmpty() && !c.literalIsAnchor && !anchor.isEmpty())
        c.anchorInLiteral = int(c.literal.indexOf(anchor));
    if (!c.literal.isEmpty() && !c.literalIsAnchor && c.anchorInLiteral < 0)
        c.neededTexts.append(textId(c.literal, false));
    if (!alsoRequired.isEmpty())
        c.neededTexts.append(textId(alsoRequired, false));
    if (!user && !c.fast && p.numberBefore.isEmpty() && !p.tqdmCounter)
        for (const QString &t : RegexLiterals::all(p.regex).mid(1))
            c.neededTexts.append(textId(t.toUtf8(), false));
    const int index = int(m_rules.size());
    m_rules.append(c);
    if (p.ncclTable)
        return;   // read from the whole log, not per line
    auto it = m_groupOf.find(anchor);
    if (it == m_groupOf.end()) {
        it = m_groupOf.insert(anchor, int(m_groups.size()));
        m_groups.append({anchor, {}});
    }
    m_groups[*it].rules.append(index);
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

}   // namespace scalelab
