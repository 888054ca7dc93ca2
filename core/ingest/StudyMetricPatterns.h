// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/ingest/LogMetricExtractor.h"

#include <QList>
#include <QString>

namespace scalelab {

struct StudyNotesContent {
    QString text;   // the researcher's free text
    QList<MetricPattern> patterns;   // user-defined log metrics of the study
    Diagnostics diagnostics;   // unreadable pattern entries (named by index)
};

// A study's user-defined metric patterns live in its notes: when the notes
// are a JSON object, "metricPatterns" is an array of
// {"name", "regex", "unit", "aggregation": "last|mean|max|min"} and "text"
// holds the free text. Plain-text notes (no JSON) are kept as the text.
class StudyMetricPatterns {
public:
    static StudyNotesContent read(const QString &notes);
    static QString write(const QString &text, const QList<MetricPattern> &patterns);
};

}   // namespace scalelab
