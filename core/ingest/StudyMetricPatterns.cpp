// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/StudyMetricPatterns.h"

#include "core/base/InputLimits.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace scalelab {

namespace {

QString str(const nlohmann::json &j, const char *key)
{
    auto it = j.find(key);
    if (it == j.end() || !it->is_string())
        return {};
    return QString::fromStdString(it->get<std::string>());
}

Diagnostic patternWarning(const QString &field, const QString &message)
{
    return {Severity::Warning, QStringLiteral("study-patterns-invalid"), field, 0, 0, message, {}};
}

// One entry of metricPatterns; nothing (and a warning) when it cannot be used.
std::optional<MetricPattern> readPattern(const nlohmann::json &e, const QString &where, Diagnostics &diagnostics)
{
    if (!e.is_object()) {
        diagnostics.append(
            patternWarning(where, QStringLiteral("study notes: %1 is not an object; it is skipped").arg(where)));
        return std::nullopt;
    }
    MetricPattern p;
    p.name = str(e, "name").trimmed();
    p.regex = str(e, "regex");
    p.unit = str(e, "unit");
    const QString agg = str(e, "aggregation");
    if (!agg.isEmpty()) {
        if (auto a = LogMetricExtractor::aggregationFromId(agg))
            p.aggregation = *a;
        else
            diagnostics.append(patternWarning(where + QStringLiteral(".aggregation"),
                                              QStringLiteral("study notes: %1.aggregation '%2' is not last, mean, max "
                                                             "or min; 'last' is used")
                                                  .arg(where, InputLimits::quoted(agg))));
    }
    if (p.name.isEmpty() || p.regex.isEmpty()) {
        diagnostics.append(patternWarning(
            where, QStringLiteral("study notes: %1 needs a name and a regex; it is skipped").arg(where)));
        return std::nullopt;
    }
    return p;
}

}   // namespace

StudyNotesContent StudyMetricPatterns::read(const QString &notes)
{
    StudyNotesContent out;
    const QString trimmed = notes.trimmed();
    if (!trimmed.startsWith(QLatin1Char('{'))) {
        out.text = notes;
        return out;
    }
    const nlohmann::json j = nlohmann::json::parse(trimmed.toStdString(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        out.text = notes;   // looks like JSON but is not: it is the researcher's text
        return out;
    }
    out.text = str(j, "text");
    auto arr = j.find("metricPatterns");
    if (arr == j.end())
        return out;
    if (!arr->is_array()) {
        out.diagnostics.append(
            patternWarning(QStringLiteral("metricPatterns"),
                           QStringLiteral("study notes: metricPatterns is not an array; no user patterns used")));
        return out;
    }
    int i = 0;
    for (const auto &e : *arr) {
        const QString where = QStringLiteral("metricPatterns[%1]").arg(i++);
        if (i > LogMetricExtractor::kMaxUserPatterns) {
            out.diagnostics.append(
                patternWarning(where, QStringLiteral("study notes: %1 and the %2 after it are left out: ScaleLab reads "
                                                     "at most %3 patterns; keep the metrics you need")
                                          .arg(where)
                                          .arg(arr->size() - size_t(i))
                                          .arg(LogMetricExtractor::kMaxUserPatterns)));
            break;
        }
        if (auto p = readPattern(e, where, out.diagnostics))
            out.patterns.append(*p);
    }
    return out;
}

QString StudyMetricPatterns::write(const QString &text, const QList<MetricPattern> &patterns)
{
    if (patterns.isEmpty())
        return text;   // no patterns: plain notes stay plain
    nlohmann::ordered_json j;
    j["text"] = text.toStdString();
    auto arr = nlohmann::ordered_json::array();
    for (const MetricPattern &p : patterns) {
        nlohmann::ordered_json e;
        e["name"] = p.name.toStdString();
        e["regex"] = p.regex.toStdString();
        e["unit"] = p.unit.toStdString();
        e["aggregation"] = LogMetricExtractor::aggregationId(p.aggregation).toStdString();
        arr.push_back(e);
    }
    j["metricPatterns"] = arr;
    return QString::fromStdString(j.dump(2));
}

}   // namespace scalelab
