// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

namespace scalelab {

// Counts read from outside (Slurm output, scripts) are multiplied and summed:
// 2000000000 GPUs per node on 4 nodes must not wrap to a negative count (signed
// overflow is undefined behaviour), so such arithmetic saturates at INT_MAX,
// which every check downstream reads as "far too many".
[[nodiscard]] constexpr int saturatingAdd(int a, int b)
{
    const std::int64_t sum = std::int64_t(a) + std::int64_t(b);
    if (sum > std::numeric_limits<int>::max())
        return std::numeric_limits<int>::max();
    if (sum < std::numeric_limits<int>::min())
        return std::numeric_limits<int>::min();
    return int(sum);
}

[[nodiscard]] constexpr int saturatingMul(int a, int b)
{
    const std::int64_t product = std::int64_t(a) * std::int64_t(b);
    if (product > std::numeric_limits<int>::max())
        return std::numeric_limits<int>::max();
    if (product < std::numeric_limits<int>::min())
        return std::numeric_limits<int>::min();
    return int(product);
}

// A double from text ("1e300", "inf", "nan") converted to int: out of range is
// undefined behaviour for a plain cast, so it is rounded and clamped here;
// NaN has no integer value at all.
[[nodiscard]] inline std::optional<int> roundedToInt(double v)
{
    if (std::isnan(v))
        return std::nullopt;
    if (v >= double(std::numeric_limits<int>::max()))
        return std::numeric_limits<int>::max();
    if (v <= double(std::numeric_limits<int>::min()))
        return std::numeric_limits<int>::min();
    return int(std::lround(v));
}

[[nodiscard]] inline std::optional<std::int64_t> roundedToInt64(double v)
{
    if (std::isnan(v))
        return std::nullopt;
    // 2^63 is exactly representable; anything at or above it is out of range.
    if (v >= 9223372036854775808.0)
        return std::numeric_limits<std::int64_t>::max();
    if (v <= -9223372036854775808.0)
        return std::numeric_limits<std::int64_t>::min();
    return std::int64_t(std::llround(v));
}

}   // namespace scalelab
