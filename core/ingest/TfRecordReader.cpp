// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/TfRecordReader.h"

#include "core/ingest/Crc32c.h"

#include <QtEndian>

#include <cstring>

namespace scalelab {

namespace {

constexpr qint64 kHeader = 12;   // length + its CRC
constexpr qint64 kFooter = 4;   // the data's CRC

std::uint32_t u32At(QByteArrayView b, qint64 at)
{
    return qFromLittleEndian<quint32>(b.data() + at);
}

Diagnostic torn(const QString &name, qint64 at, int index, qint64 size)
{
    return finding(Severity::Info, QStringLiteral("tfrecord-torn"), QString(), 0,
                   QStringLiteral("%1: record %2 at byte %3 is cut short at byte %4 (a writer still running or "
                                  "stopped): read up to it")
                       .arg(name)
                       .arg(index)
                       .arg(at)
                       .arg(size));
}

}   // namespace

TfRecordScan TfRecordReader::scan(QByteArrayView bytes, const QString &name)
{
    TfRecordScan out;
    const qint64 size = bytes.size();
    qint64 at = 0;
    for (int index = 1; at < size; ++index) {
        if (size - at < kHeader) {
            out.torn = true;
            out.diagnostics << torn(name, at, index, size);
            break;
        }
        const QByteArrayView lengthBytes = bytes.sliced(at, 8);
        if (Crc32c::maskedOf(lengthBytes) != u32At(bytes, at + 8)) {
            out.diagnostics << finding(Severity::Warning, QStringLiteral("tfrecord-crc"), QStringLiteral("length"), 0,
                                       QStringLiteral("%1: record %2 at byte %3: the length's CRC does not match; "
                                                      "the rest of the file (%4 bytes) cannot be framed and is not "
                                                      "read")
                                           .arg(name)
                                           .arg(index)
                                           .arg(at)
                                           .arg(size - at));
            break;
        }
        const quint64 length = qFromLittleEndian<quint64>(lengthBytes.data());
        if (length > quint64(size - at - kHeader - kFooter)) {
            out.torn = true;
            out.diagnostics << torn(name, at, index, size);
            break;
        }
        const QByteArrayView data = bytes.sliced(at + kHeader, qint64(length));
        if (Crc32c::maskedOf(data) != u32At(bytes, at + kHeader + qint64(length)))
            out.diagnostics << finding(Severity::Warning, QStringLiteral("tfrecord-crc"), QStringLiteral("data"), 0,
                                       QStringLiteral("%1: record %2 at byte %3: the data's CRC does not match; "
                                                      "the record is skipped")
                                           .arg(name)
                                           .arg(index)
                                           .arg(at));
        else
            out.records << TfRecord{at, index, data};
        at += kHeader + qint64(length) + kFooter;
    }
    return out;
}

QByteArray TfRecordReader::frame(QByteArrayView payload)
{
    QByteArray out(kHeader + payload.size() + kFooter, Qt::Uninitialized);
    char *p = out.data();
    qToLittleEndian<quint64>(quint64(payload.size()), p);
    qToLittleEndian<quint32>(Crc32c::maskedOf(QByteArrayView(p, 8)), p + 8);
    std::memcpy(p + kHeader, payload.data(), size_t(payload.size()));
    qToLittleEndian<quint32>(Crc32c::maskedOf(payload), p + kHeader + payload.size());
    return out;
}

}   // namespace scalelab
