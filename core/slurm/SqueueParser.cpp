// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/slurm/SqueueParser.h"

#include "core/base/RemoteValidation.h"
#include "core/slurm/SlurmOutputShape.h"

#include <QStringTokenizer>

#include <optional>

namespace scalelab {

namespace {
const char *kControllerDown = "Unable to contact slurm controller";

bool isUserText(const QString &code)
{
    return code == QLatin1String("%j") || code == QLatin1String("%k") || code == QLatin1String("%Z");
}
}   // namespace

QStringList SqueueParser::defaultFields()
{
    return {QStringLiteral("%i"), QStringLiteral("%T"), QStringLiteral("%r"), QStringLiteral("%P"),
            QStringLiteral("%M"), QStringLiteral("%l"), QStringLiteral("%D"), QStringLiteral("%N"),
            QStringLiteral("%b"), QStringLiteral("%V"), QStringLiteral("%S"), QStringLiteral("%Z"),
            QStringLiteral("%k"), QStringLiteral("%j")};
}

QString SqueueParser::delimiter()
{
    return QStringLiteral("|~|");
}

QString SqueueParser::formatArgument()
{
    return QStringLiteral("--format=") + defaultFields().join(delimiter());
}

SqueueParser::SqueueParser(QStringList fields, QString delimiter)
    : m_fields(std::move(fields))
    , m_delimiter(std::move(delimiter))
{}

bool SqueueParser::isControllerDown(const QByteArray &text)
{
    return text.contains(kControllerDown);
}

QString SqueueParser::controllerDownLine(const QByteArray &text)
{
    const QList<QByteArray> lines = text.split('\n');
    for (const QByteArray &l : lines)
        if (l.contains(kControllerDown))
            return RemoteValidation::sanitize(l, 400);
    return {};
}

namespace {

// A job id as squeue prints it: array elements print "123_4"; both halves must be digits.
bool isSqueueJobId(const QString &v)
{
    const QStringList idParts = v.split(QLatin1Char('_'));
    return idParts.size() <= 2 && RemoteValidation::isJobId(idParts[0])
           && (idParts.size() == 1 || !idParts[1].isEmpty());
}

// One field into the row; what is wrong with its value when it cannot be read.
std::optional<QString> applyField(SqueueRow &row, const QString &code, const QString &v)
{
    if (code == QLatin1String("%i") || code == QLatin1String("%A")) {
        row.jobId = v;
        if (!isSqueueJobId(v))
            return QStringLiteral("has an invalid job id \"%1\"").arg(v.left(40));
    } else if (code == QLatin1String("%T") || code == QLatin1String("%t")) {
        row.stateText = v;
        row.state = SlurmJobState::parse(v);
    } else if (code == QLatin1String("%r")) {
        row.reason = v;
    } else if (code == QLatin1String("%R")) {
        // Reason in parentheses while pending/failed, else the node list.
        if (v.startsWith(QLatin1Char('(')) && v.endsWith(QLatin1Char(')')))
            row.reason = v.mid(1, v.size() - 2);
        else
            row.nodeList = v;
    } else if (code == QLatin1String("%P")) {
        row.partition = v;
    } else if (code == QLatin1String("%M")) {
        row.timeUsed = v;
    } else if (code == QLatin1String("%l")) {
        row.timeLimit = v;
    } else if (code == QLatin1String("%D")) {
        bool ok = false;
        row.nodes = v.toInt(&ok);
        if (!ok)
            return QStringLiteral("has an invalid node count \"%1\"").arg(v.left(40));
    } else if (code == QLatin1String("%N")) {
        row.nodeList = v;
    } else if (code == QLatin1String("%b")) {
        row.tresPerNode = v;
    } else if (code == QLatin1String("%V")) {
        row.submitTime = v;
    } else if (code == QLatin1String("%S")) {
        row.startTime = v;
    } else if (code == QLatin1String("%Z")) {
        row.workDir = v;
    } else if (code == QLatin1String("%k")) {
        row.comment = v == QLatin1String("(null)") ? QString() : v;
    } else if (code == QLatin1String("%j")) {
        row.name = v;
    }
    return std::nullopt;
}

Diagnostic malformedLine(int lineNo, const QString &why, const QString &line)
{
    return Diagnostic{Severity::Warning,
                      QStringLiteral("squeue-malformed-line"),
                      {},
                      lineNo,
                      0,
                      QStringLiteral("squeue output line %1 %2: %3")
                          .arg(lineNo)
                          .arg(why, RemoteValidation::sanitize(line.toUtf8(), 200)),
                      {}};
}

}   // namespace

SqueueParseResult SqueueParser::parse(const QByteArray &out, const QByteArray &err) const
{
    SqueueParseResult result;
    if (isControllerDown(err) || isControllerDown(out)) {
        result.controllerDown = true;
        result.controllerMessage = controllerDownLine(isControllerDown(err) ? err : out);
        return result;
    }
    const qsizetype n = m_fields.size();
    if (auto problem = SlurmOutputShape::refusedLayout(
            out, m_delimiter, n, QStringLiteral("squeue"), 1,
            QStringLiteral("run squeue with --noheader and --format as ScaleLab does"))) {
        result.diagnostics << *problem;
        return result;
    }
    // Lines and fields are views into one decoded text: only the values a row
    // keeps are copied (a list of every line, then of every field, held the
    // whole output three times over and made large outputs memory-bound).
    const QString text = QString::fromUtf8(out);
    int lineNo = 0;
    for (QStringView line : QStringTokenizer(text, u'\n')) {
        ++lineNo;
        if (line.endsWith(u'\r'))
            line.chop(1);
        if (line.trimmed().isEmpty())
            continue;
        QList<QStringView> parts = line.split(m_delimiter);
        // `-O name:delimiter` ends every line with the delimiter.
        if (parts.size() == n + 1 && parts.last().isEmpty() && !isUserText(m_fields.last()))
            parts.removeLast();
        if (parts.size() > n && isUserText(m_fields.last())) {
            // The rest of the line from the last field on, delimiters and all.
            const QStringView first = parts[n - 1];
            parts.resize(n);
            parts[n - 1] = QStringView(first.data(), line.data() + line.size() - first.data());
        }
        if (parts.size() != n) {
            result.diagnostics << malformedLine(
                lineNo, QStringLiteral("has %1 fields, expected %2").arg(parts.size()).arg(n), line.toString());
            continue;
        }
        SqueueRow row;
        row.line = lineNo;
        std::optional<QString> problem;
        for (qsizetype f = 0; f < n && !problem; ++f)
            problem =
                applyField(row, m_fields[f], (isUserText(m_fields[f]) ? parts[f] : parts[f].trimmed()).toString());
        if (problem)
            result.diagnostics << malformedLine(lineNo, *problem, line.toString());
        else
            result.rows << std::move(row);
    }
    return result;
}

SqueueParseResult SqueueParser::parseWithHeader(const QByteArray &out, const QString &delimiter)
{
    // `squeue -O field:delimiter,...` prints upper-case names; the ones
    // ScaleLab reads map to their % codes, the rest are carried but ignored.
    // "JOBID" appears twice when both jobid (%A) and jobarrayid (%i) are asked.
    static const QList<QPair<QString, QString>> names{
        {QStringLiteral("STATE"), QStringLiteral("%T")},         {QStringLiteral("ST"), QStringLiteral("%t")},
        {QStringLiteral("REASON"), QStringLiteral("%r")},        {QStringLiteral("PARTITION"), QStringLiteral("%P")},
        {QStringLiteral("TIME"), QStringLiteral("%M")},          {QStringLiteral("TIME_LIMIT"), QStringLiteral("%l")},
        {QStringLiteral("NODES"), QStringLiteral("%D")},         {QStringLiteral("NODELIST"), QStringLiteral("%N")},
        {QStringLiteral("TRES_PER_NODE"), QStringLiteral("%b")}, {QStringLiteral("SUBMIT_TIME"), QStringLiteral("%V")},
        {QStringLiteral("START_TIME"), QStringLiteral("%S")},    {QStringLiteral("WORK_DIR"), QStringLiteral("%Z")},
        {QStringLiteral("COMMENT"), QStringLiteral("%k")},       {QStringLiteral("NAME"), QStringLiteral("%j")}};
    const qsizetype nl = out.indexOf('\n');
    if (nl < 0)
        return {};
    const QString header = QString::fromUtf8(out.left(nl)).trimmed();
    QStringList fields;
    QStringList seen;
    int jobIds = 0;
    for (const QString &raw : header.split(delimiter)) {
        const QString name = raw.trimmed();
        QString code = QStringLiteral("-");
        if (name == QLatin1String("JOBID"))
            code = ++jobIds == 1 ? QStringLiteral("%A") : QStringLiteral("%i");
        for (const auto &[n, c] : names)
            if (name == n && !seen.contains(name))
                code = c;
        seen << name;
        fields << code;
    }
    if (!fields.isEmpty() && header.endsWith(delimiter) && fields.last() == QLatin1String("-"))
        fields.removeLast();   // the trailing delimiter after the last name
    SqueueParseResult r = SqueueParser(fields, delimiter).parse(out.mid(nl + 1));
    for (auto &row : r.rows)
        row.line += 1;
    for (auto &d : r.diagnostics)
        d.line += 1;
    return r;
}

}   // namespace scalelab
