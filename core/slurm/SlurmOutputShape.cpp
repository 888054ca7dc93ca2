// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/slurm/SlurmOutputShape.h"

#include <QList>
#include <QRegularExpression>

namespace scalelab {

SlurmOutputShape::Kind SlurmOutputShape::classify(const QByteArray &text, const QString &delimiter)
{
    const QByteArray t = text.trimmed();
    if (t.isEmpty())
        return Kind::Empty;
    if (t.startsWith('{') || t.startsWith('['))
        return Kind::Json;
    const QList<QByteArray> lines = t.split('\n');
    const QByteArray delim = delimiter.toUtf8();
    int delimited = 0;
    for (const QByteArray &l : lines)
        if (!delim.isEmpty() && l.contains(delim))
            ++delimited;
    if (delimited > 0)
        return Kind::Delimited;
    // `scontrol show job|node|partition`: "Key=Value Key=Value" on (indented) lines.
    static const QRegularExpression kv(QStringLiteral("^\\s*[A-Z][A-Za-z]+=\\S*(\\s+[A-Z][A-Za-z:/]*=)"));
    if (kv.match(QString::fromUtf8(lines.first())).hasMatch())
        return Kind::KeyValueRecords;
    // Default squeue/sinfo or -O with widths: upper-case names separated by runs of blanks.
    static const QRegularExpression header(QStringLiteral("^\\s*[A-Z_()]+(\\s+[A-Z_():%/]+)+\\s*$"));
    if (header.match(QString::fromUtf8(lines.first())).hasMatch())
        return Kind::FixedWidthTable;
    return Kind::Other;
}

QString SlurmOutputShape::describe(Kind kind)
{
    switch (kind) {
    case Kind::Empty: return QStringLiteral("empty output");
    case Kind::Json: return QStringLiteral("JSON (--json or slurmrestd)");
    case Kind::KeyValueRecords: return QStringLiteral("`scontrol show` Key=Value records");
    case Kind::FixedWidthTable: return QStringLiteral("a blank-aligned table with a header (default or -O layout)");
    case Kind::Delimited: return QStringLiteral("delimited text");
    case Kind::Other: break;
    }
    return QStringLiteral("text in an unknown layout");
}

} // namespace scalelab
