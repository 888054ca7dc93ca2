// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/JsonSupport.h"

#include "core/base/InputLimits.h"

#include <algorithm>

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

namespace {

// One SAX pass before the document is built: learns where a failure is
// (nlohmann's out_of_range for a number like 1e999 carries no position, but
// SAX is told the byte offset of every failure) and refuses shapes that would
// make building slow: nlohmann's ordered objects look every key up linearly
// on insert, so thousands of keys in one object cost quadratic time.
class ShapeCheck : public nlohmann::json_sax<JsonSupport::Json> {
public:
    std::size_t position = 0;
    std::string what;
    QString limit;   // set when a cap stopped the pass
    QByteArray limitKey;   // the key that went over the key cap
    std::size_t keysSeen = 0;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t &) override { return true; }
    bool string(string_t &) override { return true; }
    bool binary(binary_t &) override { return true; }
    bool start_object(std::size_t) override { return push(); }
    bool key(string_t &k) override
    {
        ++keysSeen;
        if (++m_keys.back() > JsonSupport::kMaxKeysPerObject) {
            limitKey = QByteArray::fromStdString(k);
            limit = QStringLiteral("an object has more than %1 keys; ScaleLab reads at most %1 per object")
                        .arg(JsonSupport::kMaxKeysPerObject);
            return false;
        }
        return true;
    }
    bool end_object() override { return pop(); }
    bool start_array(std::size_t) override { return push(); }
    bool end_array() override { return pop(); }
    bool parse_error(std::size_t pos, const std::string &token, const nlohmann::detail::exception &ex) override
    {
        // A number overflow is reported past the number: point at its start.
        position = ex.id == 406 && token.size() < pos ? pos - token.size() + 1 : pos;
        what = ex.what();
        return false;
    }

private:
    bool push()
    {
        m_keys.push_back(0);
        if (int(m_keys.size()) > JsonSupport::kMaxDepth) {
            limit = QStringLiteral("nested more than %1 levels deep; ScaleLab reads at most %1")
                        .arg(JsonSupport::kMaxDepth);
            return false;
        }
        return true;
    }
    bool pop()
    {
        m_keys.pop_back();
        return true;
    }

    std::vector<int> m_keys;
};

// Offset of the bracket that opens nesting level `depth` (strings skipped).
qsizetype offsetOfDepth(const QByteArray &data, int depth)
{
    int level = 0;
    bool inString = false;
    for (qsizetype i = 0; i < data.size(); ++i) {
        const char c = data[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++level == depth)
                return i;
        } else if (c == ']' || c == '}') {
            --level;
        }
    }
    return 0;
}

}   // namespace

std::optional<JsonSupport::Json> JsonSupport::parse(const QByteArray &data, const QString &fileName, Diagnostic *error)
{
    const QString file = fileName.isEmpty() ? QStringLiteral("<input>") : fileName;
    ShapeCheck check;
    bool shapeOk = false;
    try {
        shapeOk = Json::sax_parse(data.constBegin(), data.constEnd(), &check);
    } catch (const Json::exception &e) {
        check.what = e.what();   // not expected with a SAX handler, but never fatal
    }
    if (shapeOk) {
        try {
            return Json::parse(data.constBegin(), data.constEnd());
        } catch (const Json::exception &e) {
            check.what = e.what();   // the SAX pass accepted it; keep a message anyway
        }
    }
    // Syntax errors (parse_error), numbers no double can hold (out_of_range,
    // e.g. 1e999) and our own caps alike: the input is unusable, never a crash.
    int line = 0, column = 0;
    // nlohmann reports the byte just past the offending character.
    lineColumnAt(data, check.position > 0 ? check.position - 1 : 0, &line, &column);
    // SAX gives no position when our own cap stops it: find the place.
    if (!check.limit.isEmpty()) {
        if (!check.limitKey.isNull())
            JsonPositions::firstKeyPosition(data, check.limitKey, &line, &column);
        else
            lineColumnAt(data, std::size_t(offsetOfDepth(data, kMaxDepth + 1)), &line, &column);
    }
    error->severity = Severity::Error;
    error->line = line;
    error->column = column;
    if (!check.limit.isEmpty()) {
        error->rule = QStringLiteral("input-too-large");
        error->message = QStringLiteral("%1:%2:%3: %4").arg(file).arg(line).arg(column).arg(check.limit);
        return std::nullopt;
    }
    QString what = QString::fromStdString(check.what);
    // Keep only the part after "parse error at line N, column M: " or the
    // "[json.exception.out_of_range.406] " prefix.
    if (const qsizetype colon = what.indexOf(QLatin1String(": syntax error")); colon >= 0)
        what = what.mid(colon + 2);
    else if (what.startsWith(QLatin1String("[json.exception.")))
        what = what.mid(what.indexOf(QLatin1Char(']')) + 1).trimmed();
    // nlohmann quotes the offending token whole ('1111...' of 15 MB): cut it.
    if (const qsizetype open = what.indexOf(QLatin1Char('\'')), close = what.lastIndexOf(QLatin1Char('\''));
        open >= 0 && close > open)
        what = what.left(open + 1) + InputLimits::quoted(what.mid(open + 1, close - open - 1)) + what.mid(close);
    if (what.startsWith(QLatin1String("number overflow")))
        what += QStringLiteral(": the number is too large; write a smaller value");
    error->rule = QStringLiteral("malformed-json");
    error->message = QStringLiteral("%1:%2:%3: malformed JSON: %4").arg(file).arg(line).arg(column).arg(what);
    return std::nullopt;
}

namespace {

// Walks the raw text once: `onLine(offset)` for each line start after the
// first, `onKey(key, offset of its opening quote)` for each object key, in
// order, until onKey returns false.
template <typename OnLine, typename OnKey>
void walkKeys(QByteArrayView raw, OnLine onLine, OnKey onKey)
{
    const qsizetype n = raw.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char c = raw[i];
        if (c == '\n') {
            onLine(i + 1);
        } else if (c == '"') {
            // A string: find its end (skipping escapes), then see whether a ':'
            // follows, which makes it a key.
            const qsizetype open = i;
            qsizetype j = i + 1;
            while (j < n && raw[j] != '"') {
                if (raw[j] == '\\')
                    ++j;
                else if (raw[j] == '\n')
                    onLine(j + 1);   // invalid JSON, but keep lines right
                ++j;
            }
            qsizetype k = j + 1;
            while (k < n && (raw[k] == ' ' || raw[k] == '\t' || raw[k] == '\r' || raw[k] == '\n')) {
                if (raw[k] == '\n')
                    onLine(k + 1);
                ++k;
            }
            if (k < n && raw[k] == ':' && !onKey(raw.sliced(open + 1, std::min(j, n) - open - 1), open))
                return;
            i = k - 1;
        }
    }
}

}   // namespace

void JsonPositions::index() const
{
    if (m_indexed)
        return;
    m_indexed = true;
    m_lineStarts << 0;
    walkKeys(
        m_raw, [this](qsizetype lineStart) { m_lineStarts << lineStart; },
        [this](QByteArrayView key, qsizetype open) {
            if (!m_keys.contains(key))
                m_keys.insert(key, open);
            return true;
        });
}

bool JsonPositions::firstKeyPosition(const QByteArray &raw, const QByteArray &key, int *line, int *column)
{
    qsizetype at = -1;
    walkKeys(
        raw, [](qsizetype) {},
        [&](QByteArrayView k, qsizetype open) {
            if (k != QByteArrayView(key))
                return true;
            at = open;
            return false;
        });
    if (at < 0) {
        *line = 0;
        *column = 0;
        return false;
    }
    JsonSupport::lineColumnAt(raw, std::size_t(at), line, column);
    return true;
}

bool JsonPositions::keyPosition(const QByteArray &key, int *line, int *column) const
{
    index();
    const auto it = m_keys.constFind(QByteArrayView(key));
    if (it == m_keys.constEnd()) {
        *line = 0;
        *column = 0;
        return false;
    }
    lineColumn(*it, line, column);
    return true;
}

void JsonPositions::lineColumn(qsizetype offset, int *line, int *column) const
{
    index();
    const auto it = std::upper_bound(m_lineStarts.cbegin(), m_lineStarts.cend(), offset);
    const qsizetype lineIndex = (it - m_lineStarts.cbegin()) - 1;
    *line = int(lineIndex + 1);
    *column = int(offset - m_lineStarts[lineIndex] + 1);
}

QString JsonSupport::typeName(const Json &j)
{
    return QString::fromLatin1(j.type_name());
}

}   // namespace scalelab
