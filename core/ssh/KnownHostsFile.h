// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/base/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace scalelab {

// Reads and appends OpenSSH known_hosts files (sshd(8) "SSH_KNOWN_HOSTS FILE
// FORMAT"): plain and hashed (|1|salt|hash) host fields, comma lists,
// [host]:port for ports other than 22, wildcards and !negation, comments,
// and the @revoked marker. @cert-authority lines are ignored (no certificate
// support). Our own code so that the verdict, the file and the line of a
// conflicting entry are known exactly.
class KnownHostsFile {
public:
    enum class Status {
        Match,   // the key is known for this host
        Unknown,   // the host has no key in the file
        Changed,   // the host is known with another key of the same type
        OtherType,   // the host is known only with keys of other types: treat as attack
        Revoked   // the key is marked @revoked
    };
    struct Result {
        Status status = Status::Unknown;
        QString path;
        int line = 0;   // 1-based line of the matching or conflicting entry, 0 = none
        // Set when the file exists but was not read: larger than
        // InputLimits::kMaxFileBytes (rule "input-too-large") or unreadable
        // ("file-unreadable"). Nothing in it could be checked, so the status
        // is Unknown and append() refuses the file; the message says why.
        Diagnostic problem;
        bool fileRead() const { return problem.rule.isEmpty(); }
    };

    explicit KnownHostsFile(const QString &path);

    // A missing file is treated as empty; an oversized or unreadable one as
    // empty too, but reported in Result::problem and the ssh log.
    // `keyBlobBase64` is the base64 key blob as written in known_hosts;
    // `keyType` e.g. "ssh-ed25519".
    Result lookup(const QString &host, int port, const QString &keyType, const QString &keyBlobBase64) const;
    // Appends "host keyType base64" (host as [host]:port when port != 22),
    // creating the file (0600) and its directory (0700) when needed. Refuses
    // a file already over the size cap (it would never be read back).
    // A failure (LocalFile) names the file.
    scalelab::Result<void> append(const QString &host, int port, const QString &keyType,
                                  const QString &keyBlobBase64) const;
    // Key types the host is known with, for preferring them during key exchange.
    QStringList knownKeyTypes(const QString &host, int port) const;

    QString path() const { return m_path; }

    static QString hostField(const QString &host, int port);   // "host" or "[host]:port"
    static QString fingerprintSha256(const QString &keyBlobBase64);
    static QString statusName(Status s);

private:
    struct Line {
        int number = 0;
        bool revoked = false;
        QString hosts;
        QString keyType;
        QString key;
    };
    struct Lines {
        QList<Line> lines;
        Diagnostic problem;   // as Result::problem
    };
    Lines readLines() const;
    static bool hostsFieldMatches(const QString &field, const QString &name);

    QString m_path;
};

}   // namespace scalelab
