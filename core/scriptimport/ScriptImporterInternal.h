// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/scriptimport: the importer behind importSbatchScript: the run
// of the import and the program the job is built from. Its steps are classes of
// their own: the shell commands after the #SBATCH header (ScriptCommandReader)
// and the framework (ScriptFramework).

#include "core/model/ClusterProfile.h"
#include "core/scriptimport/ScriptCommandReader.h"
#include "core/scriptimport/ScriptImporter.h"

#include <QList>
#include <QString>

#include <utility>

namespace scalelab::scriptimport {

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
    void readComposedDefaults();
    static int launchScore(const LaunchCommand &l);
    void choosePrimary();

    const QString &m_text;
    const ClusterProfile &m_profile;
    const ImportContext &m_context;
    bool m_composed = false;
    ScriptImport m_imp;
    QList<CommandSource> m_setup;
};

}   // namespace scalelab::scriptimport
