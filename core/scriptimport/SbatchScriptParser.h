// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QList>
#include <QString>
#include <QStringView>

#include <optional>

namespace scalelab {

// One #SBATCH option as sbatch reads it.
struct SbatchOption {
    QString name;   // canonical long name ("nodes"); as written when unknown
    QString written;   // spelling in the script ("-N", "--nodes")
    QString value;   // empty when the option takes none
    bool hasValue = false;
    int line = 0;   // 1-based
    int column = 0;   // 1-based, where the option starts
    bool operator==(const SbatchOption &) const = default;
};

// One logical shell line: backslash continuations and multi-line quotes are
// joined with '\n'. Comment-only and blank lines are not kept.
struct ScriptLine {
    QString text;   // as written (placeholders like <options> blanked out)
    int line = 0;   // first physical line
    int lastLine = 0;
    QList<int> lineOffsets;   // offset in `text` where physical line line+i starts

    int lineAt(int offset) const;   // physical line of a position in `text`
};

struct ParsedSbatchScript {
    QString interpreter;   // from the #! line
    QList<SbatchOption> options;   // in effect, in order
    QList<SbatchOption> disabledOptions;   // ##SBATCH lines
    QList<SbatchOption> ignoredOptions;   // #SBATCH after the first command
    QList<ScriptLine> lines;   // shell commands after the header
    int firstCommandLine = 0;   // 0 = none
    Diagnostics diagnostics;

    // The option in effect (sbatch lets a later one override an earlier one).
    const SbatchOption *find(const QString &name) const;
};

enum class SbatchArg { None, Required, Optional };

struct SbatchOptionInfo {
    const char *longName;
    char shortName;   // 0 = none
    SbatchArg arg;
};

// sbatch's options (Slurm 22.05, plus the few added up to 24.11). Long names match exactly or by an
// unambiguous prefix, as getopt_long does.
const SbatchOptionInfo *findSbatchLongOption(QStringView name, bool *ambiguous = nullptr);
const SbatchOptionInfo *findSbatchShortOption(QChar c);

// Why sbatch refuses an option scripts still carry (--workdir renamed
// --chdir, srun's --cpu-bind ...); nullopt for any other name.
std::optional<QString> removedSbatchOption(const QString &name);

// The first line as the kernel reads it: #!, an interpreter it can start,
// no byte-order mark before it and no non-ASCII character in it (a
// typographic dash in "#!/bin/sh -l" is a file name to sh). Adds its
// findings; returns the interpreter, "" when there is none.
QString checkFirstLine(const QString &firstLine, Diagnostics &out);

// Splits a script into #SBATCH options and shell lines. Never fails: every
// problem (binary data, DOS line breaks, options Slurm ignores, unknown
// options, unterminated quotes ...) is a diagnostic with its line.
ParsedSbatchScript parseSbatchScript(const QString &text);

}   // namespace scalelab
