// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/slurm/SacctRecord.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace scalelab {

struct SacctParseResult {
    QList<SacctRecord> records;   // in output order, one per job id
    Diagnostics diagnostics;   // malformed lines (line number and text), never fatal
};

// Pure parser for `sacct --parsable2 --noheader --delimiter=D --format=F`.
// User text (WorkDir, Comment, JobName) comes last; pieces beyond the field
// count are joined back into the last field.
class SacctParser {
public:
    static QStringList defaultFields();
    static QString delimiter();   // "|~|"
    static QStringList formatArguments();   // --parsable2 --noheader --delimiter=.. --format=..

    explicit SacctParser(QStringList fields = defaultFields(), QString delimiter = SacctParser::delimiter());

    SacctParseResult parse(const QByteArray &out) const;
    // Output with a header line (plain `sacct --parsable2 --format=...`): the
    // header names the fields; for reading saved outputs.
    static SacctParseResult parseWithHeader(const QByteArray &out, const QString &delimiter = QStringLiteral("|"));

    // "62056K" -> 63545344; plain numbers are bytes; "" -> -1.
    static qint64 sizeToBytes(const QString &size);
    // Value of `key` in a TRES list "cpu=2,gres/gpu=2,mem=2000M" ("" if absent).
    static QString tresValue(const QString &tres, const QString &key);

private:
    QStringList m_fields;
    QString m_delimiter;
};

}   // namespace scalelab
