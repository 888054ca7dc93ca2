// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace scalelab {

// Finds every occurrence of many fixed texts (the readers' anchors) in one
// pass over a log, before any regex runs. Each anchor is represented by its
// rarest pair of adjacent bytes that a third byte of the anchor follows
// (rarest in a sample of the text being read: the start of the log, what
// this job prints most); a 64 Kbit table of those pairs rejects almost every
// position of ordinary output, and only positions whose pair is in the table
// compare the anchors that own it. Before the table, sixteen positions (32
// with AVX2) are tested at a time with nibble lookups of the three bytes
// (pshufb, the "Teddy" filter of Hyperscan) where the processor has them;
// the third byte being the anchor's own keeps that filter selective. Linear
// in the text: each position costs at most one lookup plus the few anchors
// sharing its pair.
class AnchorScan {
public:
    explicit AnchorScan(const QList<QByteArray> &anchors);   // an empty anchor is never found

    // Calls `hit(anchorIndex, offset)` for every occurrence, in order of
    // the position of the anchor's chosen pair (so offsets of one anchor
    // increase). Returning false from `hit` stops the scan.
    template <typename Hit>
    void scan(std::string_view text, Hit &&hit) const;

    static constexpr size_t kSampleBytes = 256 * 1024;

    struct Entry {
        int anchor;
        int offset;   // of the pair inside the anchor
    };
    // The tables for the anchors, chosen on a sample of the text (its start);
    // one plan serves a text scanned piece by piece.
    struct Plan {
        std::vector<uint64_t> bits = std::vector<uint64_t>(65536 / 64, 0);   // pair (b0 | b1 << 8) is some anchor's
        std::vector<uint16_t> slot = std::vector<uint16_t>(65536, 0);   // pair -> 1 + index into entries
        std::vector<std::vector<Entry>> entries;   // the anchors owning each pair in the table
        // Nibble tables of the pair's two bytes and the byte after it, one
        // bit per bucket of pairs: a pair's bit survives only when all six
        // nibbles carry it (the byte after a pair that ends its anchor: any).
        alignas(16) unsigned char lo0[16] = {}, hi0[16] = {}, lo1[16] = {}, hi1[16] = {}, lo2[16] = {}, hi2[16] = {};
    };
    std::unique_ptr<Plan> plan(std::string_view sample) const;
    template <typename Hit>
    void scan(const Plan &plan, std::string_view text, Hit &&hit) const;

private:
    // Bit j set when the pair at p[j], p[j + 1] may be in the table (reads 18 bytes).
    static unsigned candidates16(const Plan &plan, const unsigned char *p);
    // The same for 32 positions (reads 34 bytes; AVX2).
    static unsigned candidates32(const Plan &plan, const unsigned char *p);

    QList<QByteArray> m_anchors;
    bool m_simd = false;
    bool m_avx2 = false;
};

template <typename Hit>
void AnchorScan::scan(std::string_view text, Hit &&hit) const
{
    scan(*plan(text.substr(0, kSampleBytes)), text, std::forward<Hit>(hit));
}

template <typename Hit>
void AnchorScan::scan(const Plan &pl, std::string_view text, Hit &&hit) const
{
    const auto *p = reinterpret_cast<const unsigned char *>(text.data());
    const size_t n = text.size();
    // Every position whose pair is in the table: the anchors owning it are compared.
    auto at = [&](size_t i) {
        const unsigned pair = unsigned(p[i]) | (i + 1 < n ? unsigned(p[i + 1]) << 8 : 0u);
        if (!(pl.bits[pair >> 6] >> (pair & 63) & 1))
            return true;
        for (const Entry &e : pl.entries[pl.slot[pair] - 1]) {
            const QByteArray &a = m_anchors[e.anchor];
            if (i < size_t(e.offset) || i - size_t(e.offset) + size_t(a.size()) > n)
                continue;
            const size_t start = i - size_t(e.offset);
            if (std::string_view(text.data() + start, size_t(a.size()))
                    == std::string_view(a.constData(), size_t(a.size()))
                && !hit(int(e.anchor), start))
                return false;
        }
        return true;
    };
    size_t i = 0;
    const size_t wide = n > 33 ? (n - 33) & ~size_t(31) : 0;
    while (m_avx2 && i < wide) {
        for (unsigned mask = candidates32(pl, p + i); mask; mask &= mask - 1)
            if (!at(i + size_t(__builtin_ctz(mask))))
                return;
        i += 32;
    }
    const size_t blocks = n > 17 ? (n - 17) & ~size_t(15) : 0;
    while (m_simd && i < blocks) {
        for (unsigned mask = candidates16(pl, p + i); mask; mask &= mask - 1)
            if (!at(i + size_t(__builtin_ctz(mask))))
                return;
        i += 16;
    }
    for (; i < n; ++i)
        if (!at(i))
            return;
}

}   // namespace scalelab
