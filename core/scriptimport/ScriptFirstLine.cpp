// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/SbatchScriptParser.h"

#include "core/base/InputLimits.h"

#include <QSet>

// The first line decides which program runs the script. The kernel reads
// it byte for byte: a byte-order mark before "#!", or a typographic dash
// in "#!/bin/sh -l", makes the job fail before its first command, with an
// error message that names neither.

namespace scalelab {

namespace {

Diagnostic firstLineFinding(Severity sev, const char *rule, int column, const QString &message)
{
    Diagnostic d = finding(sev, QString::fromLatin1(rule), QString(), 1, message);
    d.column = column;
    return d;
}

// Programs that run batch scripts: shells, and the interpreters some sites
// accept for scripts whose #SBATCH lines are comments to them too.
bool knownInterpreter(const QString &program)
{
    static const QSet<QString> known = {
        QStringLiteral("bash"), QStringLiteral("sh"),      QStringLiteral("zsh"),   QStringLiteral("ksh"),
        QStringLiteral("dash"), QStringLiteral("tcsh"),    QStringLiteral("csh"),   QStringLiteral("fish"),
        QStringLiteral("perl"), QStringLiteral("Rscript"), QStringLiteral("julia"),
    };
    const QString base = program.section(QLatin1Char('/'), -1);
    return known.contains(base) || base.startsWith(QLatin1String("python"));
}

// The first character outside printable ASCII (tabs allowed), -1 when none.
int nonAsciiAt(const QString &line)
{
    for (int i = 0; i < line.size(); ++i) {
        const char16_t c = line.at(i).unicode();
        if ((c < 0x20 && c != u'\t') || c > 0x7e)
            return i;
    }
    return -1;
}

void checkInterpreter(const QString &line, Diagnostics &out)
{
    QStringList words = line.mid(2).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words.isEmpty()) {
        out << firstLineFinding(Severity::Error, "missing-shebang", 1,
                                QStringLiteral("#! names no interpreter; write #!/bin/bash."));
        return;
    }
    QString program = words.front();
    if (program.section(QLatin1Char('/'), -1) == QLatin1String("env") && words.size() > 1)
        program = words.at(1).startsWith(QLatin1Char('-')) ? words.value(2) : words.at(1);
    else if (!program.startsWith(QLatin1Char('/')))
        out << firstLineFinding(
            Severity::Warning, "unknown-interpreter", 3,
            QStringLiteral("#!%1 is not an absolute path; the kernel looks for it in the folder the "
                           "job starts in. Write #!/bin/%1.")
                .arg(InputLimits::quoted(program)));
    if (!program.isEmpty() && !knownInterpreter(program))
        out << firstLineFinding(Severity::Warning, "unknown-interpreter", 3,
                                QStringLiteral("#!%1: %2 is not a shell ScaleLab knows, so the script may not run as "
                                               "a shell script (a typo in the path?). Write #!/bin/bash.")
                                    .arg(InputLimits::quoted(line.mid(2).trimmed()),
                                         InputLimits::quoted(program.section(QLatin1Char('/'), -1))));
}

}   // namespace

QString checkFirstLine(const QString &firstLine, Diagnostics &out)
{
    QString line = firstLine;
    if (line.startsWith(QChar(0xfeff))) {
        out << firstLineFinding(Severity::Error, "byte-order-mark", 1,
                                QStringLiteral("The script starts with a byte-order mark (bytes EF BB BF) before #!, "
                                               "so no interpreter is found and the job fails before its first "
                                               "command. Save the file as UTF-8 without BOM."));
        line.remove(0, 1);
    }
    if (!line.startsWith(QLatin1String("#!"))) {
        out << firstLineFinding(Severity::Error, "missing-shebang", 1,
                                QStringLiteral("The first line must start with #! and an interpreter (e.g. "
                                               "#!/bin/bash); sbatch refuses scripts without it."));
        return {};
    }
    if (const int at = nonAsciiAt(line); at >= 0) {
        out << firstLineFinding(Severity::Error, "shebang-non-ascii", at + 1,
                                QStringLiteral("The first line holds U+%1 at column %2, which is not plain ASCII: the "
                                               "kernel passes it on as part of the interpreter's name or argument "
                                               "(a typographic dash is not \"-\"), and the job fails before its "
                                               "first command. Retype the line in ASCII.")
                                    .arg(QString::number(line.at(at).unicode(), 16).toUpper().rightJustified(4, u'0'))
                                    .arg(at + 1));
        return line.mid(2).trimmed();
    }
    checkInterpreter(line, out);
    return line.mid(2).trimmed();
}

}   // namespace scalelab
