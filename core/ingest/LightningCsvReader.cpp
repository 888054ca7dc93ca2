// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/LightningCsvReader.h"

#include "core/base/InputLimits.h"
#include "core/ingest/MetricFileCollector.h"
#include "core/model/MetricNames.h"

#include <QStringList>
#include <QtNumeric>

#include <charconv>
#include <cmath>
#include <optional>

namespace scalelab {

namespace {

const QString kLightningFormat = QStringLiteral("lightning.csv");

// One CSV record's fields (Python csv: "" inside quotes is one quote).
QList<QByteArrayView> fields(QByteArrayView line, QList<QByteArray> &unquoted)
{
    QList<QByteArrayView> out;
    unquoted.clear();
    qsizetype i = 0;
    while (i <= line.size()) {
        if (i < line.size() && line[i] == '"') {
            QByteArray f;
            ++i;
            while (i < line.size() && !(line[i] == '"' && (i + 1 >= line.size() || line[i + 1] != '"'))) {
                f += line[i];
                i += line[i] == '"' ? 2 : 1;
            }
            i += 2;   // closing quote and comma
            unquoted << f;
            out << QByteArrayView(unquoted.back());
            continue;
        }
        qsizetype end = line.indexOf(',', i);
        if (end < 0)
            end = line.size();
        out << line.sliced(i, end - i);
        i = end + 1;
    }
    return out;
}

std::optional<double> number(QByteArrayView s)
{
    s = s.trimmed();
    if (s.isEmpty())
        return std::nullopt;
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec == std::errc() && r.ptr == s.data() + s.size())
        return v;
    if (s == "nan" || s == "inf" || s == "-inf")   // Python's float spelling
        return s == "nan" ? qQNaN() : (s == "inf" ? qInf() : -qInf());
    return std::nullopt;
}

struct Header {
    QStringList keys;
    int step = -1;
};

Header header(const QList<QByteArrayView> &f)
{
    Header h;
    for (qsizetype i = 0; i < f.size(); ++i) {
        h.keys << QString::fromUtf8(f[i]).trimmed();
        if (h.keys.back() == QLatin1String("step"))
            h.step = int(i);
    }
    return h;
}

void readRow(const Header &h, const QList<QByteArrayView> &f, int line, MetricFileCollector &out)
{
    if (f.size() != h.keys.size())
        out.note(Severity::Warning, QStringLiteral("metric-file-row"), QString(), line,
                 QStringLiteral("%1 fields where the header names %2; the row is read by position")
                     .arg(f.size())
                     .arg(h.keys.size()));
    const std::optional<double> step = h.step >= 0 && h.step < f.size() ? number(f[h.step]) : std::nullopt;
    for (qsizetype i = 0; i < f.size() && i < h.keys.size(); ++i) {
        if (int(i) == h.step || f[i].trimmed().isEmpty())
            continue;
        if (const auto v = number(f[i]))
            out.add(h.keys[i], step.value_or(qQNaN()), *v, line);
        else
            out.note(Severity::Warning, QStringLiteral("metric-file-value"), h.keys[i], line,
                     QStringLiteral("%1 is %2, not a number; skipped")
                         .arg(h.keys[i], InputLimits::quoted(QString::fromUtf8(f[i]))));
    }
}

}   // namespace

MetricFileResult LightningCsvReader::read(const QString &path)
{
    const auto f = InputLimits::readFile(path, QStringLiteral("Lightning metrics file"));
    if (!f.ok) {
        MetricFileResult r;
        r.diagnostics << f.problem;
        return r;
    }
    return parse(f.data, path);
}

MetricFileResult LightningCsvReader::parse(const QByteArray &data, const QString &name)
{
    MetricFileCollector out(kLightningFormat, metric::SourceLightningCsv);
    out.setFile(name);
    Header h;
    QList<QByteArray> scratch;
    int line = 0;
    for (qsizetype at = 0; at < data.size();) {
        qsizetype end = data.indexOf('\n', at);
        if (end < 0)
            end = data.size();
        QByteArrayView text = QByteArrayView(data).sliced(at, end - at);
        at = end + 1;
        ++line;
        if (text.endsWith('\r'))
            text.chop(1);
        if (text.trimmed().isEmpty())
            continue;
        const QList<QByteArrayView> f = fields(text, scratch);
        // The first row, and any row naming "step" again (a key appeared).
        if (h.keys.isEmpty() || (f.contains(QByteArrayView("step")) && !number(f.front()))) {
            h = header(f);
            if (h.step < 0)
                out.note(Severity::Warning, QStringLiteral("metric-file-shape"), QStringLiteral("step"), line,
                         QStringLiteral("the header has no \"step\" column: values are read without steps"));
            continue;
        }
        readRow(h, f, line, out);
    }
    if (h.keys.isEmpty())
        out.note(Severity::Warning, QStringLiteral("metric-file-empty"), QString(), 0,
                 QStringLiteral("no header row: nothing logged yet"));
    return out.take();
}

}   // namespace scalelab
