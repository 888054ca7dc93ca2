// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/GpuSampleFormats.h"

#include <chrono>
#include <optional>

#include <charconv>
#include <cmath>
#include <limits>

namespace scalelab::gpuformat {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool isFieldName(std::string_view f)
{
    const size_t b = f.find(" [");
    if (b != std::string_view::npos) {
        if (f.back() != ']')
            return false;
        f = f.substr(0, b);
    }
    f = trim(f);
    if (f.empty() || !(f.front() >= 'a' && f.front() <= 'z'))
        return false;   // "card0,93,..." and "0, 2024/..." are rows
    bool lastDot = true;
    for (char c : f) {
        if (c == '.') {
            if (lastDot)
                return false;
            lastDot = true;
        } else if ((c >= 'a' && c <= 'z') || c == '_' || isDigit(c)) {
            lastDot = false;
        } else {
            return false;
        }
    }
    return !lastDot;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

int twoDigits(const char *p)
{
    if (p[0] < '0' || p[0] > '9' || p[1] < '0' || p[1] > '9')
        return -1;
    return (p[0] - '0') * 10 + (p[1] - '0');
}

// Days since 1970-01-01 of a Gregorian date; nullopt for a day the month
// does not have (2021/02/30).
std::optional<qint64> daysSinceEpoch(int y, int m, int d)
{
    const std::chrono::year_month_day date{std::chrono::year(y), std::chrono::month(unsigned(m)),
                                           std::chrono::day(unsigned(d))};
    if (!date.ok())
        return std::nullopt;
    return std::chrono::sys_days(date).time_since_epoch().count();
}

// "2021/02/03 10:15:23.012" (nvidia-smi), also "2021-02-03T10:15:23" -> epoch seconds.
double timestampImpl(std::string_view s)
{
    if (s.size() < 19)
        return kNaN;
    const char *p = s.data();
    const int y = twoDigits(p) * 100 + twoDigits(p + 2);
    const int mo = twoDigits(p + 5), d = twoDigits(p + 8);
    const int h = twoDigits(p + 11), mi = twoDigits(p + 14), sec = twoDigits(p + 17);
    if (twoDigits(p) < 0 || twoDigits(p + 2) < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || mi < 0 || sec < 0)
        return kNaN;
    const std::optional<qint64> days = daysSinceEpoch(y, mo, d);
    if (!days)
        return kNaN;
    double frac = 0;
    if (s.size() > 20 && s[19] == '.') {
        double scale = 0.1;
        for (size_t i = 20; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, scale /= 10)
            frac += (s[i] - '0') * scale;
    }
    return double(*days) * 86400.0 + h * 3600.0 + mi * 60.0 + sec + frac;
}

}   // namespace

double timestamp(std::string_view s)
{
    return timestampImpl(s);
}

namespace {

// "46.0°C", "35.0c" -> 46.0 / 35.0; "102.0W" -> 102.0; NaN otherwise.
double withSuffix(std::string_view token, std::string_view suffix)
{
    if (token.size() <= suffix.size() || token.substr(token.size() - suffix.size()) != suffix)
        return kNaN;
    token.remove_suffix(suffix.size());
    double v = kNaN;
    const auto r = std::from_chars(token.data(), token.data() + token.size(), v);
    return r.ec == std::errc() && r.ptr == token.data() + token.size() ? v : kNaN;
}

}   // namespace

bool rocmConciseRowUtil(std::string_view line, int &device, double &utilPercent);

bool rocmConciseRow(std::string_view line, RocmConcise &row)
{
    if (line.empty() || !isDigit(line.front()))   // not a row (rocmConciseRowUtil's first test, before the columns)
        return false;
    row.tempC = row.powerW = kNaN;
    bool tempSeen = false;
    for (size_t i = 0; i < line.size();) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        const size_t b = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        const std::string_view t = line.substr(b, i - b);
        if (t.empty() || b == 0)
            continue;
        if (tempSeen) {   // the column right after the temperature is the power ("N/A" stays NaN)
            row.powerW = withSuffix(t, "W");
            break;
        }
        row.tempC = withSuffix(t, "\xc2\xb0"
                                  "C");
        if (std::isnan(row.tempC))
            row.tempC = withSuffix(t, "c");
        tempSeen = !std::isnan(row.tempC);
    }
    return rocmConciseRowUtil(line, row.device, row.utilPercent);
}

bool dmonHeader(std::string_view line, DmonColumns &out)
{
    if (line.empty() || line.front() != '#')
        return false;
    DmonColumns c;   // `out` changes only when this is a header (not the units line under it)
    int n = 0;
    for (size_t i = 1; i < line.size();) {
        while (i < line.size() && line[i] == ' ')
            ++i;
        const size_t b = i;
        while (i < line.size() && line[i] != ' ')
            ++i;
        const std::string_view t = line.substr(b, i - b);
        if (t.empty())
            continue;
        if (t == "gpu")
            c.gpu = n;
        else if (t == "pwr")
            c.power = n;
        else if (t == "gtemp")
            c.temp = n;
        else if (t == "sm")
            c.sm = n;
        else if (t == "fb")
            c.fb = n;
        ++n;
    }
    c.count = n;
    if (c.gpu < 0 || (c.power < 0 && c.sm < 0 && c.temp < 0 && c.fb < 0))
        return false;
    out = c;
    return true;
}

bool rocmConciseRowUtil(std::string_view line, int &device, double &utilPercent)
{
    // "0       8     0x7408,   13395  46.0°C  102.0W  N/A, N/A, 0  800Mhz  1600Mhz  0%  manual  500.0W  0%  0%":
    // the value columns contain spaces, so GPU% (and VRAM%) are taken from the end.
    if (line.empty() || !isDigit(line.front()))
        return false;
    std::string_view first, last;
    int n = 0;
    for (size_t i = 0; i < line.size();) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        const size_t b = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        if (i > b) {
            (n == 0 ? first : last) = line.substr(b, i - b);
            ++n;
        }
    }
    const auto r = std::from_chars(first.data(), first.data() + first.size(), device);
    if (n < 3 || r.ec != std::errc() || r.ptr != first.data() + first.size() || device < 0 || device > 4096)
        return false;
    utilPercent = kNaN;
    if (!last.empty() && last.front() != 'N')
        std::from_chars(last.data(), last.data() + last.size(), utilPercent);
    return true;
}

int takeTaskLabel(std::string_view &line)
{
    if (!line.empty() && line.front() == '[') {
        // "[1,3]<stdout>:"
        size_t i = 1;
        while (i < line.size() && isDigit(line[i]))
            ++i;
        if (i == 1 || i >= line.size() || line[i] != ',')
            return -1;
        const size_t d = ++i;
        int task = 0;
        while (i < line.size() && isDigit(line[i]) && i - d < 7)
            task = task * 10 + (line[i++] - '0');
        if (i == d || line.substr(i, 2) != "]<")
            return -1;
        const size_t colon = line.find(">:", i);
        if (colon == std::string_view::npos || colon > i + 10)
            return -1;
        line = trim(line.substr(colon + 2));
        return task;
    }
    size_t i = 0;
    int task = 0;
    while (i < line.size() && isDigit(line[i]) && i < 7)
        task = task * 10 + (line[i++] - '0');
    if (i == 0 || i >= line.size() || line[i] != ':'
        || (i + 1 < line.size() && line[i + 1] != ' ' && line[i + 1] != '\t'))
        return -1;
    line = trim(line.substr(i + 1));
    return task;
}

bool isNvidiaHeader(std::string_view line)
{
    int fields = 0;
    bool known = false;   // one of nvidia-smi's query fields
    size_t start = 0;
    while (true) {
        const size_t comma = line.find(',', start);
        const std::string_view f =
            trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (!isFieldName(f))
            return false;
        known = known || f.find('.') != std::string_view::npos || f == "index" || f == "timestamp" || f == "uuid"
                || f == "name" || f.substr(0, 6) == "index " || f.substr(0, 10) == "timestamp ";
        ++fields;
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return fields >= 2 && known;
}

bool isRocmConciseHeader(std::string_view line)
{
    return line.substr(0, 3) == "GPU" || line.substr(0, 6) == "Device"
               ? line.find("VRAM%") != std::string_view::npos && line.find("GPU%") != std::string_view::npos
               : false;
}

RocmField rocmPlainLine(std::string_view line, int &device, double &value)
{
    if (line.substr(0, 4) != "GPU[")
        return RocmField::None;
    size_t i = 4;
    device = 0;
    const size_t d = i;
    while (i < line.size() && isDigit(line[i]) && i - d < 5)
        device = device * 10 + (line[i++] - '0');
    if (i == d || i >= line.size() || line[i] != ']')
        return RocmField::None;
    const size_t colon = line.rfind(':');
    if (colon == std::string_view::npos || colon <= i)
        return RocmField::None;
    const std::string_view v = trim(line.substr(colon + 1));
    const auto r = std::from_chars(v.data(), v.data() + v.size(), value);
    if (r.ec != std::errc())
        return RocmField::None;
    const std::string_view what = line.substr(i + 1, colon - i - 1);
    if (what.find("GPU use (%)") != std::string_view::npos)
        return RocmField::Util;
    if (what.find("(VRAM%)") != std::string_view::npos)
        return RocmField::VramPercent;
    if (what.find("VRAM Total Used Memory (B)") != std::string_view::npos)
        return RocmField::VramUsedBytes;
    if (what.find("VRAM Total Memory (B)") != std::string_view::npos)
        return RocmField::VramTotalBytes;
    return RocmField::None;
}

QString foreignTool(std::string_view line)
{
    if (line.find("NVIDIA-SMI") != std::string_view::npos)
        return QStringLiteral("nvidia-smi's default table (not --query-gpu=... --format=csv)");
    if (line.find("AMD System Management Interface") != std::string_view::npos || line.substr(0, 8) == "amd-smi ")
        return QStringLiteral("amd-smi");
    if (line.find("xpu-smi") != std::string_view::npos || line.find("XPU Manager") != std::string_view::npos)
        return QStringLiteral("xpu-smi");
    if (line.find("dcgmi") != std::string_view::npos || line.substr(0, 8) == "#Entity ")
        return QStringLiteral("dcgmi dmon");
    return {};
}

}   // namespace scalelab::gpuformat
