// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/sshconfig/SshHostConfig.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace scalelab {

// Our own reader of OpenSSH client config files (ssh_config(5)). libssh's
// parser is not used because in 0.10 it turns ProxyJump into a ProxyCommand
// that needs the ssh binary; here ProxyJump is kept as data and the jump is
// done natively by SshSession.
//
// Supported: Host (patterns with * ?, !negation, several per line), Match
// (only "Match all"; other criteria make the block never match), HostName,
// User, Port, IdentityFile (several), ProxyJump, UserKnownHostsFile (first
// file only), IdentitiesOnly, ConnectTimeout, ServerAliveInterval, Include
// (relative to ~/.ssh, globs). Other keywords are ignored. Keywords are
// case-insensitive; "Key=Value" and quoted values are accepted.
class SshConfigFile {
public:
    // $SCALELAB_SSH_CONFIG if set, else ~/.ssh/config.
    static QString defaultPath();
    // A config someone named must exist; only ~/.ssh/config, the default, may
    // be missing (as for ssh: then there is simply no config). `path` is the
    // file given (--ssh-config, the window's own config); "" stands for
    // defaultPath(). Returns "" or the error naming the file and, for
    // $SCALELAB_SSH_CONFIG, the variable: never a silent fallback to reading
    // the alias as a host name.
    static QString namedFileProblem(const QString &path);
    // Parses `path` (and its Includes). A missing file gives an empty config
    // and no findings. The config is a parse result, so it carries its findings
    // (diagnostics()) like every other parser, rather than one error text in an
    // out-parameter: what could be read is still usable.
    static SshConfigFile load(const QString &path);
    static SshConfigFile fromText(const QString &text, const QString &pathForMessages);

    // Every problem found, in file order (Includes where they are read): severity
    // Error, rule "ssh-config", field = the file the problem is in, line = its
    // line (0 for the whole file), message "file:line: what" or "file: what".
    // At most InputLimits::kMaxDiagnosticsPerFile are kept for the whole config
    // (Includes count too), then one "too-many-findings" with the count of the
    // rest, so a file of bad line after bad line stays linear.
    const Diagnostics &diagnostics() const { return m_diagnostics; }
    // The message of the first Error, "" when none: the one line a caller that
    // refuses a broken config shows.
    QString errorText() const
    {
        for (const Diagnostic &d : m_diagnostics)
            if (d.severity == Severity::Error)
                return d.message;
        return {};
    }

    SshHostConfig resolve(const QString &alias) const;
    // The Host names a researcher can pick: patterns without * ? or !, in
    // file order, each once (entries of a Match block are not aliases).
    QStringList hostAliases() const;
    // Whether `name` matches a comma/space separated pattern list (exposed for tests).
    static bool matchPatternList(const QStringList &patterns, const QString &name);
    static bool matchWildcard(const QString &pattern, const QString &name);
    // Host and user names that ssh would take for options are refused.
    static QString validateName(const QString &what, const QString &value);

    QString path() const { return m_path; }

    struct Entry {
        QStringList hostPatterns;   // empty = applies to all (before any Host line)
        bool matchNever = false;
        QString keyword;   // lower case
        QString value;
        QString file;
        int line = 0;
    };

private:
    bool parseFile(const QString &file, const QStringList &currentHost, bool currentMatchNever, int depth);
    bool parseText(const QString &text, const QString &file, QStringList currentHost, bool currentMatchNever,
                   int depth);
    // Reads the files an Include names; false when the include limit stops all reading.
    bool readInclude(const QStringList &words, const QString &file, int lineNo, const QStringList &currentHost,
                     bool currentMatchNever, int depth, bool *ok);
    // Records one Error about `file` (line 0: the whole file) unless the cap is
    // reached: past it, parsing goes on and the finding is only counted.
    void report(const QString &file, int line, const QString &message);
    void closeFindings();   // the count of findings past the cap, as one last finding

    QString m_path;
    QList<Entry> m_entries;
    Diagnostics m_diagnostics;
    qsizetype m_droppedFindings = 0;
    QStringList m_includeStack;   // canonical paths of the files being read, outermost first
    int m_filesRead = 0;   // all files read for this config, Includes counted each time
};

}   // namespace scalelab
