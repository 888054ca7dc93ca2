// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QList>

namespace scalelab {

enum class Severity { Info, Warning, Error };

QString severityName(Severity s);

// A concrete change that resolves a diagnostic: set `field` of the job spec to
// `value`. The GUI applies it to the form; the CLI prints it.
struct Fix {
    QString field;   // job spec key, e.g. "partition", "nodes", "launcher"
    QString value;   // new value as text; empty with `clear` removes the key
    QString label;   // human text, e.g. "use gpumedium"
    bool clear = false;

    bool isValid() const { return !field.isEmpty() && !label.isEmpty(); }
    bool operator==(const Fix &) const = default;
};

// One finding about a spec, a profile or an imported script. The shape follows
// an issue list: severity, stable rule id, what it is about (a spec field and,
// for scripts, a line), a message and an optional fix.
struct Diagnostic {
    Severity severity = Severity::Error;
    QString rule;   // stable id, e.g. "gpus-per-node-exceeded"
    QString field;   // job spec key or "" when not about one field
    int line = 0;   // 1-based script/file line, 0 when not applicable
    int column = 0;   // 1-based, 0 when not applicable
    QString message;
    Fix fix;

    bool operator==(const Diagnostic &) const = default;
};

using Diagnostics = QList<Diagnostic>;

// A diagnostic in one call (rule ids and messages vary, the shape does not).
Diagnostic finding(Severity severity, const QString &rule, const QString &field, int line, const QString &message,
                   Fix fix = {});

bool hasErrors(const Diagnostics &diags);
int countOf(const Diagnostics &diags, Severity s);

}   // namespace scalelab
