// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QByteArray>
#include <QString>

namespace scalelab {

// Caps on what ScaleLab reads from outside (files a researcher or a site
// gives it). Each cap, when hit, becomes a diagnostic: never a silent cut.
namespace InputLimits {

// Profiles, job specs, sbatch scripts, ssh config and known_hosts files.
constexpr qint64 kMaxFileBytes = 16 * 1024 * 1024;
// Findings kept per file; the rest are counted in one closing finding.
constexpr int kMaxDiagnosticsPerFile = 200;
// Characters of one input line quoted back in a message.
constexpr int kMaxQuotedChars = 120;
// Characters of one shell command (a logical line of a script) that the
// script importer reads. Linux starts no program with an argument over
// 128 KB; a longer line is generated data, reported and not read.
constexpr int kMaxCommandChars = 256 * 1024;

struct FileRead {
    QByteArray data;
    bool ok = false;
    Diagnostic problem;   // rule "file-unreadable" or "input-too-large" when !ok
};

// Reads a whole file of at most `maxBytes`; a larger or unreadable file is
// refused with a message naming it and the limit. `what` is how the message
// calls the file ("profile", "job spec", "script").
FileRead readFile(const QString &path, const QString &what, qint64 maxBytes = kMaxFileBytes);

// Keeps the first `max` findings; the rest become one closing finding with
// the count and the gravest severity among them (so "errors found" stays true).
Diagnostics capDiagnostics(Diagnostics diags, const QString &file, int max = kMaxDiagnosticsPerFile);
// That closing finding, for readers that stop recording at the cap and count the rest.
Diagnostic tooManyFindings(const QString &file, qsizetype dropped, int max, Severity gravest);

// `text` shortened to `max` characters for quoting in a message, saying how
// much was left out.
QString quoted(const QString &text, int max = kMaxQuotedChars);

}   // namespace InputLimits

}   // namespace scalelab
