// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <nlohmann/json.hpp>

#include <QHash>
#include <QList>

#include <optional>

namespace scalelab {

// Shared helpers for the JSON inputs (profiles, job specs): parse with a
// line/column on error, and typed reads that report the key path.
class JsonSupport {
public:
    using Json = nlohmann::ordered_json;

    // Caps checked before a document is built (reported as "input-too-large"):
    // real profiles and specs have a few dozen keys per object and a handful
    // of levels.
    static constexpr int kMaxKeysPerObject = 1000;
    static constexpr int kMaxDepth = 64;

    // Parses; on failure returns nullopt and fills `error` with line/column.
    static std::optional<Json> parse(const QByteArray &data, const QString &fileName, Diagnostic *error);
    static void lineColumnAt(const QByteArray &data, std::size_t byteOffset, int *line, int *column);

    static QString str(const Json &j) { return QString::fromStdString(j.get<std::string>()); }
    static QString typeName(const Json &j);
};

// Where keys and lines are in a JSON text, found in one pass on first use, so
// that reporting thousands of keys costs a lookup each instead of a rescan of
// the whole file each (nlohmann keeps no positions).
class JsonPositions {
public:
    explicit JsonPositions(const QByteArray &raw)
        : m_raw(raw)
    {}

    // 1-based line and column of the first place `key` is written as an
    // object key; false when it is not found.
    bool keyPosition(const QByteArray &key, int *line, int *column) const;
    // The same for one key, scanning only up to where it is first written
    // (no index of every key: for one lookup that would read the whole text).
    static bool firstKeyPosition(const QByteArray &raw, const QByteArray &key, int *line, int *column);
    // 1-based line and column of a byte offset.
    void lineColumn(qsizetype offset, int *line, int *column) const;

private:
    void index() const;

    QByteArray m_raw;
    mutable bool m_indexed = false;
    // Key as written (a view into m_raw, which is never changed) -> offset of its opening quote.
    mutable QHash<QByteArrayView, qsizetype> m_keys;
    mutable QList<qsizetype> m_lineStarts;
};

}   // namespace scalelab
