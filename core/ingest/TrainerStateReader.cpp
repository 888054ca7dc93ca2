// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/TrainerStateReader.h"

#include "core/base/InputLimits.h"
#include "core/base/JsonSupport.h"
#include "core/ingest/MetricFileCollector.h"
#include "core/model/MetricNames.h"

#include <QtNumeric>

namespace scalelab {

namespace {

using Json = JsonSupport::Json;

const QString kTrainerStateFormat = QStringLiteral("hf.trainer_state");

// The closing entry Trainer.train logs (its keys start with "train_").
bool isClosingEntry(const Json &entry)
{
    return entry.contains("train_runtime") || entry.contains("train_samples_per_second");
}

void readEntry(const Json &entry, int index, MetricFileCollector &out)
{
    const QString where = QStringLiteral("log_history[%1]").arg(index);
    if (!entry.is_object()) {
        out.note(Severity::Warning, QStringLiteral("metric-file-entry"), where, 0,
                 QStringLiteral("%1 is %2, not an object; skipped").arg(where, JsonSupport::typeName(entry)));
        return;
    }
    double step = qQNaN();
    if (auto s = entry.find("step"); s != entry.end() && s->is_number())
        step = s->get<double>();
    const bool closing = isClosingEntry(entry);
    for (auto it = entry.begin(); it != entry.end(); ++it) {
        if (!it.value().is_number())
            continue;   // strings and nested objects are not metrics
        const QString key = QString::fromStdString(it.key());
        if (closing)
            out.addTotal(key, it.value().get<double>(), 0);
        else
            out.add(key, step, it.value().get<double>(), 0);
    }
}

}   // namespace

MetricFileResult TrainerStateReader::read(const QString &path)
{
    const auto f = InputLimits::readFile(path, QStringLiteral("trainer state"));
    if (!f.ok) {
        MetricFileResult r;
        r.diagnostics << f.problem;
        return r;
    }
    return parse(f.data, path);
}

MetricFileResult TrainerStateReader::parse(const QByteArray &data, const QString &name)
{
    MetricFileCollector out(kTrainerStateFormat, metric::SourceTrainerState);
    out.setFile(name);
    Diagnostic error;
    const std::optional<Json> doc = JsonSupport::parse(data, name, &error);
    if (!doc) {
        out.note(Severity::Error, QStringLiteral("metric-file-json"), QString(), error.line, error.message);
        return out.take();
    }
    const auto history = doc->is_object() ? doc->find("log_history") : doc->end();
    if (!doc->is_object() || history == doc->end() || !history->is_array()) {
        out.note(Severity::Error, QStringLiteral("metric-file-shape"), QStringLiteral("log_history"), 0,
                 QStringLiteral("no \"log_history\" array: not a Trainer state (give the trainer_state.json the "
                                "Trainer writes into output_dir or a checkpoint folder)"));
        return out.take();
    }
    int index = 0;
    for (const Json &entry : *history)
        readEntry(entry, index++, out);
    for (auto it = doc->begin(); it != doc->end(); ++it)
        if (it.value().is_primitive() && !it.value().is_null())
            out.parameter(
                QString::fromStdString(it.key()),
                it.value().is_string() ? JsonSupport::str(it.value()) : QString::fromStdString(it.value().dump()), 0);
    return out.take();
}

}   // namespace scalelab
