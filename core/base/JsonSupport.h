#pragma once

#include "core/base/Diagnostic.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>

namespace scalelab {

// Shared helpers for the JSON inputs (profiles, job specs): parse with a
// line/column on error, and typed reads that report the key path.
class JsonSupport {
public:
    using Json = nlohmann::ordered_json;

    // Parses; on failure returns nullopt and fills `error` with line/column.
    static std::optional<Json> parse(const QByteArray &data, const QString &fileName, Diagnostic *error);
    static void lineColumnAt(const QByteArray &data, std::size_t byteOffset, int *line, int *column);

    static QString str(const Json &j) { return QString::fromStdString(j.get<std::string>()); }
    static QString typeName(const Json &j);
};

} // namespace scalelab
