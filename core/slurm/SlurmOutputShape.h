// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <optional>

namespace scalelab {

// What a Slurm client printed, judged by its shape only. Used to refuse, with
// a message naming what was seen, output that is not in the delimited layout
// ScaleLab asked for (a login shell's SQUEUE_FORMAT/SACCT_FORMAT, an alias, a
// wrapper script, or a saved file of another command), instead of misreading it.
class SlurmOutputShape {
public:
    enum class Kind { Empty, Json, KeyValueRecords, FixedWidthTable, Delimited, Other };
    static Kind classify(QByteArrayView text, const QString &delimiter);
    // "JSON (--json or slurmrestd)", "`scontrol show` Key=Value records", ...
    static QString describe(Kind kind);
    // The error `<command>-layout` (at `line`) when `out` is not `fields`
    // delimited fields per line; `fix` says how ScaleLab runs the command.
    static std::optional<Diagnostic> refusedLayout(QByteArrayView out, const QString &delimiter, qsizetype fields,
                                                   const QString &command, int line, const QString &fix);
};

}   // namespace scalelab
