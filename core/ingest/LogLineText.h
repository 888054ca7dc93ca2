// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace scalelab::logtext {

// Small pure helpers over one line of job output (raw bytes), shared by the
// log readers. None of them looks at more than the line it is given, and
// each is linear in it.

// Rank a launcher or framework put on the line: "[1,3]<stdout>:" (mpirun
// --tag-output), "[default3]:" (torchrun --tee), " 3: " (srun --label),
// "[Rank 3]" (DeepSpeed log_dist); -1 when there is none.
int lineRank(std::string_view line);

// The line without ANSI escape sequences (colours, cursor moves); `buf` holds
// the copy when one was needed.
std::string_view withoutAnsi(std::string_view line, std::string &buf);

// The number printed right before position `at` (spaces allowed between):
// "2.21it/s" with `at` on "it/s" -> 2.21. Looks back at most 64 characters;
// a longer run of digits is no metric and gives nothing.
std::optional<double> numberBefore(std::string_view line, size_t at);

// The number right after position `at`, after spaces, '=' or ':'.
std::optional<double> numberAfter(std::string_view line, size_t at);

// tqdm's counter before the rate at `at` ("| 400/1000 [04:37<04:31,  2.21it/s"
// with `at` on "it/s"): {400, 1000}. The same text the format_meter prints:
// '|', n, '/', total, " [", elapsed, '<', remaining, ',', spaces, the rate.
std::optional<std::pair<double, double>> tqdmCounter(std::string_view line, size_t at);

// Where the line (segment) holding `at` starts: after the last '\n' or '\r'
// before it, or `begin`; and where it ends: the first '\n' or '\r' at or
// after `at`, or `end`. 16 bytes at a time where SSE2 is there.
const char *lineStart(const char *begin, const char *at);
const char *lineEnd(const char *at, const char *end);

// Line breaks ('\n') in [from, to): 16 bytes at a time where SSE2 is there.
qint64 countNewlines(const char *from, const char *to);

// Whether `line` holds `text` (an empty text is in every line). Where SSE2 is
// there, 16 positions at a time are tested for the text's first and last
// bytes and only those holding both are compared: on the short lines of job
// output this costs a fraction of string_view::find, which compares at every
// occurrence of the first byte.
bool contains(std::string_view line, std::string_view text);

// Hugging Face's "H:MM:SS.ff" (datetime.timedelta + centiseconds) in seconds.
std::optional<double> duration(std::string_view text);

}   // namespace scalelab::logtext
