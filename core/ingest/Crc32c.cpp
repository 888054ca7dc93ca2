// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/Crc32c.h"

#include <array>

namespace scalelab {

namespace {

constexpr std::array<std::uint32_t, 256> makeTable()
{
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        t[i] = c;
    }
    return t;
}

constexpr std::array<std::uint32_t, 256> kTable = makeTable();

}   // namespace

std::uint32_t Crc32c::of(QByteArrayView data)
{
    std::uint32_t crc = 0xFFFFFFFFu;
    for (const char ch : data)
        crc = kTable[(crc ^ std::uint8_t(ch)) & 0xFFu] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

std::uint32_t Crc32c::masked(std::uint32_t crc)
{
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

}   // namespace scalelab
