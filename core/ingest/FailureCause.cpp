// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/FailureCause.h"

#include "core/base/InputLimits.h"
#include "core/store/RunStore.h"

#include <QRegularExpression>
#include <QStringList>

namespace scalelab {

namespace {

constexpr int kMaxText = 300;

QString withoutEscapes(QString s)
{
    // CSI sequences ("\x1b[2K", "\x1b[A") and lone ESC characters.
    static const QRegularExpression csi(QStringLiteral("\\x1b\\[[0-9;?]*[ -/]*[@-~]|\\x1b."));
    s.remove(csi);
    return s;
}

// "[1,0]<stderr>:" (mpirun), "0: " (srun --label) and "[rank3]: " prefixes
// name the process, not the message.
QString withoutRankPrefix(const QString &s)
{
    static const QRegularExpression prefix(
        QStringLiteral("^(\\[\\d+,\\d+\\]<(stdout|stderr)>:|\\d{1,5}: |\\[rank\\d+\\]:\\s?)"));
    QString out = s;
    out.remove(prefix);
    return out;
}

bool isPythonException(const QString &s)
{
    // Unindented "pkg.module.SomeError: message" or a bare "SomeError".
    static const QRegularExpression exc(
        QStringLiteral("^(?:[A-Za-z_][\\w]*\\.)*[A-Za-z_]\\w*(?:Error|Exception|Interrupt|Failure|Exit)(?::\\s|$)"));
    return exc.match(s).hasMatch();
}

// Where the report starts in `s`, or -1. "2.21it/s]slurmstepd: error: …"
// (a progress bar the error was printed into) starts at "slurmstepd".
qsizetype errorReportStart(const QString &s)
{
    static const QRegularExpression report(
        QStringLiteral("(^|:\\s)(error|ERROR|Error|FATAL|fatal)(:|\\s\\*\\*\\*)"
                       "|No such file or directory|command not found|Permission denied|Segmentation fault"
                       "|^Killed$|\\d+ Killed\\b|\\bout of memory\\b|\\bOOM Killed\\b|oom-kill"),
        QRegularExpression::CaseInsensitiveOption);
    // "error" alone in a table header ("busbw  error") is not a report: the
    // pattern needs "error:" at the start or after "program: ".
    const QRegularExpressionMatch m = report.match(s);
    if (!m.hasMatch())
        return -1;
    if (m.captured(1).isEmpty())
        return 0;   // "error: …" at the start, or a shell message: the whole line
    // Back over the program name before ": error:".
    qsizetype from = m.capturedStart(1);
    while (from > 0) {
        const QChar c = s.at(from - 1);
        if (!(c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('-') || c == QLatin1Char('.')
              || c == QLatin1Char('/')))
            break;
        --from;
    }
    return from;
}

}   // namespace

std::optional<FailureLine> findFailureLine(const QByteArray &output)
{
    const QString text = QString::fromUtf8(output);
    int lineNo = 0;
    qsizetype start = 0;
    while (start <= text.size()) {
        qsizetype end = text.indexOf(QLatin1Char('\n'), start);
        if (end < 0)
            end = text.size();
        ++lineNo;
        const QStringView physical = QStringView(text).mid(start, end - start);
        start = end + 1;
        if (physical.isEmpty())
            continue;
        for (const QStringView segment : physical.split(QLatin1Char('\r'), Qt::SkipEmptyParts)) {
            const QString clean = withoutRankPrefix(withoutEscapes(segment.toString()));
            const QString trimmed = clean.trimmed();
            if (trimmed.isEmpty())
                continue;
            // An indented "raise ValueError(...)" is a traceback frame, not the exception.
            const bool indented = clean.front().isSpace();
            if (!indented && isPythonException(trimmed))
                return FailureLine{lineNo, trimmed.left(kMaxText)};
            if (const qsizetype at = errorReportStart(trimmed); at >= 0)
                return FailureLine{lineNo, trimmed.mid(at).left(kMaxText)};
        }
        if (end == text.size())
            break;
    }
    return std::nullopt;
}

QString recordFailureLine(RunStore &store, qint64 runId, const QString &outputPath)
{
    const auto read = InputLimits::readFile(outputPath, QStringLiteral("job output"), InputLimits::kMaxFileBytes,
                                            InputLimits::Content::Log);
    if (!read.ok)
        return {};
    const auto found = findFailureLine(read.data);
    const QString text = found ? QStringLiteral("line %1: %2").arg(found->line).arg(found->text) : QString();
    if (!text.isEmpty())
        (void)store.setFailureLine(runId,
                                   text);   // the text is returned either way; a lost line is found again on view
    return text;
}

}   // namespace scalelab
