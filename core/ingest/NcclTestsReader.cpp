// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/NcclTestsReader.h"

#include <charconv>
#include <cmath>

namespace scalelab {

namespace {

constexpr int kMaxTokens = 16;

int tokens(std::string_view line, std::string_view *out)
{
    int n = 0;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        const size_t b = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        if (i > b) {
            if (n == kMaxTokens)
                return n + 1;   // too many: not a row
            out[n++] = line.substr(b, i - b);
        }
    }
    return n;
}

bool number(std::string_view s, double &v)
{
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(v);
}

// "  0: " (srun --label) or "[1,0]<stdout>:" before the row.
std::string_view withoutLabel(std::string_view line)
{
    if (!line.empty() && line[0] == '[') {
        const size_t c = line.find("]:");
        const size_t d = line.find(">:");
        const size_t e = std::min(c == std::string_view::npos ? line.size() : c + 2,
                                  d == std::string_view::npos ? line.size() : d + 2);
        return e < line.size() && e < 24 ? line.substr(e) : line;
    }
    const size_t colon = line.find(": ");
    if (colon != std::string_view::npos && colon < 8) {
        bool digits = true;
        for (size_t i = 0; i < colon; ++i)
            digits = digits && (line[i] == ' ' || (line[i] >= '0' && line[i] <= '9'));
        if (digits)
            return line.substr(colon + 2);
    }
    return line;
}

}   // namespace

QList<NcclRow> NcclTestsReader::rows(std::string_view log)
{
    QList<NcclRow> out;
    NcclTestsReader().read(log, 0, out);
    return out;
}

void NcclTestsReader::read(std::string_view log, qint64 base, QList<NcclRow> &out)
{
    size_t pos = 0;
    std::string_view tok[kMaxTokens];
    while (pos < log.size()) {
        if (!m_inTable) {   // outside a table only a line naming busbw matters: jump to the next one
            const size_t next = log.find("busbw", pos);
            if (next == std::string_view::npos)
                break;
            const size_t lineStart = log.rfind('\n', next);
            pos = lineStart == std::string_view::npos || lineStart < pos ? pos : lineStart + 1;
        }
        size_t end = log.find('\n', pos);
        if (end == std::string_view::npos)
            end = log.size();
        const std::string_view raw = log.substr(pos, end - pos);
        const std::string_view line = withoutLabel(raw);
        if (line.find("busbw") != std::string_view::npos && line.find('#') != std::string_view::npos) {
            m_inTable = true;
        } else if (line.find("# Avg bus bandwidth") != std::string_view::npos) {
            m_inTable = false;
        } else if (m_inTable) {
            const int n = tokens(line, tok);
            // 12 columns (no root) or 13 (with root); the type and redop are words.
            double bytes = 0, count = 0, bw = 0;
            const int busIndex = n == 12 ? 6 : (n == 13 ? 7 : -1);
            if (busIndex > 0 && number(tok[0], bytes) && number(tok[1], count) && number(tok[busIndex], bw))
                out.append({base + qint64(pos), base + qint64(end), bytes, bw});
        }
        pos = end + 1;
    }
}

}   // namespace scalelab
