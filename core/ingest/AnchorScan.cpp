// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/AnchorScan.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SCALELAB_ANCHOR_SSSE3 1
#endif

namespace scalelab {

AnchorScan::AnchorScan(const QList<QByteArray> &anchors)
    : m_anchors(anchors)
{
#ifdef SCALELAB_ANCHOR_SSSE3
    __builtin_cpu_init();
    m_simd = __builtin_cpu_supports("ssse3");
    m_avx2 = __builtin_cpu_supports("avx2");
#endif
}

namespace {

// A bucket of pairs for the vector filter: which low and high nibbles its
// first, second and third bytes may have (bit x = nibble x).
struct Bucket {
    uint16_t lo[3] = {}, hi[3] = {};
};

// Share of the sample's bytes whose nibbles are both in the sets.
double share(const double *byteShare, uint16_t lo, uint16_t hi)
{
    double p = 0;
    for (int x = 0; x < 256; ++x)
        if ((lo >> (x & 15) & 1) && (hi >> (x >> 4) & 1))
            p += byteShare[x];
    return p;
}

// How often a bucket lets a position through, estimated as independent bytes.
double cost(const double *byteShare, const Bucket &b)
{
    return share(byteShare, b.lo[0], b.hi[0]) * share(byteShare, b.lo[1], b.hi[1]) * share(byteShare, b.lo[2], b.hi[2]);
}

Bucket with(Bucket b, const int bytes[3])
{
    for (int k = 0; k < 3; ++k) {
        b.lo[k] |= bytes[k] < 0 ? 0xFFFF : uint16_t(1u << (bytes[k] & 15));
        b.hi[k] |= bytes[k] < 0 ? 0xFFFF : uint16_t(1u << (bytes[k] >> 4));
    }
    return b;
}

}   // namespace

std::unique_ptr<AnchorScan::Plan> AnchorScan::plan(std::string_view sample) const
{
    // How often each pair and each byte occurs in the sample (16-bit pair counts saturate).
    std::vector<uint16_t> seen(65536, 0);
    size_t bytes[256] = {};
    const auto *s = reinterpret_cast<const unsigned char *>(sample.data());
    for (size_t i = 0; i < sample.size(); ++i) {
        ++bytes[s[i]];
        if (i + 1 < sample.size()) {
            uint16_t &c = seen[s[i] | unsigned(s[i + 1]) << 8];
            c = c == 0xFFFF ? c : uint16_t(c + 1);
        }
    }
    double byteShare[256];
    for (int b = 0; b < 256; ++b)   // a byte the sample lacks may still come
        byteShare[b] = (double(bytes[b]) + 1.0) / (double(sample.size()) + 256.0);
    auto pl = std::make_unique<Plan>();
    Bucket buckets[8];
    double costs[8] = {};   // cost() of each bucket as it is
    auto add = [&](unsigned pair, int anchor, int offset, int third) {
        pl->bits[pair >> 6] |= uint64_t(1) << (pair & 63);
        if (!pl->slot[pair]) {
            pl->entries.emplace_back();
            pl->slot[pair] = uint16_t(pl->entries.size());
        }
        pl->entries[pl->slot[pair] - 1].push_back({anchor, offset});
        // The bucket whose filter lets the fewest more positions through.
        const int bytes[3] = {int(pair & 0xff), int(pair >> 8), third};
        int best = 0;
        double bestCost = 0;
        for (int b = 0; b < 8; ++b) {
            const double c = cost(byteShare, with(buckets[b], bytes));
            if (b == 0 || c - costs[b] < bestCost - costs[best]) {
                best = b;
                bestCost = c;
            }
        }
        buckets[best] = with(buckets[best], bytes);
        costs[best] = bestCost;
    };
    for (int i = 0; i < int(m_anchors.size()); ++i) {
        const auto *a = reinterpret_cast<const unsigned char *>(m_anchors[i].constData());
        const int len = int(m_anchors[i].size());
        if (len == 1) {   // any byte may follow (or none, at the end: 0)
            for (unsigned next = 0; next < 256; ++next)
                add(a[0] | next << 8, i, 0, -1);
            continue;
        }
        // The rarest pair in the sample that a third byte of the anchor follows (so that the
        // vector filter tests three of the anchor's bytes); on a tie the later one.
        int best = 0;
        const int pairs = len >= 3 ? len - 2 : len - 1;
        for (int k = 1; k < pairs; ++k)
            if (seen[a[k] | unsigned(a[k + 1]) << 8] <= seen[a[best] | unsigned(a[best + 1]) << 8])
                best = k;
        if (len >= 2)
            add(a[best] | unsigned(a[best + 1]) << 8, i, best, best + 2 < len ? int(a[best + 2]) : -1);
    }
    for (int b = 0; b < 8; ++b)
        for (int x = 0; x < 16; ++x) {
            const auto bit = static_cast<unsigned char>(1u << b);
            unsigned char *tables[6] = {pl->lo0, pl->hi0, pl->lo1, pl->hi1, pl->lo2, pl->hi2};
            for (int k = 0; k < 3; ++k) {
                if (buckets[b].lo[k] >> x & 1)
                    tables[2 * k][x] |= bit;
                if (buckets[b].hi[k] >> x & 1)
                    tables[2 * k + 1][x] |= bit;
            }
        }
    return pl;
}

#ifdef SCALELAB_ANCHOR_SSSE3
namespace {

// The bucket bits of 16 bytes: set where the byte's low and high nibbles both carry them.
__attribute__((target("ssse3"))) inline __m128i classify(__m128i x, const unsigned char *lo, const unsigned char *hi)
{
    const __m128i nibble = _mm_set1_epi8(0x0f);
    const __m128i l = _mm_shuffle_epi8(_mm_load_si128(reinterpret_cast<const __m128i *>(lo)), _mm_and_si128(x, nibble));
    const __m128i h = _mm_shuffle_epi8(_mm_load_si128(reinterpret_cast<const __m128i *>(hi)),
                                       _mm_and_si128(_mm_srli_epi16(x, 4), nibble));
    return _mm_and_si128(l, h);
}

}   // namespace

__attribute__((target("ssse3"))) unsigned AnchorScan::candidates16(const Plan &pl, const unsigned char *p)
{
    const __m128i x0 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
    const __m128i x1 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 1));
    const __m128i x2 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 2));
    const __m128i both = _mm_and_si128(_mm_and_si128(classify(x0, pl.lo0, pl.hi0), classify(x1, pl.lo1, pl.hi1)),
                                       classify(x2, pl.lo2, pl.hi2));
    return ~unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(both, _mm_setzero_si128()))) & 0xFFFFu;
}

namespace {

__attribute__((target("avx2"))) inline __m256i classify32(__m256i x, const unsigned char *lo, const unsigned char *hi)
{
    const __m256i nibble = _mm256_set1_epi8(0x0f);
    const __m256i l =
        _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i *>(lo))),
                            _mm256_and_si256(x, nibble));
    const __m256i h =
        _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i *>(hi))),
                            _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble));
    return _mm256_and_si256(l, h);
}

}   // namespace

__attribute__((target("avx2"))) unsigned AnchorScan::candidates32(const Plan &pl, const unsigned char *p)
{
    const __m256i x0 = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
    const __m256i x1 = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p + 1));
    const __m256i x2 = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p + 2));
    const __m256i both =
        _mm256_and_si256(_mm256_and_si256(classify32(x0, pl.lo0, pl.hi0), classify32(x1, pl.lo1, pl.hi1)),
                         classify32(x2, pl.lo2, pl.hi2));
    return ~unsigned(_mm256_movemask_epi8(_mm256_cmpeq_epi8(both, _mm256_setzero_si256())));
}
#else
unsigned AnchorScan::candidates16(const Plan &, const unsigned char *)
{
    return 0xFFFFu;   // no vector unit used: every position goes to the pair table
}

unsigned AnchorScan::candidates32(const Plan &, const unsigned char *)
{
    return 0xFFFFFFFFu;
}
#endif

}   // namespace scalelab
