// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ssh/SshHop.h"

#include "core/base/InputLimits.h"
#include "core/base/RemoteValidation.h"

#include "core/ssh/KnownHostsFile.h"
#include "core/ssh/PlatformSocket.h"
#include "core/sshconfig/SshConfigFile.h"
#include "core/ssh/SshSession.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <chrono>

namespace scalelab {

QString sshErrorText(ssh_session s)
{
    const char *e = s ? ssh_get_error(s) : nullptr;
    return RemoteValidation::sanitize(QByteArray(e ? e : "unknown libssh error"), {.trim = false}).simplified();
}

SshHop::~SshHop()
{
    stopBridge();
    close();
}

void SshHop::stopBridge()
{
    stopPump = true;
    if (pump.joinable())
        pump.join();
    if (carrierChannel) {
        ssh_channel_free(carrierChannel);
        carrierChannel = nullptr;
    }
    if (pumpFd >= 0) {
        PlatformSocket::closeFd(pumpFd);
        pumpFd = -1;
    }
}

void SshHop::close()
{
    if (session) {
        if (ssh_is_connected(session))
            ssh_disconnect(session);
        ssh_free(session);
        session = nullptr;
    }
    if (sessionFd >= 0) {
        PlatformSocket::closeFd(sessionFd);
        sessionFd = -1;
    }
}

namespace {

QString hostLabel(const SshHostConfig &c)
{
    return QStringLiteral("%1 (%2:%3)").arg(c.alias, c.hostName).arg(c.port);
}

// The key blob of the server, in known_hosts form.
bool serverKey(ssh_session s, QString *type, QString *base64)
{
    ssh_key key = nullptr;
    if (ssh_get_server_publickey(s, &key) != SSH_OK || !key)
        return false;
    char *b64 = nullptr;
    const bool ok = ssh_pki_export_pubkey_base64(key, &b64) == SSH_OK && b64;
    if (ok) {
        *type = QString::fromLatin1(ssh_key_type_to_char(ssh_key_type(key)));
        *base64 = QString::fromLatin1(b64);
    }
    ssh_string_free_char(b64);
    ssh_key_free(key);
    return ok;
}

QString checkHostKey(ssh_session s, const SshHostConfig &c, const SshConnectionSettings &settings,
                     SshCallbacks *callbacks)
{
    QString type, b64;
    if (!serverKey(s, &type, &b64))
        return QStringLiteral("could not read the host key of %1: %2").arg(hostLabel(c), sshErrorText(s));
    const KnownHostsFile file(c.knownHostsPath());
    const KnownHostsFile::Result r = file.lookup(c.hostName, c.port, type, b64);
    HostKeyInfo info;
    info.host = c.hostName;
    info.port = c.port;
    info.keyType = type;
    info.fingerprintSha256 = KnownHostsFile::fingerprintSha256(b64);
    info.knownHostsPath = r.path;
    info.conflictingLine = r.status == KnownHostsFile::Status::Match ? 0 : r.line;
    // A known_hosts file that could not be read may hold this host's key (or
    // its revocation): asking "accept this unknown key?" would be a lie, so
    // the connection stops with what is wrong with the file.
    if (!r.fileRead())
        return QStringLiteral("cannot check the host key of %1: %2").arg(hostLabel(c), r.problem.message);
    switch (r.status) {
    case KnownHostsFile::Status::Match:
        return {};
    case KnownHostsFile::Status::Unknown: {
        SshCallbacks::HostKeyDecision d = SshCallbacks::HostKeyDecision::Reject;
        if (settings.acceptNewHostKey)
            d = SshCallbacks::HostKeyDecision::AcceptAndRemember;
        else if (callbacks)
            d = callbacks->unknownHostKey(info);
        if (d == SshCallbacks::HostKeyDecision::Reject)
            return QStringLiteral("the host key of %1 (%2 %3) is not in %4 and was not accepted; "
                                  "verify the fingerprint with the cluster's documentation and accept it")
                .arg(hostLabel(c), type, info.fingerprintSha256, r.path);
        if (d == SshCallbacks::HostKeyDecision::AcceptAndRemember) {
            if (const auto added = file.append(c.hostName, c.port, type, b64); !added)
                return QStringLiteral("could not remember the host key of %1: %2").arg(hostLabel(c), added.errorText());
        }
        return {};
    }
    case KnownHostsFile::Status::Changed:
    case KnownHostsFile::Status::OtherType:
    case KnownHostsFile::Status::Revoked: {
        QString what;
        if (r.status == KnownHostsFile::Status::Changed)
            what = QStringLiteral("HOST KEY CHANGED: %1 now presents %2 %3, but %4:%5 records another key")
                       .arg(hostLabel(c), type, info.fingerprintSha256, r.path)
                       .arg(r.line);
        else if (r.status == KnownHostsFile::Status::OtherType)
            what = QStringLiteral(
                       "HOST KEY TYPE CHANGED: %1 presents a %2 key (%3), but %4:%5 records a key of another type")
                       .arg(hostLabel(c), type, info.fingerprintSha256, r.path)
                       .arg(r.line);
        else
            what = QStringLiteral("REVOKED HOST KEY: %1 presents %2 %3, which %4:%5 marks @revoked")
                       .arg(hostLabel(c), type, info.fingerprintSha256, r.path)
                       .arg(r.line);
        const QString msg =
            what
            + QStringLiteral(" — connection refused (possible man-in-the-middle attack). "
                             "If the administrators announced a new key, remove line %1 of %2 and connect again.")
                  .arg(r.line)
                  .arg(r.path);
        if (callbacks)
            callbacks->hostKeyRefused(info, msg);
        return msg;
    }
    }
    return QStringLiteral("internal error checking the host key");
}

// Why an existing key or known_hosts file cannot be given to libssh: it is no
// regular file (a FIFO would hang libssh's read of it); "" when it can.
QString notARegularFile(const QString &path, const QString &what)
{
    if (!QFileInfo::exists(path))
        return {};
    auto f = InputLimits::openFile(path, what);
    return f ? QString() : f.errorText();
}

// True when the private key file is passphrase-protected (PEM "ENCRYPTED" or
// openssh-key-v1 with a cipher other than "none"), so we only ask when needed.
bool keyFileIsEncrypted(const QString &path)
{
    auto f = InputLimits::openFile(path, QStringLiteral("private key"));
    if (!f)
        return false;
    const QByteArray text = (*f)->read(64 * 1024);
    if (text.contains("ENCRYPTED"))
        return true;
    const int b = text.indexOf("-----BEGIN OPENSSH PRIVATE KEY-----");
    if (b < 0)
        return false;
    const int e = text.indexOf("-----END", b + 10);
    QByteArray body = text.mid(b + 35, e < 0 ? -1 : e - b - 35);
    body.replace('\n', "").replace('\r', "");
    const QByteArray blob = QByteArray::fromBase64(body);
    const QByteArray magic("openssh-key-v1", 15);   // includes the NUL
    if (!blob.startsWith(magic) || blob.size() < magic.size() + 4)
        return false;
    const uchar *p = reinterpret_cast<const uchar *>(blob.constData()) + magic.size();
    const quint32 len = (quint32(p[0]) << 24) | (quint32(p[1]) << 16) | (quint32(p[2]) << 8) | p[3];
    return blob.mid(magic.size() + 4, int(len)) != "none";
}

enum class AuthStep { Success, Partial, Denied, Error };

AuthStep toStep(int rc)
{
    switch (rc) {
    case SSH_AUTH_SUCCESS:
        return AuthStep::Success;
    case SSH_AUTH_PARTIAL:
        return AuthStep::Partial;
    case SSH_AUTH_DENIED:
        return AuthStep::Denied;
    default:
        return AuthStep::Error;
    }
}

AuthStep tryIdentityFile(ssh_session s, const QString &path, SshCallbacks *callbacks, QString *note)
{
    for (const QString &file : {path, path + QStringLiteral(".pub")}) {
        if (const QString bad = notARegularFile(file, QStringLiteral("key file")); !bad.isEmpty()) {
            *note = bad;   // like a key that cannot be loaded: the next key is tried
            return AuthStep::Denied;
        }
    }
    const QByteArray p = QFile::encodeName(path);
    // Ask the server first with the public key, so a passphrase is requested
    // only for a key the server would accept (like OpenSSH).
    const QString pubPath = path + QStringLiteral(".pub");
    if (QFileInfo::exists(pubPath)) {
        ssh_key pub = nullptr;
        if (ssh_pki_import_pubkey_file(QFile::encodeName(pubPath).constData(), &pub) == SSH_OK) {
            const int rc = ssh_userauth_try_publickey(s, nullptr, pub);
            ssh_key_free(pub);
            if (rc == SSH_AUTH_DENIED)
                return AuthStep::Denied;
            if (rc == SSH_AUTH_ERROR)
                return AuthStep::Error;
        }
    }
    ssh_key priv = nullptr;
    int rc = SSH_ERROR;
    if (!keyFileIsEncrypted(path)) {
        rc = ssh_pki_import_privkey_file(p.constData(), nullptr, nullptr, nullptr, &priv);
    } else {
        for (int attempt = 0; attempt < 3 && rc != SSH_OK; ++attempt) {
            std::optional<QString> pass = callbacks ? callbacks->passphrase(path) : std::nullopt;
            if (!pass) {
                *note = QStringLiteral("no passphrase given for %1").arg(path);
                return AuthStep::Denied;
            }
            QByteArray bytes = pass->toUtf8();
            pass->fill(QLatin1Char('\0'));
            rc = ssh_pki_import_privkey_file(p.constData(), bytes.constData(), nullptr, nullptr, &priv);
            bytes.fill('\0');   // never kept
        }
    }
    if (rc != SSH_OK || !priv) {
        *note = QStringLiteral("cannot load the key %1 (wrong passphrase or unsupported format)").arg(path);
        return AuthStep::Denied;
    }
    rc = ssh_userauth_publickey(s, nullptr, priv);
    ssh_key_free(priv);
    return toStep(rc);
}

AuthStep keyboardInteractive(ssh_session s, SshCallbacks *callbacks, QString *note)
{
    int rc = ssh_userauth_kbdint(s, nullptr, nullptr);
    int rounds = 0;
    while (rc == SSH_AUTH_INFO) {
        if (++rounds > 20) {
            *note = QStringLiteral("too many keyboard-interactive rounds");
            return AuthStep::Denied;
        }
        const int n = ssh_userauth_kbdint_getnprompts(s);
        if (n > 0) {
            QList<SshCallbacks::KbdPrompt> prompts;
            for (int i = 0; i < n; ++i) {
                char echo = 0;
                const char *text = ssh_userauth_kbdint_getprompt(s, unsigned(i), &echo);
                prompts << SshCallbacks::KbdPrompt{
                    RemoteValidation::sanitize(QByteArray(text ? text : ""), {.trim = false}), echo != 0};
            }
            const QString name =
                RemoteValidation::sanitize(QByteArray(ssh_userauth_kbdint_getname(s)), {.trim = false});
            const QString instr =
                RemoteValidation::sanitize(QByteArray(ssh_userauth_kbdint_getinstruction(s)), {.trim = false});
            std::optional<QStringList> answers =
                callbacks ? callbacks->keyboardInteractive(name, instr, prompts) : std::nullopt;
            if (!answers || answers->size() != n) {
                *note =
                    QStringLiteral("the server's questions (%1) were not answered").arg(prompts.first().text.trimmed());
                return AuthStep::Denied;
            }
            for (int i = 0; i < n; ++i) {
                QByteArray a = (*answers)[i].toUtf8();
                ssh_userauth_kbdint_setanswer(s, unsigned(i), a.constData());
                a.fill('\0');
            }
        }
        rc = ssh_userauth_kbdint(s, nullptr, nullptr);
    }
    return toStep(rc);
}

QString authenticate(ssh_session s, const SshHostConfig &c, SshCallbacks *callbacks)
{
    int rc = ssh_userauth_none(s, nullptr);
    if (rc == SSH_AUTH_SUCCESS)
        return {};
    if (rc == SSH_AUTH_ERROR)
        return QStringLiteral("authentication with %1 failed: %2").arg(hostLabel(c), sshErrorText(s));
    QStringList tried, notes;
    bool partial = false;
    for (int round = 0; round < 4; ++round) {
        const int methods = ssh_userauth_list(s, nullptr);
        AuthStep step = AuthStep::Denied;
        if (!partial && (methods & SSH_AUTH_METHOD_PUBLICKEY)) {
            const bool useAgent =
                !qEnvironmentVariable("SSH_AUTH_SOCK").isEmpty() && !(c.identitiesOnly && !c.identityFiles.isEmpty());
            if (useAgent) {
                tried << QStringLiteral("ssh-agent");
                step = toStep(ssh_userauth_agent(s, nullptr));
            }
            QStringList files = c.identityFiles;
            if (files.isEmpty())
                for (const char *n : {"id_ed25519", "id_ecdsa", "id_rsa"})
                    files << QDir::homePath() + QStringLiteral("/.ssh/") + QLatin1String(n);
            for (const QString &f : files) {
                if (step != AuthStep::Denied)
                    break;
                if (!QFileInfo::exists(f)) {
                    if (!c.identityFiles.isEmpty())
                        notes << QStringLiteral("IdentityFile %1 does not exist").arg(f);
                    continue;
                }
                tried << f;
                QString note;
                step = tryIdentityFile(s, f, callbacks, &note);
                if (!note.isEmpty())
                    notes << note;
            }
            if (step == AuthStep::Success)
                return {};
            if (step == AuthStep::Partial) {
                partial = true;
                continue;
            }
            if (step == AuthStep::Error)
                return QStringLiteral("authentication with %1 failed: %2").arg(hostLabel(c), sshErrorText(s));
        }
        if (methods & SSH_AUTH_METHOD_INTERACTIVE) {
            tried << QStringLiteral("keyboard-interactive");
            QString note;
            step = keyboardInteractive(s, callbacks, &note);
            if (!note.isEmpty())
                notes << note;
            if (step == AuthStep::Success)
                return {};
            if (step == AuthStep::Partial)
                continue;
            if (step == AuthStep::Error)
                return QStringLiteral("authentication with %1 failed: %2").arg(hostLabel(c), sshErrorText(s));
        }
        break;
    }
    QString msg = QStringLiteral("permission denied for %1@%2 (tried %3)")
                      .arg(c.user, hostLabel(c),
                           tried.isEmpty() ? QStringLiteral("nothing usable") : tried.join(QStringLiteral(", ")));
    if (!notes.isEmpty())
        msg += QStringLiteral("; ") + notes.join(QStringLiteral("; "));
    msg += QStringLiteral("; add your key to ssh-agent or set IdentityFile for this host in %1")
               .arg(c.configPath.isEmpty() ? QStringLiteral("~/.ssh/config") : c.configPath);
    return msg;
}

// Moves bytes between the socketpair and the direct-tcpip channel until
// either side ends or stopPump is set. Sole user of the carrier session.
void pumpLoop(SshHop *hop)
{
    char buf[32 * 1024];
    const int carrierFd = ssh_get_fd(hop->carrier);
    auto lastKeepalive = std::chrono::steady_clock::now();
    while (!hop->stopPump) {
        if (PlatformSocket::waitReadable(hop->pumpFd, carrierFd, 50)) {
            int n = 0;
            const auto r = PlatformSocket::readSome(hop->pumpFd, buf, int(sizeof buf), &n);
            if (r == PlatformSocket::ReadResult::Data) {
                if (ssh_channel_write(hop->carrierChannel, buf, uint32_t(n)) == SSH_ERROR)
                    break;
            } else if (r != PlatformSocket::ReadResult::Again) {
                ssh_channel_send_eof(hop->carrierChannel);
                break;
            }
        }
        for (;;) {
            const int n = ssh_channel_read_nonblocking(hop->carrierChannel, buf, sizeof buf, 0);
            if (n > 0) {
                if (!PlatformSocket::writeAll(hop->pumpFd, buf, n))
                    goto done;
                continue;
            }
            if (n == SSH_ERROR || ssh_channel_is_eof(hop->carrierChannel) || ssh_channel_is_closed(hop->carrierChannel))
                goto done;
            break;
        }
        if (hop->keepaliveSeconds > 0) {
            const auto now = std::chrono::steady_clock::now();
            if (now - lastKeepalive > std::chrono::seconds(hop->keepaliveSeconds)) {
                ssh_send_keepalive(hop->carrier);
                lastKeepalive = now;
            }
        }
    }
done:
    // Wake the next session: its socket sees EOF.
    PlatformSocket::shutdownBoth(hop->pumpFd);
}

}   // namespace

Result<void> sshConnectAndAuthenticate(SshHop &hop, int fd, const SshConnectionSettings &settings,
                                       SshCallbacks *callbacks)
{
    const SshHostConfig &c = hop.config;
    QString bad = SshConfigFile::validateName(QStringLiteral("host name"), c.hostName);
    if (bad.isEmpty())
        bad = SshConfigFile::validateName(QStringLiteral("user name"), c.user);
    if (!bad.isEmpty())
        return fail(ErrorCode::Transport, bad + QStringLiteral(" (alias %1 in %2)").arg(c.alias, c.configPath));

    if (const QString bad = notARegularFile(c.knownHostsPath(), QStringLiteral("known_hosts file")); !bad.isEmpty())
        return fail(ErrorCode::Transport, bad);
    ssh_session s = ssh_new();
    if (!s)
        return fail(ErrorCode::Transport, QStringLiteral("out of memory creating an SSH session"));
    hop.session = s;
    const QByteArray host = c.hostName.toUtf8();
    const QByteArray user = c.user.toUtf8();
    const QByteArray known = QFile::encodeName(c.knownHostsPath());
    const unsigned int port = unsigned(c.port);
    long timeoutSec =
        c.connectTimeoutSeconds > 0 ? c.connectTimeoutSeconds : std::max(1, settings.connectTimeoutMs / 1000);
    bool no = false;
    ssh_options_set(s, SSH_OPTIONS_PROCESS_CONFIG, &no);   // our own parser decides, not ~/.ssh/config
    ssh_options_set(s, SSH_OPTIONS_HOST, host.constData());
    ssh_options_set(s, SSH_OPTIONS_PORT, &port);
    ssh_options_set(s, SSH_OPTIONS_USER, user.constData());
    ssh_options_set(s, SSH_OPTIONS_TIMEOUT, &timeoutSec);
    // libssh prefers the host key types recorded here during key exchange.
    ssh_options_set(s, SSH_OPTIONS_KNOWNHOSTS, known.constData());
    ssh_options_set(s, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, "/dev/null");
    if (fd >= 0) {
        socket_t sock = fd;
        ssh_options_set(s, SSH_OPTIONS_FD, &sock);
    }
    if (ssh_connect(s) != SSH_OK)
        return fail(ErrorCode::Transport,
                    QStringLiteral(
                        "cannot connect to %1: %2; check HostName/Port/ProxyJump in %3 and that the host is reachable")
                        .arg(hostLabel(c), sshErrorText(s),
                             c.configPath.isEmpty() ? QStringLiteral("the SSH config") : c.configPath));
    // Host key strictly before any authentication request.
    if (const QString keyError = checkHostKey(s, c, settings, callbacks); !keyError.isEmpty())
        return fail(ErrorCode::Transport, keyError);
    if (const QString authError = authenticate(s, c, callbacks); !authError.isEmpty())
        return fail(ErrorCode::Transport, authError);
    return success();
}

Result<int> sshStartBridge(ssh_session carrier, SshHop &next)
{
    ssh_channel ch = ssh_channel_new(carrier);
    if (!ch)
        return fail(ErrorCode::Transport, QStringLiteral("cannot create a channel: %1").arg(sshErrorText(carrier)));
    const QByteArray host = next.config.hostName.toUtf8();
    if (ssh_channel_open_forward(ch, host.constData(), next.config.port, "127.0.0.1", 0) != SSH_OK) {
        const QString why =
            QStringLiteral("the jump host could not open a connection to %1:%2: %3 (is forwarding allowed there?)")
                .arg(next.config.hostName)
                .arg(next.config.port)
                .arg(sshErrorText(carrier));
        ssh_channel_free(ch);
        return fail(ErrorCode::Transport, why);
    }
    int sv[2];
    if (auto made = PlatformSocket::makePair(sv); !made) {
        ssh_channel_free(ch);
        return fail(made.error());
    }
    next.carrier = carrier;
    next.carrierChannel = ch;
    next.pumpFd = sv[1];
    next.sessionFd = sv[0];
    next.stopPump = false;
    next.pump = std::thread(pumpLoop, &next);
    return sv[0];
}

}   // namespace scalelab
