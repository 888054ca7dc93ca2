// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/LogLineText.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace scalelab::logtext {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

std::optional<double> parse(std::string_view s)
{
    if (s.empty())
        return std::nullopt;
    if (s.front() == '+')
        s.remove_prefix(1);
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

// A run of digits as a number: exact by hand up to 15 digits (as from_chars
// would give it), from_chars beyond.
std::optional<double> digitsValue(std::string_view s)
{
    if (s.empty() || s.size() > 15)
        return parse(s);
    uint64_t v = 0;
    for (char c : s)
        v = v * 10 + uint64_t(c - '0');
    return double(v);
}

int digitsAt(std::string_view s, size_t &i)
{
    int v = 0;
    const size_t from = i;
    while (i < s.size() && isDigit(s[i]) && i - from < 9)
        v = v * 10 + (s[i++] - '0');
    return i > from ? v : -1;
}

}   // namespace

int lineRank(std::string_view line)
{
    size_t i = 0;
    if (!line.empty() && line[0] == '[') {
        i = 1;
        if (line.substr(1, 7) == "default") {
            i = 8;
            const int r = digitsAt(line, i);
            return (r >= 0 && line.substr(i, 2) == "]:") ? r : -1;
        }
        if (digitsAt(line, i) >= 0 && i < line.size() && line[i] == ',') {
            ++i;
            const int r = digitsAt(line, i);
            return (r >= 0 && line.substr(i, 2) == "]<") ? r : -1;
        }
    } else {
        // srun --label: right-aligned task number, ": ", then the task's text.
        while (i < line.size() && i < 8 && line[i] == ' ')
            ++i;
        const size_t d = i;
        const int r = digitsAt(line, i);
        if (r >= 0 && i - d <= 6 && i < line.size() && line[i] == ':' && (i + 1 == line.size() || line[i + 1] == ' '))
            return r;
    }
    // DeepSpeed's log_dist: "[2022-03-11 ...] [INFO] [logging.py:69:log_dist] [Rank 0] ..."
    const size_t at = line.find("[Rank ");
    if (at != std::string_view::npos) {
        size_t j = at + 6;
        const int r = digitsAt(line, j);
        if (r >= 0 && j < line.size() && line[j] == ']')
            return r;
    }
    return -1;
}

std::string_view withoutAnsi(std::string_view line, std::string &buf)
{
    if (line.find('\x1b') == std::string_view::npos)
        return line;
    buf.clear();
    buf.reserve(line.size());
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] != '\x1b') {
            buf += line[i];
            continue;
        }
        if (i + 1 < line.size() && line[i + 1] == '[') {   // CSI: ESC [ params final
            i += 2;
            while (i < line.size() && !(line[i] >= '@' && line[i] <= '~'))
                ++i;
        } else if (i + 1 < line.size()) {
            ++i;   // two-character escape
        }
    }
    return buf;
}

std::optional<double> numberBefore(std::string_view line, size_t at)
{
    size_t e = at;
    while (e > 0 && line[e - 1] == ' ')
        --e;
    size_t b = e;
    const size_t limit = e >= 64 ? e - 64 : 0;
    while (b > limit && (isDigit(line[b - 1]) || line[b - 1] == '.'))
        --b;
    if (b == e)
        return std::nullopt;
    if (b > 0 && (isDigit(line[b - 1]) || line[b - 1] == '.'))
        return std::nullopt;   // more than 64 digits: not a metric
    if (b > 0 && (line[b - 1] == '-' || line[b - 1] == '+') && (b == 1 || !isDigit(line[b - 2])))
        --b;
    std::string_view num = line.substr(b, e - b);
    while (!num.empty() && num.back() == '.')
        num.remove_suffix(1);
    return parse(num);
}

std::optional<double> numberAfter(std::string_view line, size_t at)
{
    size_t i = at;
    while (i < line.size() && (line[i] == ' ' || line[i] == '=' || line[i] == ':' || line[i] == '\t'))
        ++i;
    const size_t b = i;
    if (i < line.size() && (line[i] == '-' || line[i] == '+'))
        ++i;
    while (i < line.size() && i - b < 64 && (isDigit(line[i]) || line[i] == '.'))
        ++i;
    if (i < line.size() && (line[i] == 'e' || line[i] == 'E') && i + 1 < line.size()
        && (isDigit(line[i + 1]) || line[i + 1] == '-' || line[i + 1] == '+')) {
        i += 2;
        while (i < line.size() && i - b < 80 && isDigit(line[i]))
            ++i;
    }
    std::string_view num = line.substr(b, i - b);
    while (!num.empty() && num.back() == '.')
        num.remove_suffix(1);
    return parse(num);
}

std::optional<std::pair<double, double>> tqdmCounter(std::string_view line, size_t at)
{
    // Walks back over "n/total [elapsed<remaining, rate"; each part must be there.
    auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    size_t i = at;
    auto back = [&](auto allowed) {
        const size_t end = i;
        while (i > 0 && allowed(line[i - 1]) && end - i < 32)
            --i;
        return end - i;
    };
    auto expect = [&](char c) {
        if (i == 0 || line[i - 1] != c)
            return false;
        --i;
        return true;
    };
    if (!back([&](char c) { return isDigit(c) || c == '.' || c == '?'; }))
        return std::nullopt;
    back([](char c) { return c == ' '; });
    if (!expect(',') || !back([&](char c) { return isDigit(c) || c == ':' || c == '?'; }) || !expect('<')
        || !back([&](char c) { return isDigit(c) || c == ':'; }) || !expect('[') || !expect(' '))
        return std::nullopt;
    const size_t totalEnd = i;
    if (!back(isDigit))
        return std::nullopt;
    const size_t totalStart = i;
    if (!expect('/'))
        return std::nullopt;
    const size_t doneEnd = i;
    if (!back(isDigit))
        return std::nullopt;
    const size_t doneStart = i;
    back([](char c) { return c == ' '; });
    if (!expect('|'))
        return std::nullopt;
    const auto done = digitsValue(line.substr(doneStart, doneEnd - doneStart));
    const auto total = digitsValue(line.substr(totalStart, totalEnd - totalStart));
    if (!done || !total)
        return std::nullopt;
    return std::pair(*done, *total);
}

#ifdef __SSE2__
namespace {

// Bit j set where p[j] is '\n' or '\r'.
unsigned breaks16(const char *p)
{
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
    return unsigned(_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\r')))));
}

}   // namespace
#endif

const char *lineStart(const char *begin, const char *at)
{
#ifdef __SSE2__
    for (; at - begin >= 16; at -= 16)
        if (const unsigned m = breaks16(at - 16))
            return at - 16 + (31 - __builtin_clz(m)) + 1;
#endif
    while (at > begin && at[-1] != '\n' && at[-1] != '\r')
        --at;
    return at;
}

const char *lineEnd(const char *at, const char *end)
{
#ifdef __SSE2__
    for (; end - at >= 16; at += 16)
        if (const unsigned m = breaks16(at))
            return at + __builtin_ctz(m);
#endif
    while (at < end && *at != '\n' && *at != '\r')
        ++at;
    return at;
}

qint64 countNewlines(const char *from, const char *to)
{
    qint64 n = 0;
#ifdef __SSE2__
    const __m128i nl = _mm_set1_epi8('\n');
    while (to - from >= 16) {
        // Per-byte counters (each compare adds 1 where a byte is '\n'), summed before they can wrap.
        __m128i counts = _mm_setzero_si128();
        for (int k = 0; k < 255 && to - from >= 16; ++k, from += 16)
            counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(from)), nl));
        const __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());
        n += _mm_cvtsi128_si64(sums) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
    }
#endif
    return n + std::count(from, to, '\n');
}

bool contains(std::string_view line, std::string_view text)
{
    const size_t k = text.size();
    if (k <= 1 || line.size() < k)
        return k == 0 || line.find(text) != std::string_view::npos;
    size_t i = 0;
#ifdef __SSE2__
    const __m128i first = _mm_set1_epi8(text.front());
    const __m128i last = _mm_set1_epi8(text.back());
    for (; i + k - 1 + 16 <= line.size(); i += 16) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(line.data() + i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(line.data() + i + k - 1));
        for (unsigned m = unsigned(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, last))));
             m; m &= m - 1)
            if (std::memcmp(line.data() + i + unsigned(__builtin_ctz(m)) + 1, text.data() + 1, k - 2) == 0)
                return true;
    }
#endif
    return line.substr(i).find(text) != std::string_view::npos;
}

std::optional<double> duration(std::string_view text)
{
    // H:MM:SS or H:MM:SS.ff; more than one day prints "1 day, H:MM:SS.ff".
    double days = 0;
    const size_t comma = text.find(", ");
    if (comma != std::string_view::npos) {
        size_t i = 0;
        const int d = digitsAt(text, i);
        if (d < 0)
            return std::nullopt;
        days = d;
        text.remove_prefix(comma + 2);
    }
    size_t i = 0;
    const int h = digitsAt(text, i);
    if (h < 0 || i >= text.size() || text[i] != ':')
        return std::nullopt;
    ++i;
    const int m = digitsAt(text, i);
    if (m < 0 || m > 59 || i >= text.size() || text[i] != ':')
        return std::nullopt;
    ++i;
    const auto s = parse(text.substr(i));
    if (!s || *s < 0 || *s >= 60)
        return std::nullopt;
    return days * 86400.0 + h * 3600.0 + m * 60.0 + *s;
}

}   // namespace scalelab::logtext
