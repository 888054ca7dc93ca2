// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QString>

#include <functional>
#include <memory>
#include <string_view>

namespace re2 {
class RE2;
}

namespace scalelab {

// A researcher's regex (a study's metricPatterns, `metrics --patterns`), run
// by RE2: matching takes time linear in the text whatever the pattern, so
// `(a+)+$` on a long line costs what `a+` does. RE2 has no backreferences and
// no lookarounds (they cannot be run in linear time); such a pattern is
// refused with a message naming it. `(?<name>...)` is read as `(?P<name>...)`.
class UserRegex {
public:
    static constexpr int kMaxPatternChars = 1000;

    static Result<UserRegex> compile(const QString &pattern);

    int captureCount() const;
    // Calls `onMatch(groups)` for each match in `text`, left to right, not
    // overlapping, until it returns false or `maxMatches` were seen; groups[0]
    // is the whole match, an unset group is empty.
    using OnMatch = std::function<bool(const std::string_view *groups, int count)>;
    void forEachMatch(std::string_view text, int maxMatches, const OnMatch &onMatch) const;

private:
    std::shared_ptr<const re2::RE2> m_re;
};

}   // namespace scalelab
