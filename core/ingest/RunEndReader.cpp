// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/RunEndReader.h"

namespace scalelab {

namespace {

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// The word starting at `at` (up to a space).
std::string_view wordAt(std::string_view s, size_t at)
{
    if (at >= s.size())
        return {};
    const size_t end = s.find(' ', at);
    return s.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
}

// "*** JOB 77 ON node1 CANCELLED AT 2025-01-28T15:04:48 [DUE TO TIME LIMIT] ***"
std::optional<RunEnd> cancelled(std::string_view line, size_t stars)
{
    const size_t what = stars + 4;
    const std::string_view kind = wordAt(line, what);
    if (kind != "JOB" && kind != "STEP")
        return std::nullopt;
    const std::string_view id = wordAt(line, what + kind.size() + 1);
    const size_t cancelledAt = line.find(" CANCELLED AT ", what);
    if (id.empty() || id.front() < '0' || id.front() > '9' || cancelledAt == std::string_view::npos)
        return std::nullopt;   // "JOB %u" in a quoted format string is no end
    RunEnd e;
    e.scope = (kind == "JOB" ? QStringLiteral("job ") : QStringLiteral("step ")) + text(id);
    e.at = text(wordAt(line, cancelledAt + 14));
    const std::string_view reason = line.substr(cancelledAt);
    if (reason.find("DUE TO TIME LIMIT") != std::string_view::npos)
        e.kind = RunEnd::Kind::TimeLimit;
    else if (reason.find("DUE TO PREEMPTION") != std::string_view::npos)
        e.kind = RunEnd::Kind::Preempted;
    else if (reason.find("DUE TO NODE FAIL") != std::string_view::npos)
        e.kind = RunEnd::Kind::NodeFailure;
    return e;
}

// "srun: error: node1: task 3: Exited with exit code 1" (also "tasks 0-3:").
std::optional<RunEnd> exited(std::string_view line, size_t at)
{
    size_t i = at + std::string_view("Exited with exit code ").size();
    int code = 0;
    const size_t first = i;
    for (; i < line.size() && line[i] >= '0' && line[i] <= '9' && i - first < 4; ++i)
        code = code * 10 + (line[i] - '0');
    if (i == first || code == 0)
        return std::nullopt;
    RunEnd e;
    e.kind = RunEnd::Kind::ExitCode;
    e.exitCode = code;
    const size_t err = line.find("error: ");
    std::string_view who = err == std::string_view::npos ? std::string_view() : line.substr(err + 7, at - err - 7);
    while (!who.empty() && (who.back() == ' ' || who.back() == ':'))
        who.remove_suffix(1);
    const size_t colon = who.find(": ");
    e.scope = colon == std::string_view::npos
                  ? text(who)
                  : text(who.substr(colon + 2)) + QStringLiteral(" on ") + text(who.substr(0, colon));
    return e;
}

// "Detected 1 oom-kill event(s) in StepId=77.batch." (older: "in step 77.batch cgroup").
std::optional<RunEnd> oomKill(std::string_view line, size_t at)
{
    // "Detected <count> oom-kill event(s)": the count right before the words.
    size_t d = at;
    if (d == 0 || line[--d] != ' ')
        return std::nullopt;
    const size_t digitsEnd = d;
    while (d > 0 && line[d - 1] >= '0' && line[d - 1] <= '9')
        --d;
    if (d == digitsEnd || d < 9 || line.substr(d - 9, 9) != "Detected ")
        return std::nullopt;
    RunEnd e;
    e.kind = RunEnd::Kind::OutOfMemory;
    const size_t in = line.find(" in ", at);
    if (in != std::string_view::npos) {
        std::string_view scope = line.substr(in + 4);
        const size_t end = scope.find(". ");
        scope = scope.substr(0, end);
        if (scope.starts_with("step "))
            scope = wordAt(scope, 5);
        while (!scope.empty() && scope.back() == '.')
            scope.remove_suffix(1);
        e.scope = text(scope);
    }
    return e;
}

}   // namespace

QString RunEnd::kindId(Kind k)
{
    switch (k) {
    case Kind::Cancelled:
        return QStringLiteral("cancelled");
    case Kind::TimeLimit:
        return QStringLiteral("time-limit");
    case Kind::Preempted:
        return QStringLiteral("preempted");
    case Kind::NodeFailure:
        return QStringLiteral("node-failure");
    case Kind::OutOfMemory:
        return QStringLiteral("oom-kill");
    case Kind::ExitCode:
        return QStringLiteral("exit-code");
    }
    return {};
}

QString RunEnd::describe() const
{
    const QString when = at.isEmpty() ? QString() : QStringLiteral(" at %1").arg(at);
    switch (kind) {
    case Kind::Cancelled:
        return QStringLiteral("%1 cancelled%2").arg(scope, when);
    case Kind::TimeLimit:
        return QStringLiteral("%1 cancelled%2: time limit reached").arg(scope, when);
    case Kind::Preempted:
        return QStringLiteral("%1 cancelled%2: preempted").arg(scope, when);
    case Kind::NodeFailure:
        return QStringLiteral("%1 cancelled%2: node failure").arg(scope, when);
    case Kind::OutOfMemory:
        return QStringLiteral("%1: processes killed by the out-of-memory handler").arg(scope);
    case Kind::ExitCode:
        return QStringLiteral("%1 exited with code %2").arg(scope).arg(exitCode);
    }
    return {};
}

QList<QByteArray> RunEndReader::anchors()
{
    return {QByteArrayLiteral("*** "), QByteArrayLiteral("oom-kill event"),
            QByteArrayLiteral("Exited with exit code ")};
}

std::optional<RunEnd> RunEndReader::readLine(std::string_view line)
{
    std::optional<RunEnd> e;
    if (const size_t s = line.find("*** "); s != std::string_view::npos)
        e = cancelled(line, s);
    if (!e)
        if (const size_t s = line.find("oom-kill event"); s != std::string_view::npos)
            e = oomKill(line, s);
    if (!e)
        if (const size_t s = line.find("Exited with exit code "); s != std::string_view::npos)
            e = exited(line, s);
    if (e)
        e->text = text(trimmed(line));
    return e;
}

}   // namespace scalelab
