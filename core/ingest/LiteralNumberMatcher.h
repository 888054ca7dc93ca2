// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>
#include <string_view>

namespace scalelab {

// Matches regexes of the shape  [\b] literal [separator] (number)  on raw
// bytes without a regex engine; the shape of most metric patterns
// ("Test accuracy:\s*([0-9.]+)", "\btrain_time_s[=:\s]\s*(...)"). It finds
// the same values, left to right and non-overlapping, as the regex would.
// Separators: none, \s*, \s+, [=:\s]\s*, [=:]\s*, \s*[=:]\s*, [=:] ? (each
// also possessive: \s*+, ...).
// Numbers: ([0-9]+), (\d+), ([0-9.]+), ([\d.]+), ([0-9.eE+-]+) and the
// decimal form [-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?, also possessive.
class LiteralNumberMatcher {
public:
    static std::optional<LiteralNumberMatcher> fromRegex(const QString &regex);

    // Writes up to `max` values found in `line` to `out`; returns how many.
    int match(std::string_view line, double *out, int max) const;

    const std::string &literal() const { return m_literal; }

private:
    enum class Sep { None, Spaces0, Spaces1, OneOfThenSpaces, OneOfThenSpace, SpacesOneOfSpaces };
    enum class Num { Class, Decimal };

    size_t numberEnd(std::string_view s, size_t from) const;   // npos when no number starts there

    std::string m_literal;
    bool m_wordBoundary = false;
    Sep m_sep = Sep::None;
    std::string_view m_sepChars;   // for the [..] separators (static text)
    Num m_num = Num::Decimal;
    std::string_view m_classChars;   // for Num::Class (static text)
    bool m_classDigits = false;   // class includes 0-9
};

}   // namespace scalelab
