// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/WandbRunReader.h"

#include "core/base/InputLimits.h"
#include "core/base/JsonSupport.h"
#include "core/ingest/MetricFileCollector.h"
#include "core/model/MetricNames.h"

#include <QFileInfo>
#include <QtNumeric>

#include <cmath>

namespace scalelab {

namespace {

using Json = JsonSupport::Json;

const QString kWandbFormat = QStringLiteral("wandb");

// The numbers of one object; `step` NaN = a summary (totals, not curve points).
void readObject(const Json &obj, double step, int line, MetricFileCollector &out)
{
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const QString key = QString::fromStdString(it.key());
        if (key.startsWith(u'_') || !it.value().is_number())
            continue;
        if (std::isnan(step))
            out.addTotal(key, it.value().get<double>(), line);
        else
            out.add(key, step, it.value().get<double>(), line);
    }
}

void summaryInto(const QByteArray &data, const QString &name, MetricFileCollector &out)
{
    out.setFile(name);
    Diagnostic error;
    const std::optional<Json> doc = JsonSupport::parse(data, name, &error);
    if (!doc || !doc->is_object()) {
        out.note(Severity::Error, QStringLiteral("metric-file-json"), QString(), error.line,
                 doc ? QStringLiteral("not a JSON object: not a W&B summary") : error.message);
        return;
    }
    readObject(*doc, qQNaN(), 0, out);
}

void historyInto(const QByteArray &data, const QString &name, MetricFileCollector &out)
{
    out.setFile(name);
    int line = 0;
    for (qsizetype at = 0; at < data.size();) {
        qsizetype end = data.indexOf('\n', at);
        if (end < 0)
            end = data.size();
        const QByteArray text = data.mid(at, end - at).trimmed();
        at = end + 1;
        ++line;
        if (text.isEmpty())
            continue;
        const Json row = Json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
        if (row.is_discarded() || !row.is_object()) {
            // A running job's last line may be cut short.
            out.note(at >= data.size() ? Severity::Info : Severity::Warning, QStringLiteral("metric-file-json"),
                     QString(), line, QStringLiteral("not one JSON object; skipped"));
            continue;
        }
        const auto s = row.find("_step");
        readObject(row, s != row.end() && s->is_number() ? s->get<double>() : double(line - 1), line, out);
    }
}

}   // namespace

MetricFileResult WandbRunReader::parseSummary(const QByteArray &data, const QString &name)
{
    MetricFileCollector out(kWandbFormat, metric::SourceWandb);
    summaryInto(data, name, out);
    return out.take();
}

MetricFileResult WandbRunReader::parseHistory(const QByteArray &data, const QString &name)
{
    MetricFileCollector out(kWandbFormat, metric::SourceWandb);
    historyInto(data, name, out);
    return out.take();
}

MetricFileResult WandbRunReader::read(const QString &runDir)
{
    MetricFileCollector out(kWandbFormat, metric::SourceWandb);
    bool any = false;
    const QString files = runDir + QStringLiteral("/files/");
    const QString history = files + QStringLiteral("wandb-history.jsonl");
    if (QFileInfo::exists(history)) {
        const auto f = InputLimits::readFile(history, QStringLiteral("W&B history"));
        any = true;
        if (f.ok)
            historyInto(f.data, history, out);
        else
            out.note(Severity::Warning, f.problem.rule, QString(), 0, f.problem.message);
    }
    const QString summary = files + QStringLiteral("wandb-summary.json");
    if (QFileInfo::exists(summary)) {
        const auto f = InputLimits::readFile(summary, QStringLiteral("W&B summary"));
        any = true;
        if (f.ok)
            summaryInto(f.data, summary, out);
        else
            out.note(Severity::Warning, f.problem.rule, QString(), 0, f.problem.message);
    }
    if (!any) {
        out.setFile(runDir);
        out.note(Severity::Warning, QStringLiteral("metric-file-shape"), QString(), 0,
                 QStringLiteral("no files/wandb-summary.json or files/wandb-history.jsonl (the binary "
                                "run-<id>.wandb log is not read)"));
    }
    return out.take();
}

}   // namespace scalelab
