// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/slurm/SacctParser.h"

#include "core/base/RemoteValidation.h"
#include "core/slurm/SlurmOutputShape.h"

#include <QHash>

#include <optional>

#include <cmath>

namespace scalelab {

namespace {

bool isUserTextField(const QString &f)
{
    const QString l = f.toLower();
    return l == QLatin1String("jobname") || l == QLatin1String("comment") || l == QLatin1String("workdir");
}

bool isValidJobIdPart(const QString &id)
{
    // "123", "123_4" (array element), "123+1" (het job component)
    QString base = id;
    for (QChar sep : {QLatin1Char('_'), QLatin1Char('+')}) {
        const qsizetype i = base.indexOf(sep);
        if (i > 0) {
            if (i == base.size() - 1)
                return false;
            base = base.left(i);
        }
    }
    return RemoteValidation::isJobId(base);
}

void applyJobField(SacctRecord &r, const QString &field, const QString &v)
{
    const QString f = field.toLower();
    if (f == QLatin1String("jobname"))
        r.jobName = v;
    else if (f == QLatin1String("state")) {
        r.stateText = v;
        r.state = SlurmJobState::parse(v);
    } else if (f == QLatin1String("exitcode"))
        r.exitCode = v;
    else if (f == QLatin1String("submit"))
        r.submit = v;
    else if (f == QLatin1String("start"))
        r.start = v;
    else if (f == QLatin1String("end"))
        r.end = v;
    else if (f == QLatin1String("elapsed"))
        r.elapsed = v;
    else if (f == QLatin1String("alloctres"))
        r.allocTres = v;
    else if (f == QLatin1String("maxrss"))
        r.maxRss = v;
    else if (f == QLatin1String("nodelist"))
        r.nodeList = v;
    else if (f == QLatin1String("reason"))
        r.reason = v;
    else if (f == QLatin1String("totalcpu"))
        r.totalCpu = v;
    else if (f == QLatin1String("alloccpus"))
        r.allocCpus = v.toInt();
    else if (f == QLatin1String("partition"))
        r.partition = v;
    else if (f == QLatin1String("account"))
        r.account = v;
    else if (f == QLatin1String("workdir"))
        r.workDir = v;
    else if (f == QLatin1String("comment"))
        r.comment = v == QLatin1String("(null)") ? QString() : v;
    else if (f == QLatin1String("tresusageinave"))
        r.tresUsageInAve = v;
    else if (f == QLatin1String("tresusageinmax"))
        r.tresUsageInMax = v;
    else if (f == QLatin1String("timelimit"))
        r.timelimit = v;
}

void applyStepField(SacctRecord::Step &s, const QString &field, const QString &v)
{
    const QString f = field.toLower();
    if (f == QLatin1String("jobname"))
        s.name = v;
    else if (f == QLatin1String("state")) {
        s.stateText = v;
        s.state = SlurmJobState::parse(v);
    } else if (f == QLatin1String("exitcode"))
        s.exitCode = v;
    else if (f == QLatin1String("maxrss"))
        s.maxRss = v;
    else if (f == QLatin1String("totalcpu"))
        s.totalCpu = v;
    else if (f == QLatin1String("nodelist"))
        s.nodeList = v;
    else if (f == QLatin1String("tresusageinave"))
        s.tresUsageInAve = v;
    else if (f == QLatin1String("tresusageinmax"))
        s.tresUsageInMax = v;
}

// Steps carry the memory numbers; the job line shows them empty.
void mergeSteps(SacctRecord &r)
{
    const SacctRecord::Step *best = nullptr;
    qint64 bestRss = -1;
    for (const auto &s : r.steps) {
        const qint64 rss = SacctParser::sizeToBytes(s.maxRss);
        if (rss > bestRss) {
            bestRss = rss;
            best = &s;
        }
    }
    if (!best) {
        for (const auto &s : r.steps)
            if (s.stepId == QLatin1String("batch"))
                best = &s;
    }
    if (!best)
        return;
    if (r.maxRss.isEmpty())
        r.maxRss = best->maxRss;
    if (r.tresUsageInAve.isEmpty())
        r.tresUsageInAve = best->tresUsageInAve;
    if (r.tresUsageInMax.isEmpty())
        r.tresUsageInMax = best->tresUsageInMax;
}

qsizetype jobIdIndex(const QStringList &fields)
{
    for (qsizetype i = 0; i < fields.size(); ++i)
        if (fields[i].compare(QLatin1String("JobID"), Qt::CaseInsensitive) == 0)
            return i;
    // JobIDRaw alone (jobstats and the like): array elements show their own id.
    for (qsizetype i = 0; i < fields.size(); ++i)
        if (fields[i].compare(QLatin1String("JobIDRaw"), Qt::CaseInsensitive) == 0)
            return i;
    return -1;
}

// `--parsable` (not --parsable2) ends every line with the delimiter. When
// the last field is user text, it must also be the one delimiter too many,
// since a name may end with the delimiter.
bool endsWithDelimiter(const QStringList &lines, qsizetype n, const QString &delimiter, bool lastIsUserText)
{
    bool trailingDelimiter = !delimiter.isEmpty();
    bool anyLine = false;
    for (QString l : lines) {
        if (l.endsWith(QLatin1Char('\r')))
            l.chop(1);
        if (l.trimmed().isEmpty())
            continue;
        anyLine = true;
        trailingDelimiter = trailingDelimiter && l.endsWith(delimiter) && (!lastIsUserText || l.count(delimiter) == n);
    }
    return trailingDelimiter && anyLine;
}

// One sacct line into its job's record: the job's own fields, or one more step.
class SacctLineReader {
public:
    SacctLineReader(SacctParseResult &result, const QStringList &fields, const QString &delimiter)
        : result(result)
        , fields(fields)
        , n(fields.size())
        , delimiter(delimiter)
        , idIndex(jobIdIndex(fields))
        , lastIsUserText(n > 0 && isUserTextField(fields.last()))
    {}

    bool trailingDelimiter = false;

    void read(QString line, int lineNo)
    {
        if (idIndex < 0) {
            malformed(line, lineNo, QStringLiteral("cannot be read: the format has no JobID field"));
            return;
        }
        if (trailingDelimiter)
            line.chop(delimiter.size());
        QStringList parts = line.split(delimiter);
        if (parts.size() > n && lastIsUserText) {
            const QString rest = parts.mid(n - 1).join(delimiter);
            parts = parts.mid(0, n - 1);
            parts << rest;
        }
        if (parts.size() != n) {
            malformed(line, lineNo, QStringLiteral("has %1 fields, expected %2").arg(parts.size()).arg(n));
            return;
        }
        for (qsizetype f = 0; f < n; ++f)
            if (!isUserTextField(fields[f]))
                parts[f] = parts[f].trimmed();
        const QString fullId = parts[idIndex];
        const QString baseId = fullId.section(QLatin1Char('.'), 0, 0);
        const QString stepId = fullId.contains(QLatin1Char('.')) ? fullId.section(QLatin1Char('.'), 1) : QString();
        if (!isValidJobIdPart(baseId) || (fullId.contains(QLatin1Char('.')) && stepId.isEmpty())) {
            malformed(line, lineNo, QStringLiteral("has an invalid job id \"%1\"").arg(fullId.left(40)));
            return;
        }
        add(recordOf(baseId), line, parts, stepId);
    }

private:
    void malformed(const QString &line, int lineNo, const QString &why)
    {
        result.diagnostics << Diagnostic{Severity::Warning,
                                         QStringLiteral("sacct-malformed-line"),
                                         {},
                                         lineNo,
                                         0,
                                         QStringLiteral("sacct output line %1 %2: %3")
                                             .arg(lineNo)
                                             .arg(why, RemoteValidation::sanitize(line.toUtf8(), 200)),
                                         {}};
    }

    SacctRecord &recordOf(const QString &baseId)
    {
        qsizetype idx = byId.value(baseId, -1);
        if (idx < 0) {
            SacctRecord r;
            r.jobId = baseId;
            result.records << r;
            idx = result.records.size() - 1;
            byId.insert(baseId, idx);
        }
        return result.records[idx];
    }

    void add(SacctRecord &rec, const QString &line, const QStringList &parts, const QString &stepId)
    {
        rec.rawLines << line;
        QMap<QString, QString> fieldMap;
        for (qsizetype f = 0; f < n; ++f)
            fieldMap.insert(fields[f], parts[f]);
        rec.lines << fieldMap;
        if (stepId.isEmpty()) {
            for (qsizetype f = 0; f < n; ++f)
                applyJobField(rec, fields[f], parts[f]);
            return;
        }
        SacctRecord::Step step;
        step.stepId = stepId;
        for (qsizetype f = 0; f < n; ++f)
            applyStepField(step, fields[f], parts[f]);
        rec.steps << step;
    }

    SacctParseResult &result;
    const QStringList &fields;
    const qsizetype n;
    const QString &delimiter;
    const qsizetype idIndex;
    const bool lastIsUserText;
    QHash<QString, qsizetype> byId;
};

// `out` is converted and split only once its shape is known to be the
// delimited layout: a megabyte of something else is refused in one pass.
SacctParseResult parseLines(QByteArrayView out, int firstLineNo, const QStringList &fields, const QString &delimiter)
{
    SacctParseResult result;
    if (auto problem = SlurmOutputShape::refusedLayout(
            out, delimiter, fields.size(), QStringLiteral("sacct"), firstLineNo,
            QStringLiteral("run sacct with --parsable2 --delimiter and --format as ScaleLab does (a SACCT_FORMAT or "
                           "alias in the login shell cannot override those)"))) {
        result.diagnostics << *problem;
        return result;
    }
    const QStringList lines = QString::fromUtf8(out).split(QLatin1Char('\n'));
    SacctLineReader reader(result, fields, delimiter);
    reader.trailingDelimiter =
        endsWithDelimiter(lines, fields.size(), delimiter, !fields.isEmpty() && isUserTextField(fields.last()));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString line = lines[i];
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (!line.trimmed().isEmpty())
            reader.read(line, firstLineNo + int(i));
    }
    for (auto &r : result.records)
        mergeSteps(r);
    return result;
}

}   // namespace

QStringList SacctParser::defaultFields()
{
    return {QStringLiteral("JobID"),
            QStringLiteral("State"),
            QStringLiteral("ExitCode"),
            QStringLiteral("Submit"),
            QStringLiteral("Start"),
            QStringLiteral("End"),
            QStringLiteral("Elapsed"),
            QStringLiteral("AllocTRES"),
            QStringLiteral("MaxRSS"),
            QStringLiteral("NodeList"),
            QStringLiteral("Reason"),
            QStringLiteral("TotalCPU"),
            QStringLiteral("AllocCPUS"),
            QStringLiteral("Partition"),
            QStringLiteral("Account"),
            QStringLiteral("TRESUsageInAve"),
            QStringLiteral("TRESUsageInMax"),
            QStringLiteral("Timelimit"),
            QStringLiteral("ConsumedEnergyRaw"),
            QStringLiteral("WorkDir"),
            QStringLiteral("Comment"),
            QStringLiteral("JobName")};
}

QString SacctParser::delimiter()
{
    return QStringLiteral("|~|");
}

QStringList SacctParser::formatArguments()
{
    return {QStringLiteral("--parsable2"), QStringLiteral("--noheader"), QStringLiteral("--delimiter=") + delimiter(),
            QStringLiteral("--format=") + defaultFields().join(QLatin1Char(','))};
}

SacctParser::SacctParser(QStringList fields, QString delimiter)
    : m_fields(std::move(fields))
    , m_delimiter(std::move(delimiter))
{}

SacctParseResult SacctParser::parse(const QByteArray &out) const
{
    return parseLines(out, 1, m_fields, m_delimiter);
}

SacctParseResult SacctParser::parseWithHeader(const QByteArray &out, const QString &delimiter)
{
    // The header is the first line that is not blank; the rest stays bytes
    // until parseLines knows its shape.
    QByteArrayView rest(out);
    while (!rest.isEmpty()) {
        const qsizetype nl = rest.indexOf('\n');
        const QByteArrayView line = nl < 0 ? rest : rest.first(nl);
        if (!line.trimmed().isEmpty())
            break;
        rest = nl < 0 ? QByteArrayView() : rest.sliced(nl + 1);
    }
    if (rest.isEmpty())
        return {};
    const qsizetype nl = rest.indexOf('\n');
    QString header = QString::fromUtf8(nl < 0 ? rest : rest.first(nl));
    if (header.endsWith(QLatin1Char('\r')))
        header.chop(1);
    return parseLines(nl < 0 ? QByteArrayView() : rest.sliced(nl + 1), 2, header.split(delimiter), delimiter);
}

qint64 SacctParser::sizeToBytes(const QString &size)
{
    QString s = size.trimmed();
    if (s.isEmpty())
        return -1;
    qint64 mult = 1;
    const QChar unit = s.back().toUpper();
    if (unit.isLetter()) {
        switch (unit.toLatin1()) {
        case 'K':
            mult = 1024LL;
            break;
        case 'M':
            mult = 1024LL * 1024;
            break;
        case 'G':
            mult = 1024LL * 1024 * 1024;
            break;
        case 'T':
            mult = 1024LL * 1024 * 1024 * 1024;
            break;
        case 'P':
            mult = 1024LL * 1024 * 1024 * 1024 * 1024;
            break;
        default:
            return -1;
        }
        s.chop(1);
    }
    bool ok = false;
    const double v = s.toDouble(&ok);
    // "inf", "nan" and 1e300 parse as doubles; converting them to qint64 is
    // undefined behaviour, so anything not below 2^63 bytes is "unknown".
    if (!ok || !std::isfinite(v) || v < 0)
        return -1;
    const double bytes = v * double(mult);
    if (!(bytes < 9.2e18))
        return -1;
    return qint64(bytes);
}

QString SacctParser::tresValue(const QString &tres, const QString &key)
{
    const QStringList items = tres.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &item : items) {
        const qsizetype eq = item.indexOf(QLatin1Char('='));
        if (eq > 0 && item.left(eq) == key)
            return item.mid(eq + 1);
    }
    return {};
}

int SacctRecord::exitStatus() const
{
    bool ok = false;
    const int v = exitCode.section(QLatin1Char(':'), 0, 0).toInt(&ok);
    return ok ? v : -1;
}

int SacctRecord::exitSignal() const
{
    bool ok = false;
    const int v = exitCode.section(QLatin1Char(':'), 1, 1).toInt(&ok);
    return ok ? v : -1;
}

qint64 SacctRecord::maxRssBytes() const
{
    return SacctParser::sizeToBytes(maxRss);
}

int SacctRecord::allocatedGpus() const
{
    return SacctParser::tresValue(allocTres, QStringLiteral("gres/gpu")).toInt();
}

}   // namespace scalelab
