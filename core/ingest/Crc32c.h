// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArrayView>

#include <cstdint>

namespace scalelab {

// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78; RFC 3720 B.4) and
// the masked form TFRecord files store (tensorflow/core/lib/hash/crc32c.h:
// rotate right by 15 bits, add 0xa282ead8), so that a CRC stored inside the
// data it covers does not check itself.
class Crc32c {
public:
    static std::uint32_t of(QByteArrayView data);
    static std::uint32_t masked(std::uint32_t crc);
    static std::uint32_t maskedOf(QByteArrayView data) { return masked(of(data)); }
};

}   // namespace scalelab
