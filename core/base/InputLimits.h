// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/base/Result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QFile>
#include <QString>

#include <memory>
#include <optional>

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
// A stream (stdin) that sends nothing for this long is given up on, and so is
// one that has not ended after kStreamTotalMs: a writer that never closes
// cannot hang a command.
constexpr int kStreamIdleMs = 60 * 1000;
constexpr int kStreamTotalMs = 10 * 60 * 1000;

// What the bytes must be. Text: UTF-8 (a UTF-16/32 file or a NUL byte is
// refused, naming the file and line). Log: job output, where NUL bytes happen
// (a node that crashed leaves blocks of them) but UTF-16 is still refused.
// Binary: a format with its own framing and checks (TensorBoard event files):
// no encoding is checked, only the file's type and size.
enum class Content { Text, Log, Binary };

struct FileRead {
    QByteArray data;
    bool ok = false;
    Diagnostic problem;   // rule "file-unreadable" or "input-too-large" when !ok
};

// The one way ScaleLab opens a file from outside: only a regular file is
// opened; a FIFO, device, socket or directory is refused by its type before
// any read (so a FIFO without a writer cannot hang the caller, /dev/zero
// cannot fill memory). The message names the path and what it is. `what` is
// how the message calls the file ("profile", "job spec", "script").
Result<std::unique_ptr<QFile>> openFile(const QString &path, const QString &what);

// Reads a whole regular file (openFile) of at most `maxBytes`, counted while
// reading; a larger, unreadable or non-regular file, or one whose bytes are
// not `content`, is refused with a message naming it and the limit.
FileRead readFile(const QString &path, const QString &what, qint64 maxBytes = kMaxFileBytes,
                  Content content = Content::Text);

// Reads a stream (stdin: `fd` 0) to its end with the same size cap, giving up
// when no byte came for `idleMs` or the end did not come within `totalMs`.
// `name` is how messages call it ("<stdin>").
FileRead readStream(int fd, const QString &name, const QString &what, qint64 maxBytes = kMaxFileBytes,
                    Content content = Content::Text, int idleMs = kStreamIdleMs, int totalMs = kStreamTotalMs);

// A UTF-16/UTF-32 text or (Content::Text) a NUL byte in `data`, as a finding
// naming `name`, the line and what to do; nullopt when the bytes may be read.
std::optional<Diagnostic> encodingProblem(QByteArrayView data, const QString &name, const QString &what,
                                          Content content = Content::Text);

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
