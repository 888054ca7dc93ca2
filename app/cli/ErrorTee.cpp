// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ErrorTee.h"

#include <algorithm>

namespace scalelab {

ErrorTee::ErrorTee(QIODevice *target)
    : m_target(target)
{
    open(QIODevice::WriteOnly | QIODevice::Unbuffered);
}

qint64 ErrorTee::writeData(const char *data, qint64 len)
{
    m_kept.append(data, std::min<qint64>(len, std::max<qint64>(0, kMaxKept - m_kept.size())));
    if (m_target->write(data, len) != len)
        m_failed = true;
    // The copy is kept even when stderr refuses it: the JSON object still
    // carries the reason.
    return len;
}

}   // namespace scalelab
