// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/scriptimport: the framework of an imported job, from the
// evidence the script gives and the launch it is built from.

#include "core/model/Framework.h"
#include "core/scriptimport/ScriptImporter.h"

#include <QString>

#include <optional>

namespace scalelab::scriptimport {

// What the script's evidence says of its framework.
struct FrameworkEvidence {
    bool found = false;
    bool exact = false;   // names one framework (DeepSpeed, Lightning, Horovod, JAX), not a family
    bool tensorflow = false;   // the family named is TensorFlow (else PyTorch) when not exact
    Framework framework = Framework::PytorchDdp;
    QString familyName;   // "JAX", "TensorFlow"
    QString said;   // the deciding clue: "the program imports jax"
    QString conflict;   // a clue that cannot be the same job: "module pytorch/2.4 suggests PyTorch"
};

class ScriptFramework {
public:
    // Sets imp.spec's launcher and framework for the launch `l` (one of
    // imp.launches), what decided (imp.frameworkEvidence) and any doubt
    // (imp.frameworkUnsure, imp.frameworkGuessed), each said in a finding.
    // `text` is the script, `programSource` the program's text when it is a local file.
    static void derive(ScriptImport &imp, const LaunchCommand &l, const QString &text,
                       const std::optional<QString> &programSource);

private:
    static void launcherFramework(ScriptImport &imp, const LaunchCommand &l, const FrameworkEvidence &e, QString *why);
    // Every clue the script and its program give, weighed.
    static FrameworkEvidence weighEvidence(const LaunchCommand &l, const QString &text, const JobSpec &spec,
                                           const std::optional<QString> &programSource);
    // The framework of a program srun (or the batch step) starts directly,
    // from the evidence and the process layout; *why says what decided.
    static Framework srunFramework(const LaunchCommand &l, const ScriptRequest &r, const FrameworkEvidence &e,
                                   QString *why);
};

}   // namespace scalelab::scriptimport
