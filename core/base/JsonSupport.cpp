#include "core/base/JsonSupport.h"

namespace scalelab {

void JsonSupport::lineColumnAt(const QByteArray &data, std::size_t byteOffset, int *line, int *column)
{
    int l = 1, c = 1;
    const std::size_t end = std::min<std::size_t>(byteOffset, std::size_t(data.size()));
    for (std::size_t i = 0; i < end; ++i) {
        if (data[qsizetype(i)] == '\n') {
            ++l;
            c = 1;
        } else {
            ++c;
        }
    }
    *line = l;
    *column = c;
}

std::optional<JsonSupport::Json> JsonSupport::parse(const QByteArray &data, const QString &fileName,
                                                      Diagnostic *error)
{
    try {
        return Json::parse(data.constBegin(), data.constEnd());
    } catch (const Json::parse_error &e) {
        int line = 0, column = 0;
        // nlohmann reports the byte just past the offending character.
        lineColumnAt(data, e.byte > 0 ? e.byte - 1 : 0, &line, &column);
        QString what = QString::fromStdString(e.what());
        // Keep only the part after "parse error at line N, column M: ".
        if (const qsizetype colon = what.indexOf(QLatin1String(": syntax error")); colon >= 0)
            what = what.mid(colon + 2);
        error->severity = Severity::Error;
        error->rule = QStringLiteral("malformed-json");
        error->line = line;
        error->column = column;
        error->message = QStringLiteral("%1:%2:%3: malformed JSON: %4")
                             .arg(fileName.isEmpty() ? QStringLiteral("<input>") : fileName)
                             .arg(line)
                             .arg(column)
                             .arg(what);
        return std::nullopt;
    }
}

QString JsonSupport::typeName(const Json &j)
{
    return QString::fromLatin1(j.type_name());
}

} // namespace scalelab
