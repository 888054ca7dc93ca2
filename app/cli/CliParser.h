// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <optional>

namespace scalelab {

class CliContext;

// The closest of `candidates` to `typed` when it is near enough to be a
// likely typo (edit distance with transpositions), else "".
QString closestMatch(const QString &typed, const QStringList &candidates);
// " (did you mean \"X\"?)" or "".
QString didYouMean(const QString &typed, const QStringList &candidates);

// One command's options, parsed by QCommandLineParser, with the house's
// help layout (usage, description, options, examples) and its errors:
// an unknown option or a missing value exits 2 with a did-you-mean.
// Every command gets -h/--help and --json.
//   "--" ends the options; "-" is a positional (stdin where a file is read).
class CliParser {
public:
    CliParser(const QString &command, const QString &synopsis, const QString &description);

    CliParser &flag(const QStringList &names, const QString &help);
    CliParser &value(const QStringList &names, const QString &valueName, const QString &help);
    CliParser &examples(const QStringList &lines);
    CliParser &footer(const QString &text);   // extra help text after the options

    // Parses `args` (the words after the command). Returns the exit code when
    // the command is done (help printed: 0; bad options: 2, reason printed),
    // nullopt when it should run.
    std::optional<int> parse(CliContext &ctx, const QStringList &args);

    bool isSet(const QString &name) const { return m_parser.isSet(name); }
    std::optional<QString> value(const QString &name) const;
    QStringList positional() const { return m_parser.positionalArguments(); }
    QString help() const;

private:
    QString m_command;
    QString m_synopsis;
    QString m_description;
    QStringList m_examples;
    QString m_footer;
    QList<QCommandLineOption> m_options;
    QCommandLineParser m_parser;
};

}   // namespace scalelab
