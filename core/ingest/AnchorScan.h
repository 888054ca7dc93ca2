// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>

#include <cstdint>
#include <string_view>
#include <vector>

namespace scalelab {

// Finds every occurrence of many fixed texts (the readers' anchors) in one
// pass over a log, before any regex runs. Each anchor is represented by its
// rarest pair of adjacent bytes (punctuation and capitals before common
// letters); a 64 Kbit table of those pairs rejects almost every position of
// ordinary output with one lookup, and only positions whose pair is in the
// table compare the anchors that own it. Linear in the text: each position
// costs one lookup plus the few anchors sharing its pair.
class AnchorScan {
public:
    explicit AnchorScan(const QList<QByteArray> &anchors);   // each at least 1 byte

    // Calls `hit(anchorIndex, offset)` for every occurrence, in order of
    // the position of the anchor's chosen pair (so offsets of one anchor
    // increase). Returning false from `hit` stops the scan.
    template <typename Hit>
    void scan(std::string_view text, Hit &&hit) const;

private:
    struct Entry {
        int anchor;
        int offset;   // of the pair inside the anchor
    };
    static int pairCost(const QByteArray &anchor, int at);

    QList<QByteArray> m_anchors;
    std::vector<uint64_t> m_bits;   // 65536 bits: pair (first | second << 8) is some anchor's
    std::vector<std::vector<Entry>> m_entries;   // per pair
};

template <typename Hit>
void AnchorScan::scan(std::string_view text, Hit &&hit) const
{
    const auto *p = reinterpret_cast<const unsigned char *>(text.data());
    const size_t n = text.size();
    const uint64_t *bits = m_bits.data();
    for (size_t i = 0; i < n; ++i) {
        const unsigned pair = unsigned(p[i]) | (i + 1 < n ? unsigned(p[i + 1]) << 8 : 0u);
        if (!(bits[pair >> 6] >> (pair & 63) & 1))
            continue;
        for (const Entry &e : m_entries[pair]) {
            const QByteArray &a = m_anchors[e.anchor];
            if (i < size_t(e.offset) || i - size_t(e.offset) + size_t(a.size()) > n)
                continue;
            const size_t start = i - size_t(e.offset);
            if (std::string_view(text.data() + start, size_t(a.size())) == std::string_view(a.constData(), size_t(a.size())))
                if (!hit(int(e.anchor), start))
                    return;
        }
    }
}

}   // namespace scalelab
