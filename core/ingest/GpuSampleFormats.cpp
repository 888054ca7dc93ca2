#include "core/ingest/GpuSampleFormats.h"

#include <charconv>

namespace scalelab::gpuformat {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

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

} // namespace

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
    if (i == 0 || i >= line.size() || line[i] != ':' || (i + 1 < line.size() && line[i + 1] != ' ' && line[i + 1] != '\t'))
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
        const std::string_view f = trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos
                                                                                           : comma - start));
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
    if (line.substr(0, 5) == "# gpu" && line.find("pwr") != std::string_view::npos)
        return QStringLiteral("nvidia-smi dmon");
    if (line.find("AMD System Management Interface") != std::string_view::npos || line.substr(0, 8) == "amd-smi ")
        return QStringLiteral("amd-smi");
    if (line.find("xpu-smi") != std::string_view::npos || line.find("XPU Manager") != std::string_view::npos)
        return QStringLiteral("xpu-smi");
    if (line.find("dcgmi") != std::string_view::npos || line.substr(0, 8) == "#Entity ")
        return QStringLiteral("dcgmi dmon");
    return {};
}

} // namespace scalelab::gpuformat
