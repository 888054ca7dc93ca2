// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/slurm/SlurmOutputShape.h"

#include <QRegularExpression>

namespace scalelab {

// One pass over the text and no copy of it: this runs on every poll and on
// whatever a site prints, megabytes of it included (issue 11: growth).
SlurmOutputShape::Kind SlurmOutputShape::classify(QByteArrayView text, const QString &delimiter)
{
    const QByteArrayView t = text.trimmed();
    if (t.isEmpty())
        return Kind::Empty;
    if (t.startsWith('{') || t.startsWith('['))
        return Kind::Json;
    // "Some line holds the delimiter" is "the text holds it" for a delimiter
    // without a newline (one with a newline can never be inside a line).
    const QByteArray delim = delimiter.toUtf8();
    if (!delim.isEmpty() && !delim.contains('\n') && t.contains(delim))
        return Kind::Delimited;
    // Both layouts below start (after blanks) with an upper-case name; any other
    // first byte rules them out without converting a possibly huge first line.
    const qsizetype nl = t.indexOf('\n');
    const QByteArrayView first = nl < 0 ? t : t.first(nl);
    const char c0 = first.trimmed().isEmpty() ? '\0' : first.trimmed().front();
    if (!((c0 >= 'A' && c0 <= 'Z') || c0 == '_' || c0 == '('))
        return Kind::Other;
    const QString firstLine = QString::fromUtf8(first);
    // `scontrol show job|node|partition`: "Key=Value Key=Value" on (indented) lines.
    static const QRegularExpression kv(QStringLiteral("^\\s*[A-Z][A-Za-z]+=\\S*(\\s+[A-Z][A-Za-z:/]*=)"));
    if (kv.match(firstLine).hasMatch())
        return Kind::KeyValueRecords;
    // Default squeue/sinfo or -O with widths: upper-case names separated by runs of blanks.
    static const QRegularExpression header(QStringLiteral("^\\s*[A-Z_()]+(\\s+[A-Z_():%/]+)+\\s*$"));
    if (header.match(firstLine).hasMatch())
        return Kind::FixedWidthTable;
    return Kind::Other;
}

QString SlurmOutputShape::describe(Kind kind)
{
    switch (kind) {
    case Kind::Empty:
        return QStringLiteral("empty output");
    case Kind::Json:
        return QStringLiteral("JSON (--json or slurmrestd)");
    case Kind::KeyValueRecords:
        return QStringLiteral("`scontrol show` Key=Value records");
    case Kind::FixedWidthTable:
        return QStringLiteral("a blank-aligned table with a header (default or -O layout)");
    case Kind::Delimited:
        return QStringLiteral("delimited text");
    case Kind::Other:
        break;
    }
    return QStringLiteral("text in an unknown layout");
}

std::optional<Diagnostic> SlurmOutputShape::refusedLayout(QByteArrayView out, const QString &delimiter,
                                                          qsizetype fields, const QString &command, int line,
                                                          const QString &fix)
{
    if (fields <= 1)
        return std::nullopt;
    const Kind kind = classify(out, delimiter);
    if (kind == Kind::Delimited || kind == Kind::Empty)
        return std::nullopt;
    return Diagnostic{Severity::Error,
                      command + QStringLiteral("-layout"),
                      {},
                      line,
                      0,
                      QStringLiteral("%1 output is %2, not the %3 fields separated by \"%4\" "
                                     "that were asked for; nothing was read")
                          .arg(command, describe(kind))
                          .arg(fields)
                          .arg(delimiter),
                      fix};
}

}   // namespace scalelab
