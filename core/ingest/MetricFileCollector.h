// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/MetricFileData.h"

#include <QHash>

namespace scalelab {

// Gathers the values one metric file reader finds into a MetricFileResult:
// names through MetricFileNames, one FileMetric per project name, the last
// value written as the metric's value, per-step values of curve keys as its
// series. Findings are capped per file (InputLimits::kMaxDiagnosticsPerFile).
class MetricFileCollector {
public:
    // `format` prefixes each rule ("hf.trainer_state"); `source` is the
    // metric::Source* of the format.
    MetricFileCollector(const QString &format, const QString &source);

    void setFile(const QString &file);
    // One value of `key` at `step` (NaN = none), read at `line` of the file.
    // Non-finite values are counted and noted once per key, not stored.
    void add(const QString &key, double step, double value, qint64 line);
    // A run total (HF's closing "train_loss", a W&B summary): the metric's
    // value, never a point of its curve.
    void addTotal(const QString &key, double value, qint64 line);
    void parameter(const QString &key, const QString &value, int line);
    // A finding about the current file: the message is prefixed with its name.
    void note(Severity severity, const QString &rule, const QString &field, int line, const QString &message);

    MetricFileResult take();

    static constexpr int kMaxSeriesValues = 1000000;   // per metric; more are counted, not kept

private:
    void put(const QString &key, double step, double value, qint64 line, bool total);

    QString m_format;
    QString m_source;
    QString m_file;
    MetricFileResult m_result;
    QHash<QString, int> m_index;   // project name -> index in m_result.metrics
    QHash<QString, int> m_notes;   // findings per file
    QHash<QString, bool> m_nonFinite;   // keys noted
};

}   // namespace scalelab
