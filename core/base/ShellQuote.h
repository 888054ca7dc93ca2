// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace scalelab {

// Quoting for POSIX sh, bash, zsh, dash, fish and tcsh alike: single quotes,
// a quote inside is written '"'"' (fish misreads the '\'' idiom) and a
// backslash outside the quotes as \\ (fish unescapes it inside them). Values
// with newlines cannot be quoted safely for tcsh, so they are refused.
class ShellQuote {
public:
    static QString quote(const QString &word);
    static QString join(const QStringList &argv);
    // For values inside a generated bash script where $VAR and ${VAR}
    // references should still expand (e.g. /tmp/$USER) but nothing else does:
    // double quotes with \ " ` and any other $ escaped.
    static QString quoteExpandingVariables(const QString &value);
    // Words made only of these characters need no quotes at all.
    static bool isPlain(const QString &word);
    // True when `word` can travel in a remote command line at all.
    static bool isSafeForRemote(const QString &word);
};

}   // namespace scalelab
