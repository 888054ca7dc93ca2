// SPDX-License-Identifier: GPL-3.0-or-later
// sbatch --test-only's reply: the start line, or the refusal.
#include "core/slurm/SbatchTestOnlyParser.h"

#include "core/slurm/SlurmTime.h"

#include <QStringView>

namespace scalelab {

namespace {

constexpr int kMaxLines = 200;   // a reply is a few lines; a flood is cut, not scanned
constexpr int kMaxLineChars = 2000;

// "sbatch: " / "sbatch: error: " / "allocation failure: " stripped, once.
QStringView withoutPrefix(QStringView line, bool *error)
{
    static const QString kSbatch = QStringLiteral("sbatch: ");
    static const QString kError = QStringLiteral("error: ");
    static const QString kAlloc = QStringLiteral("allocation failure: ");
    if (line.startsWith(kSbatch))
        line = line.mid(kSbatch.size());
    if (line.startsWith(kError)) {
        *error = true;
        line = line.mid(kError.size());
    } else if (line.startsWith(kAlloc)) {
        *error = true;
        line = line.mid(kAlloc.size());
    }
    return line.trimmed();
}

// The text between `from` (found after `pos`) and the next `to` (or the end
// when `to` is empty); advances pos. Plain searches: linear.
std::optional<QStringView> between(QStringView line, qsizetype &pos, QStringView from, QStringView to)
{
    const qsizetype a = line.indexOf(from, pos);
    if (a < 0)
        return std::nullopt;
    const qsizetype start = a + from.size();
    const qsizetype b = to.isEmpty() ? line.size() : line.indexOf(to, start);
    if (b < 0)
        return std::nullopt;
    pos = b;
    return line.mid(start, b - start);
}

// "Job 47 to start at T using 1 processors on nodes N[ in partition P]".
bool readStartLine(QStringView line, TestOnlyReply &r)
{
    qsizetype pos = 0;
    if (!line.startsWith(u"Job "))
        return false;
    const auto id = between(line, pos, u"Job ", u" to start at ");
    const auto at = between(line, pos, u" to start at ", u" using ");
    const auto procs = between(line, pos, u" using ", u" processors on nodes ");
    if (!id || !at || !procs)
        return false;
    const qsizetype nodesFrom = pos + qsizetype(QStringView(u" processors on nodes ").size());
    const qsizetype partAt = line.indexOf(u" in partition ", nodesFrom);
    bool okId = false, okProcs = false;
    (void)id->toULongLong(&okId);
    const int p = procs->toInt(&okProcs);
    if (!okId || !okProcs)
        return false;
    r.jobId = id->toString();
    r.startText = at->trimmed().toString();
    r.start = SlurmTime::parseTimestamp(r.startText);
    r.processors = p;
    r.nodes = (partAt < 0 ? line.mid(nodesFrom) : line.mid(nodesFrom, partAt - nodesFrom)).trimmed().toString();
    if (partAt >= 0)
        r.partition = line.mid(partAt + qsizetype(QStringView(u" in partition ").size())).trimmed().toString();
    r.willRun = true;
    return true;
}

}   // namespace

TestOnlyParse SbatchTestOnlyParser::parse(const QString &text)
{
    TestOnlyParse out;
    TestOnlyReply &r = out.reply;
    QStringList refusals;
    int lineNo = 0;
    for (QStringView raw : QStringView(text).split(u'\n')) {
        if (++lineNo > kMaxLines)
            break;
        raw = raw.left(kMaxLineChars).trimmed();
        if (raw.isEmpty())
            continue;
        bool error = false;
        const QStringView line = withoutPrefix(raw, &error);
        if (!error && readStartLine(line, r))
            continue;
        if (!error && line.startsWith(u"Preempts:")) {
            r.preempts = line.mid(9).trimmed().toString();
        } else if (error || line.startsWith(u"Job ")) {
            refusals << line.toString();
            if (!error)
                out.diagnostics << finding(
                    Severity::Warning, QStringLiteral("testonly-unreadable"), {}, lineNo,
                    QStringLiteral("sbatch --test-only line %1 is not Slurm's start line").arg(lineNo));
        } else {
            r.siteMessages << line.toString();
        }
    }
    if (!r.willRun)
        r.refusal =
            refusals.isEmpty() ? r.siteMessages.join(QStringLiteral("; ")) : refusals.join(QStringLiteral("; "));
    return out;
}

}   // namespace scalelab
