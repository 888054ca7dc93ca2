// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/slurm/SqueueRow.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace scalelab {

struct SqueueParseResult {
    QList<SqueueRow> rows;
    Diagnostics diagnostics;   // malformed lines (line number and text), never fatal
    bool controllerDown = false;   // "Unable to contact slurm controller"
    QString controllerMessage;   // Slurm's own line when controllerDown
};

// Pure parser for `squeue --noheader --format=<fields joined by delimiter>`.
// User text (comment, then the job name) comes last, so a delimiter inside a
// name cannot shift the other fields: extra pieces are joined back into the
// last field. The default layout is what SlurmClient asks for.
class SqueueParser {
public:
    // Field codes of the default layout, in order.
    static QStringList defaultFields();
    static QString delimiter();   // "|~|": printable (control characters cannot travel in argv)
    static QString formatArgument();   // "--format=%i|~|%T|~|..."

    // `fields` are squeue % codes: %i %A %T %t %r %R %P %M %l %D %N %b %V %S %Z %k %j %u
    explicit SqueueParser(QStringList fields = defaultFields(), QString delimiter = SqueueParser::delimiter());

    SqueueParseResult parse(const QByteArray &out, const QByteArray &err = {}) const;
    // `squeue -O name:D,...` output with its header line (saved outputs):
    // columns are found by their printed names.
    static SqueueParseResult parseWithHeader(const QByteArray &out, const QString &delimiter);

    // True when `text` (stdout or stderr of any Slurm client) says slurmctld is unreachable.
    static bool isControllerDown(const QByteArray &text);
    static QString controllerDownLine(const QByteArray &text);

private:
    QStringList m_fields;
    QString m_delimiter;
};

}   // namespace scalelab
