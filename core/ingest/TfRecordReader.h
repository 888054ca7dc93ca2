// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace scalelab {

// One record of a TFRecord file: its payload and where it starts.
struct TfRecord {
    qint64 offset = 0;   // of the record's length field
    int index = 0;   // 1-based, counted over the records framed in the file
    QByteArrayView data;   // a view into the scanned bytes
};

struct TfRecordScan {
    QList<TfRecord> records;   // the records whose both CRCs hold
    Diagnostics diagnostics;   // torn last record (Info), bad CRCs (Warning); each names the file and byte
    bool torn = false;
};

// TFRecord framing (tensorflow/core/lib/io/record_writer.cc), as TensorBoard
// event files use it: each record is
//   uint64 length (little-endian) | uint32 masked CRC-32C of those 8 bytes |
//   length bytes of data | uint32 masked CRC-32C of the data.
// Both CRCs are checked. A record whose data CRC fails is skipped and the
// scan goes on (its length was sound); a length whose CRC fails ends the scan
// (nothing after it can be framed). A file that ends inside a record (a
// writer still running, or killed) is read up to that record with a note.
// Linear in the bytes.
class TfRecordReader {
public:
    static TfRecordScan scan(QByteArrayView bytes, const QString &name);
    // The records are views into the bytes: a temporary would leave them dangling.
    static TfRecordScan scan(QByteArray &&bytes, const QString &name) = delete;
    // The framing of one record (what a writer puts in the file).
    static QByteArray frame(QByteArrayView payload);
};

}   // namespace scalelab
