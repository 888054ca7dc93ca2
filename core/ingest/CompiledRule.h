// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/LiteralNumberMatcher.h"
#include "core/ingest/MetricPattern.h"
#include "core/ingest/UserRegex.h"

#include <QByteArray>
#include <QList>
#include <QRegularExpression>
#include <QString>

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace scalelab {

// One value a rule read from a line.
struct RuleValue {
    double value;
    double step;   // NaN = not printed
    int rank;   // -1 = the line's
};

// The line the rules of a log scan are matched against (ANSI sequences
// removed), with what several rules on it share: its UTF-16 copy, made once
// for all the rules that run a regex on it, and the tqdm counters read at
// each position (the rules for the counter's two numbers read the same text).
struct RuleLine {
    std::string_view text;
    std::optional<QString> utf16;
    std::vector<std::pair<size_t, std::optional<std::pair<double, double>>>> tqdm;

    void reset(std::string_view line)
    {
        text = line;
        utf16.reset();
        tqdm.clear();
    }
};

// A rule as the log scan runs it: its regex compiled, the fixed texts a line
// must hold before it runs, and the regex-free form when the regex has one
// (LiteralNumberMatcher, the number before a text, tqdm's counter).
class CompiledRule {
public:
    MetricPattern pattern;
    QRegularExpression re;   // built-in rules
    std::optional<UserRegex> user;   // a researcher's rules
    QByteArray literal;
    QByteArray numberBefore;
    QByteArray stepLiteral;
    std::optional<LiteralNumberMatcher> fast;   // set when the regex has that simple shape
    bool literalIsAnchor = false;   // the scan found it already: no second search
    int anchorInLiteral = -1;   // where the group's anchor is in the literal (-1: not in it, or the literal is it)
    int metric = 0;   // index into the rule set's metric names
    // Texts the line must not hold (checked on the raw line) and must hold
    // (checked without ANSI sequences: the literal unless it is the anchor,
    // the further text of a regex-free form, a regex's other fixed texts):
    // indexes into LogRuleSet::texts(), whose answers the scan keeps per line.
    QList<int> excludeTexts;
    QList<int> neededTexts;

    // Writes up to `max` values the rule reads in `line` to `out`; returns how
    // many. `tooLong` is set when the line is too long for a regex.
    int match(RuleLine &line, RuleValue *out, int max, bool *tooLong) const;

private:
    double stepOf(std::string_view line) const;
    int matchTqdm(RuleLine &line, RuleValue *out, int max) const;
    int matchFast(std::string_view line, RuleValue *out, int max) const;
    int matchNumberBefore(std::string_view line, RuleValue *out, int max) const;
    int matchRegex(RuleLine &line, RuleValue *out, int max) const;
};

}   // namespace scalelab
