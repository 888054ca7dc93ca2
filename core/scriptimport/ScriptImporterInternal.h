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

// What the script's evidence says of its framework (ScriptImporterFramework.cpp).
struct FrameworkEvidence {
    bool found = false;
    bool exact = false;   // names one framework (DeepSpeed, Lightning, Horovod, JAX), not a family
    bool tensorflow = false;   // the family named is TensorFlow (else PyTorch) when not exact
    Framework framework = Framework::PytorchDdp;
    QString familyName;   // "JAX", "TensorFlow"
    QString said;   // the deciding clue: "the program imports jax"
    QString conflict;   // a clue that cannot be the same job: "module pytorch/2.4 suggests PyTorch"
};

class Importer {
public:
    Importer(const QString &text, const ClusterProfile &profile, const ImportContext &context)
        : m_text(text)
        , m_profile(profile)
        , m_context(context)
    {}

    ScriptImport run();

private:
    void add(Diagnostic d) { m_imp.diagnostics << std::move(d); }
    void attachFields();
    void keepSlurmOptions();
    const SbatchOption *opt(const char *name) const { return m_imp.option(QString::fromLatin1(name)); }
    void seedSlurmVariables();

    struct Candidate {
        int line;
        QString text;
    };

    void readCommands(const ParsedSbatchScript &parsed);
    // A script ScaleLab composed: the lines that came from the spec (the rest is ScaleLab's own).
    void findComposedLines();
    void rememberValues(const ShellCommand &rc, const ShellCommand &ec);
    void readComposedDefaults();
    // One command of a line, by kind; each returns whether the command was of its kind.
    bool readDeclaration(const ShellCommand &rc, const ShellCommand &ec, const Candidate &at, int depth);
    bool readAssignments(const ShellCommand &rc, const ShellCommand &ec, const Candidate &at, int depth);
    bool readModule(const ShellCommand &rc, const Candidate &at, int depth);
    bool readLaunch(const ShellCommand &rc, const ShellCommand &ec, const ScriptLine &sl,
                    const ShellLexResult &expanded, const QString &source);
    static int launchScore(const LaunchCommand &l);
    void choosePrimary();
    void deriveFramework(const LaunchCommand &l);
    void launcherFramework(const LaunchCommand &l, const FrameworkEvidence &e, QString *why);
    // Every clue the script and its program give, weighed (ScriptImporterFramework.cpp).
    FrameworkEvidence weighEvidence(const LaunchCommand &l) const;
    // The framework of a program srun (or the batch step) starts directly,
    // from the evidence and the process layout; *why says what decided.
    Framework srunFramework(const LaunchCommand &l, const FrameworkEvidence &e, QString *why) const;
    bool needsShell(const QString &value) const;

    const QString &m_text;
    const ClusterProfile &m_profile;
    const ImportContext &m_context;
    std::optional<QString> m_programSource;   // the program's text, when it is a local file
    bool m_composed = false;
    QSet<int> m_specLines;   // in a composed script: the lines from the spec
    QSet<QString> m_shellVars;   // set by setup lines, not by exported variables
    ScriptImport m_imp;
    QHash<QString, QString> m_vars;
    QList<Candidate> m_setup;
};

}   // namespace scalelab::scriptimport
