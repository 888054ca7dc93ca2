// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CliParser.h"

#include "app/cli/CliContext.h"

#include <algorithm>
#include <vector>

namespace scalelab {

namespace {

// Optimal string alignment distance: insertions, deletions, substitutions
// and swaps of neighbours ("stauts" is one step from "status").
int editDistance(const QString &a, const QString &b)
{
    const qsizetype n = a.size(), m = b.size();
    std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
    for (qsizetype i = 0; i <= n; ++i)
        d[i][0] = int(i);
    for (qsizetype j = 0; j <= m; ++j)
        d[0][j] = int(j);
    for (qsizetype i = 1; i <= n; ++i)
        for (qsizetype j = 1; j <= m; ++j) {
            const int cost = a[i - 1].toLower() == b[j - 1].toLower() ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[n][m];
}

QString dashed(const QString &name)
{
    return (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
}

}   // namespace

QString closestMatch(const QString &typed, const QStringList &candidates)
{
    QString best;
    int bestDistance = 0;
    for (const QString &c : candidates) {
        const int d = editDistance(typed, c);
        if (best.isEmpty() || d < bestDistance) {
            best = c;
            bestDistance = d;
        }
    }
    // Near enough: at most a third of the word wrong (and never the whole of
    // a short one), or the typed word is the start of the candidate.
    const qsizetype len = std::max(typed.size(), best.size());
    if (!best.isEmpty() && (bestDistance * 3 <= len || (typed.size() >= 2 && best.startsWith(typed))))
        return best;
    return {};
}

QString didYouMean(const QString &typed, const QStringList &candidates)
{
    const QString best = closestMatch(typed, candidates);
    return best.isEmpty() ? QString() : QStringLiteral(" (did you mean \"%1\"?)").arg(best);
}

CliParser::CliParser(const QString &command, const QString &synopsis, const QString &description)
    : m_command(command)
    , m_synopsis(synopsis)
    , m_description(description)
{
    // "-o FILE" and "-h" as single letters; "--" ends the options.
    m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsCompactedShortOptions);
    flag({QStringLiteral("json")}, QStringLiteral("print one JSON object with a \"schema\" field on stdout"));
    flag({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("show this help"));
}

CliParser &CliParser::flag(const QStringList &names, const QString &help)
{
    m_options << QCommandLineOption(names, help);
    m_parser.addOption(m_options.back());
    return *this;
}

CliParser &CliParser::value(const QStringList &names, const QString &valueName, const QString &help)
{
    m_options << QCommandLineOption(names, help, valueName);
    m_parser.addOption(m_options.back());
    return *this;
}

CliParser &CliParser::examples(const QStringList &lines)
{
    m_examples = lines;
    return *this;
}

CliParser &CliParser::footer(const QString &text)
{
    m_footer = text;
    return *this;
}

std::optional<QString> CliParser::value(const QString &name) const
{
    if (!m_parser.isSet(name))
        return std::nullopt;
    return m_parser.value(name);
}

std::optional<int> CliParser::parse(CliContext &ctx, const QStringList &args)
{
    const bool ok = m_parser.parse(QStringList{QStringLiteral("scalelab")} + args);
    if (ok && m_parser.isSet(QStringLiteral("help"))) {
        ctx.out << help();
        return int(ExitCode::Ok);
    }
    if (ok)
        return std::nullopt;
    const QString see = QStringLiteral("see `scalelab %1 --help`").arg(m_command);
    const QStringList unknown = m_parser.unknownOptionNames();
    if (!unknown.isEmpty()) {
        QStringList known;
        for (const auto &o : std::as_const(m_options))
            for (const QString &n : o.names())
                if (n.size() > 1)
                    known << dashed(n);
        const QString typed = dashed(unknown.front());
        return ctx.unusable(
            QStringLiteral("%1: unknown option %2%3; %4").arg(m_command, typed, didYouMean(typed, known), see));
    }
    // A missing value ("--profile" last) or a value given to a flag.
    return ctx.unusable(QStringLiteral("%1: %2 %3").arg(m_command, m_parser.errorText(), see));
}

QString CliParser::help() const
{
    QString h = QStringLiteral("Usage: scalelab %1 %2\n\n%3\n").arg(m_command, m_synopsis, m_description);
    if (!h.endsWith(QLatin1String("\n\n")))
        h += QLatin1Char('\n');
    h += QStringLiteral("Options:\n");
    QList<QPair<QString, QString>> rows;
    qsizetype width = 0;
    // Own options first, then --json and --help.
    QList<QCommandLineOption> ordered = m_options.mid(2);
    ordered << m_options.mid(0, 2);
    for (const auto &o : std::as_const(ordered)) {
        QStringList names;
        for (const QString &n : o.names())
            names << dashed(n);
        QString left = names.join(QStringLiteral(", "));
        if (!o.valueName().isEmpty())
            left += QLatin1Char(' ') + o.valueName();
        width = std::max(width, left.size());
        rows << qMakePair(left, o.description());
    }
    for (const auto &[left, text] : std::as_const(rows))
        h += QStringLiteral("  %1  %2\n").arg(left, -int(width)).arg(text);
    if (!m_footer.isEmpty())
        h += QLatin1Char('\n') + m_footer + (m_footer.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n"));
    if (!m_examples.isEmpty()) {
        h += QStringLiteral("\nExamples:\n");
        for (const QString &e : m_examples)
            h += QStringLiteral("  ") + e + QLatin1Char('\n');
    }
    return h;
}

}   // namespace scalelab
