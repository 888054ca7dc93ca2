// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace scalelab {

// The line of a job's output that says why it failed, found by one rule:
// the EARLIEST line that reports an error. Later errors are consequences
// (torchrun's ChildFailedError and its traceback, "srun: error: task 0:
// Exited with exit code 1"), so the first one is the cause. A line reports an
// error when it is
//   - the "Name: message" line that closes a Python traceback, or any
//     unindented "SomethingError: …" / "…Exception: …" line, or
//   - a "<program>: error: …" / "ERROR: …" / "Error: …" line (slurmstepd,
//     srun, bash, Lmod), or a shell's "No such file or directory",
//     "command not found", "Permission denied", "Killed", "Segmentation fault",
//     "out of memory".
// Terminal rewrites are undone first: each '\r' segment of a line is read
// on its own and ANSI escape sequences are dropped (progress bars print the
// error into the same physical line). Pure, linear in the text.
struct FailureLine {
    int line = 0;   // 1-based physical line of the output
    QString text;   // the segment, trimmed, at most 300 characters
};

std::optional<FailureLine> findFailureLine(const QByteArray &output);

// The failure line of a finished run from its fetched output file
// (store.runFilesDirectory/scalelab-<job>.out, read through InputLimits),
// stored with the run so views show it without reading files. "" = none.
class RunStore;
QString recordFailureLine(RunStore &store, qint64 runId, const QString &outputPath);

}   // namespace scalelab
