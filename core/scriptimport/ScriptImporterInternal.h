// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/scriptimport: the importer behind importSbatchScript, one
// class in two files: reading the shell commands after the #SBATCH header
// (ScriptImporterCommands.cpp) and the rest, the run of the import and the
// program and framework the job is built from (ScriptImporter.cpp).

#include "core/base/ShellWords.h"
#include "core/model/ClusterProfile.h"
#include "core/scriptimport/ScriptImporter.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

#include <utility>

namespace scalelab::scriptimport {

class Importer {
public:
    Importer(const QString &text, const ClusterProfile &profile)
        : m_text(text)
        , m_profile(profile)
    {}

    ScriptImport run();

private:
    void add(Diagnostic d) { m_imp.diagnostics << std::move(d); }
    void attachFields();
    const SbatchOption *opt(const char *name) const { return m_imp.option(QString::fromLatin1(name)); }
    void seedSlurmVariables();

    struct Candidate {
        int line;
        QString text;
    };

    void readCommands(const ParsedSbatchScript &parsed);
    // One command of a line, by kind; each returns whether the command was of its kind.
    bool readDeclaration(const ShellCommand &rc, const ShellCommand &ec, const Candidate &at, int depth);
    bool readAssignments(const ShellCommand &rc, const ShellCommand &ec, const Candidate &at, int depth);
    bool readModule(const ShellCommand &rc, const Candidate &at, int depth);
    bool readLaunch(const ShellCommand &rc, const ShellCommand &ec, const ScriptLine &sl,
                    const ShellLexResult &expanded, const QString &source);
    static int launchScore(const LaunchCommand &l);
    void choosePrimary();
    void deriveFramework(const LaunchCommand &l);
    // The framework of a program srun (or the batch step) starts directly,
    // from the evidence the script gives (ScriptImporterFramework.cpp); *why
    // says which evidence decided, and names both sides when it conflicts.
    Framework srunFramework(const LaunchCommand &l, QString *why) const;
    bool needsShell(const QString &value) const;

    const QString &m_text;
    const ClusterProfile &m_profile;
    QSet<QString> m_shellVars;   // set by setup lines, not by exported variables
    ScriptImport m_imp;
    QHash<QString, QString> m_vars;
    QList<Candidate> m_setup;
};

}   // namespace scalelab::scriptimport
