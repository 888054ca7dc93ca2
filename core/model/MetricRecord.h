#pragma once

#include <QString>

namespace scalelab {

// One number for the result explorer (throughput, accuracy, GPU utilisation...).
struct MetricRecord {
    qint64 runId = 0;
    QString name;
    double value = 0;
    QString unit;
    QString source;   // "sacct", "stdout", "gpu-samples", ...

    bool operator==(const MetricRecord &) const = default;
};

} // namespace scalelab
