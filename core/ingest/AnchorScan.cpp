// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/AnchorScan.h"

namespace scalelab {

namespace {

// How often a byte appears in job output, roughly: spaces, lower-case
// letters and digits are everywhere; capitals and most punctuation are not.
int byteCost(unsigned char c)
{
    if (c == ' ' || c == 'e' || c == 't' || c == 'a' || c == 'o' || c == 'i' || c == 'n' || c == 's' || c == 'r')
        return 9;
    if ((c >= 'a' && c <= 'z') || c == '0' || c == '1' || c == '2')
        return 6;
    if ((c >= '3' && c <= '9') || c == ':' || c == '.' || c == ',' || c == '-' || c == '_' || c == '/')
        return 4;
    if (c >= 'A' && c <= 'Z')
        return 3;
    return 1;   // '|', '=', '(', '@', '%', '#', '{', '"', ...
}

}   // namespace

int AnchorScan::pairCost(const QByteArray &anchor, int at)
{
    const auto a = static_cast<unsigned char>(anchor[at]);
    const auto b = static_cast<unsigned char>(anchor[at + 1]);
    return byteCost(a) * byteCost(b);
}

AnchorScan::AnchorScan(const QList<QByteArray> &anchors)
    : m_anchors(anchors), m_bits(65536 / 64, 0), m_entries(65536)
{
    auto add = [&](unsigned pair, int anchor, int offset) {
        m_bits[pair >> 6] |= uint64_t(1) << (pair & 63);
        m_entries[pair].push_back({anchor, offset});
    };
    for (int i = 0; i < int(anchors.size()); ++i) {
        const QByteArray &a = anchors[i];
        if (a.isEmpty())
            continue;
        if (a.size() == 1) {   // any byte may follow (or none, at the end: 0)
            for (unsigned next = 0; next < 256; ++next)
                add(static_cast<unsigned char>(a[0]) | next << 8, i, 0);
            continue;
        }
        int best = 0;
        for (int k = 1; k + 1 < int(a.size()); ++k)
            if (pairCost(a, k) < pairCost(a, best))
                best = k;
        add(static_cast<unsigned char>(a[best]) | unsigned(static_cast<unsigned char>(a[best + 1])) << 8, i, best);
    }
}

}   // namespace scalelab
