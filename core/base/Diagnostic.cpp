// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/Diagnostic.h"

#include <algorithm>

namespace scalelab {

QString severityName(Severity s)
{
    switch (s) {
    case Severity::Info:
        return QStringLiteral("info");
    case Severity::Warning:
        return QStringLiteral("warning");
    case Severity::Error:
        return QStringLiteral("error");
    }
    return {};
}

Diagnostic finding(Severity severity, const QString &rule, const QString &field, int line, const QString &message,
                   Fix fix)
{
    Diagnostic d;
    d.severity = severity;
    d.rule = rule;
    d.field = field;
    d.line = line;
    d.message = message;
    d.fix = std::move(fix);
    return d;
}

bool hasErrors(const Diagnostics &diags)
{
    return std::any_of(diags.begin(), diags.end(), [](const Diagnostic &d) { return d.severity == Severity::Error; });
}

int countOf(const Diagnostics &diags, Severity s)
{
    return int(std::count_if(diags.begin(), diags.end(), [s](const Diagnostic &d) { return d.severity == s; }));
}

}   // namespace scalelab
