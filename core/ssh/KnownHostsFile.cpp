// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ssh/KnownHostsFile.h"

#include "core/base/InputLimits.h"
#include "core/base/Logging.h"
#include "core/sshconfig/SshConfigFile.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageAuthenticationCode>
#include <QRegularExpression>

namespace scalelab {

KnownHostsFile::KnownHostsFile(const QString &path)
    : m_path(path)
{}

QString KnownHostsFile::hostField(const QString &host, int port)
{
    if (port == 22 || port <= 0)
        return host;
    return QStringLiteral("[%1]:%2").arg(host).arg(port);
}

QString KnownHostsFile::fingerprintSha256(const QString &keyBlobBase64)
{
    const QByteArray blob = QByteArray::fromBase64(keyBlobBase64.toLatin1());
    const QByteArray digest = QCryptographicHash::hash(blob, QCryptographicHash::Sha256);
    return QStringLiteral("SHA256:") + QString::fromLatin1(digest.toBase64(QByteArray::OmitTrailingEquals));
}

QString KnownHostsFile::statusName(Status s)
{
    switch (s) {
    case Status::Match:
        return QStringLiteral("match");
    case Status::Unknown:
        return QStringLiteral("unknown");
    case Status::Changed:
        return QStringLiteral("changed");
    case Status::OtherType:
        return QStringLiteral("other key type");
    case Status::Revoked:
        return QStringLiteral("revoked");
    }
    return {};
}

KnownHostsFile::Lines KnownHostsFile::readLines() const
{
    Lines out;
    // A missing file is the normal first connection: empty, nothing to say.
    if (!QFileInfo::exists(m_path))
        return out;
    // Capped like every other file ScaleLab reads: known_hosts is read at
    // every connection, and a huge one (a runaway script appending to it)
    // would stall each of them. Refused whole rather than cut, because an
    // entry past a cut would silently stop protecting its host.
    const InputLimits::FileRead read = InputLimits::readFile(m_path, QStringLiteral("known_hosts file"));
    if (!read.ok) {
        out.problem = read.problem;
        qCWarning(lcSsh).noquote() << read.problem.message;
        return out;
    }
    const QList<QByteArray> lines = read.data.split('\n');
    for (int i = 0; i < lines.size(); ++i) {
        const QString text = QString::fromUtf8(lines[i]).trimmed();
        if (text.isEmpty() || text.startsWith(QLatin1Char('#')))
            continue;
        QStringList w = text.split(QRegularExpression(QStringLiteral("[ \t]+")), Qt::SkipEmptyParts);
        Line l;
        l.number = i + 1;
        if (w.first().startsWith(QLatin1Char('@'))) {
            if (w.first() == QLatin1String("@revoked"))
                l.revoked = true;
            else
                continue;   // @cert-authority and unknown markers: not supported
            w.removeFirst();
        }
        if (w.size() < 3)
            continue;
        l.hosts = w[0];
        l.keyType = w[1];
        l.key = w[2];
        out.lines << l;
    }
    return out;
}

bool KnownHostsFile::hostsFieldMatches(const QString &field, const QString &name)
{
    if (field.startsWith(QLatin1String("|1|"))) {
        const QStringList parts = field.split(QLatin1Char('|'));
        if (parts.size() != 4)
            return false;
        const QByteArray salt = QByteArray::fromBase64(parts[2].toLatin1());
        const QByteArray want = QByteArray::fromBase64(parts[3].toLatin1());
        const QByteArray got = QMessageAuthenticationCode::hash(name.toUtf8(), salt, QCryptographicHash::Sha1);
        return !want.isEmpty() && got == want;
    }
    return SshConfigFile::matchPatternList(field.split(QLatin1Char(','), Qt::SkipEmptyParts), name);
}

KnownHostsFile::Result KnownHostsFile::lookup(const QString &host, int port, const QString &keyType,
                                              const QString &keyBlobBase64) const
{
    Result r;
    r.path = m_path;
    const QString name = hostField(host, port);
    int changedLine = 0, otherTypeLine = 0, matchLine = 0;
    const Lines read = readLines();
    r.problem = read.problem;
    for (const Line &l : read.lines) {
        const bool sameKey = l.key == keyBlobBase64;
        if (l.revoked) {
            // A revoked key is refused for every host (sshd(8)).
            if (sameKey) {
                r.status = Status::Revoked;
                r.line = l.number;
                return r;
            }
            continue;
        }
        if (!hostsFieldMatches(l.hosts, name))
            continue;
        if (sameKey && l.keyType == keyType) {
            if (!matchLine)
                matchLine = l.number;
        } else if (l.keyType == keyType) {
            if (!changedLine)
                changedLine = l.number;
        } else if (!otherTypeLine) {
            otherTypeLine = l.number;
        }
    }
    if (matchLine) {
        r.status = Status::Match;
        r.line = matchLine;
    } else if (changedLine) {
        r.status = Status::Changed;
        r.line = changedLine;
    } else if (otherTypeLine) {
        r.status = Status::OtherType;
        r.line = otherTypeLine;
    }
    return r;
}

QStringList KnownHostsFile::knownKeyTypes(const QString &host, int port) const
{
    QStringList types;
    const QString name = hostField(host, port);
    for (const Line &l : readLines().lines)
        if (!l.revoked && hostsFieldMatches(l.hosts, name) && !types.contains(l.keyType))
            types << l.keyType;
    return types;
}

scalelab::Result<void> KnownHostsFile::append(const QString &host, int port, const QString &keyType,
                                              const QString &keyBlobBase64) const
{
    const QFileInfo fi(m_path);
    if (!fi.dir().exists()) {
        if (!QDir().mkpath(fi.dir().absolutePath()))
            return fail(ErrorCode::LocalFile,
                        QStringLiteral("cannot create the directory %1").arg(fi.dir().absolutePath()));
        QFile(fi.dir().absolutePath()).setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    QFile f(m_path);
    const bool existed = f.exists();
    // Appending to a file over the cap would store a key that lookup() never
    // reads back: the host would be "unknown" again at the next connection.
    if (existed && fi.size() > InputLimits::kMaxFileBytes)
        return fail(ErrorCode::LocalFile,
                    QStringLiteral("%1 is larger than %2 MB, the most ScaleLab reads of a known_hosts file; "
                                   "a key added to it would never be read back. Check the file (or point "
                                   "UserKnownHostsFile at another one) and connect again.")
                        .arg(m_path)
                        .arg(InputLimits::kMaxFileBytes / (1024 * 1024)));
    // Only the last byte decides whether a newline is needed first.
    bool needNewline = false;
    if (existed && fi.size() > 0 && f.open(QIODevice::ReadOnly)) {
        needNewline = f.seek(fi.size() - 1) && f.read(1) != "\n";
        f.close();
    }
    if (!f.open(QIODevice::WriteOnly | QIODevice::Append))
        return fail(ErrorCode::LocalFile, QStringLiteral("cannot write %1: %2").arg(m_path, f.errorString()));
    if (!existed)
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    QByteArray line;
    if (needNewline)
        line += '\n';
    line += hostField(host, port).toUtf8() + ' ' + keyType.toUtf8() + ' ' + keyBlobBase64.toLatin1() + '\n';
    // Appended as OpenSSH does (ssh may add lines too), in one write; a disk
    // that refuses it (seen at the flush) gets the file cut back to its old end.
    if (f.write(line) != line.size() || !f.flush()) {
        const QString why = f.errorString();
        f.resize(existed ? fi.size() : 0);
        return fail(ErrorCode::LocalFile, QStringLiteral("cannot write %1: %2").arg(m_path, why));
    }
    return success();
}

}   // namespace scalelab
