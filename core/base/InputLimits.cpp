// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/InputLimits.h"

#include <QFile>

#include <algorithm>

namespace scalelab {

namespace InputLimits {

FileRead readFile(const QString &path, const QString &what, qint64 maxBytes)
{
    FileRead r;
    r.problem.severity = Severity::Error;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        r.problem.rule = QStringLiteral("file-unreadable");
        r.problem.message = QStringLiteral("%1: cannot read this %2: %3").arg(path, what, f.errorString());
        return r;
    }
    // Read one byte past the cap so a file of exactly the cap is accepted and
    // a growing or special file (no size) is still caught.
    r.data = f.read(maxBytes + 1);
    if (r.data.size() > maxBytes) {
        r.data.clear();
        r.problem.rule = QStringLiteral("input-too-large");
        r.problem.message = QStringLiteral("%1: this %2 is larger than %3 MB, the most ScaleLab reads; "
                                           "it cannot be a real %2. Check that the right file was chosen.")
                                .arg(path, what)
                                .arg(maxBytes / (1024 * 1024));
        return r;
    }
    r.ok = true;
    return r;
}

Diagnostics capDiagnostics(Diagnostics diags, const QString &file, int max)
{
    if (diags.size() <= max)
        return diags;
    Severity gravest = Severity::Info;
    for (qsizetype i = max; i < diags.size(); ++i)
        gravest = std::max(gravest, diags[i].severity);
    const qsizetype dropped = diags.size() - max;
    diags.resize(max);
    diags << tooManyFindings(file, dropped, max, gravest);
    return diags;
}

Diagnostic tooManyFindings(const QString &file, qsizetype dropped, int max, Severity gravest)
{
    Diagnostic d;
    d.severity = gravest;
    d.rule = QStringLiteral("too-many-findings");
    d.message = QStringLiteral("%1: %2 more findings are not shown (at most %3 per file); fix the ones above first.")
                    .arg(file.isEmpty() ? QStringLiteral("<input>") : file)
                    .arg(dropped)
                    .arg(max);
    return d;
}

QString quoted(const QString &text, int max)
{
    if (text.size() <= max)
        return text;
    return text.left(max) + QStringLiteral("... (%1 more characters)").arg(text.size() - max);
}

}   // namespace InputLimits

}   // namespace scalelab
