// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/scriptimport: the importer's one shell reader, the commands
// after the #SBATCH header read into variables (Slurm's own seeded first),
// modules, setup lines and launch lines.

#include "core/base/ShellWords.h"
#include "core/scriptimport/ScriptImporter.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

namespace scalelab::scriptimport {

// One command of the script: the physical line it starts on and its text as written.
struct CommandSource {
    int line;
    QString text;
};

// Reads the commands of one script into its ScriptImport: the spec's exported
// variables and modules, the module lines and every launch (imp.launches);
// the setup lines are kept for the importer, which takes those before the
// launch it builds the job from.
class ScriptCommandReader {
public:
    ScriptCommandReader(const QString &text, ScriptImport &imp)
        : m_text(text)
        , m_imp(imp)
    {}

    // Seeds Slurm's variables from imp.request, finds the lines a script
    // ScaleLab composed took from the spec, then reads every command.
    void read(const ParsedSbatchScript &parsed);
    // The script was composed by ScaleLab (its header says so).
    bool composed() const { return m_composed; }
    // The setup commands, in script order.
    const QList<CommandSource> &setup() const { return m_setup; }

private:
    const SbatchOption *opt(const char *name) const { return m_imp.option(QString::fromLatin1(name)); }
    void seedSlurmVariables();
    void readCommands(const ParsedSbatchScript &parsed);
    // A script ScaleLab composed: the lines that came from the spec (the rest is ScaleLab's own).
    void findComposedLines();
    void rememberValues(const ShellCommand &rc, const ShellCommand &ec);
    // One command of a line, by kind; each returns whether the command was of its kind.
    bool readDeclaration(const ShellCommand &rc, const ShellCommand &ec, const CommandSource &at, int depth);
    bool readAssignments(const ShellCommand &rc, const ShellCommand &ec, const CommandSource &at, int depth);
    bool readModule(const ShellCommand &rc, const CommandSource &at, int depth);
    bool readLaunch(const ShellCommand &rc, const ShellCommand &ec, const ScriptLine &sl,
                    const ShellLexResult &expanded, const QString &source);
    bool needsShell(const QString &value) const;

    const QString &m_text;
    ScriptImport &m_imp;
    bool m_composed = false;
    QSet<int> m_specLines;   // in a composed script: the lines from the spec
    QSet<QString> m_shellVars;   // set by setup lines, not by exported variables
    QHash<QString, QString> m_vars;
    QList<CommandSource> m_setup;
};

}   // namespace scalelab::scriptimport
