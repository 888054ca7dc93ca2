// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ssh/SshSessionPrivate.h"

#include "core/ssh/KnownHostsFile.h"
#include "core/base/Logging.h"
#include "core/base/RemoteValidation.h"
#include "core/base/ShellQuote.h"
#include "core/sshconfig/SshConfigFile.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QThread>

#include <algorithm>
#include <optional>

namespace scalelab {

namespace {

// Expands the ProxyJump chain of `target` into the list of hops to dial:
// the first jump host (honouring its own ProxyJump), the others, the target.
QString buildHopList(const SshConfigFile &cfg, const SshHostConfig &target, int depth, QList<SshHostConfig> *out)
{
    if (depth > 8)
        return QStringLiteral("ProxyJump of %1 loops or nests too deeply; check %2")
            .arg(target.alias, target.configPath);
    if (!target.hasProxyJump()) {
        *out << target;
        return {};
    }
    const QStringList chain = target.proxyJump.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (int i = 0; i < chain.size(); ++i) {
        // [user@]host[:port], host may be an alias of the config; ssh -J semantics.
        QString spec = chain[i].trimmed();
        if (spec.startsWith(QLatin1String("ssh://")))
            spec = spec.mid(6);
        QString user;
        const int at = spec.lastIndexOf(QLatin1Char('@'));
        if (at >= 0) {
            user = spec.left(at);
            spec = spec.mid(at + 1);
        }
        QString host = spec;
        int port = 0;
        if (spec.startsWith(QLatin1Char('['))) {
            const int close = spec.indexOf(QLatin1Char(']'));
            host = spec.mid(1, close - 1);
            if (close >= 0 && spec.mid(close + 1).startsWith(QLatin1Char(':')))
                port = spec.mid(close + 2).toInt();
        } else if (spec.count(QLatin1Char(':')) == 1) {
            host = spec.section(QLatin1Char(':'), 0, 0);
            port = spec.section(QLatin1Char(':'), 1).toInt();
            if (port <= 0 || port > 65535)
                return QStringLiteral("ProxyJump \"%1\" of %2 has a bad port; check %3")
                    .arg(chain[i], target.alias, target.configPath);
        }
        if (host.isEmpty())
            return QStringLiteral("ProxyJump \"%1\" of %2 names no host; check %3")
                .arg(chain[i], target.alias, target.configPath);
        SshHostConfig hop = cfg.resolve(host);
        if (!user.isEmpty())
            hop.user = user;
        if (port > 0)
            hop.port = port;
        if (i == 0) {
            const QString err = buildHopList(cfg, hop, depth + 1, out);
            if (!err.isEmpty())
                return err;
        } else {
            hop.proxyJump.clear();
            *out << hop;
        }
    }
    SshHostConfig last = target;
    *out << last;
    return {};
}

}   // namespace

void SshSession::Private::teardown()
{
    if (sftp)
        sftp->close();   // frees SFTP and forgets the home
    // Target first, then each jump host; a hop's pump uses the previous
    // session, so stop it before that session goes away.
    while (!hops.empty()) {
        std::unique_ptr<SshHop> hop = std::move(hops.back());
        hops.pop_back();
        if (broken && hop->session) {
            ssh_free(hop->session);   // no polite goodbye on a dead transport
            hop->session = nullptr;
        }
        hop->close();
        hop->stopBridge();
    }
}

QString SshSession::Private::transportFailure(const QString &what)
{
    ssh_session s = session();
    const QString text = what + QStringLiteral(": ") + sshErrorText(s);
    if (!s || !ssh_is_connected(s) || ssh_get_status(s) & (SSH_CLOSED | SSH_CLOSED_ERROR))
        broken = true;
    return text;
}

SshSession::SshSession(SshConnectionSettings settings, SshCallbacks *callbacks)
    : d(std::make_unique<Private>())
{
    d->settings = std::move(settings);
    d->callbacks = callbacks;
    d->sftp = std::make_unique<SftpChannel>(*this, *d);
}

SshSession::~SshSession()
{
    disconnect();
}

int SshSession::backoffSeconds(int attempt)
{
    if (attempt <= 0)
        return 0;
    return std::min(60, 1 << std::min(attempt - 1, 6));
}

Result<void> SshSession::reconnect(int attempt)
{
    disconnect();
    const int wait = backoffSeconds(attempt);
    if (wait > 0)
        QThread::sleep(static_cast<unsigned long>(wait));
    return connectToHost();
}

Result<void> SshSession::connectToHost()
{
    QElapsedTimer timer;
    timer.start();
    const Result<void> connected = connectImpl();
    d->lastConnectError = connected.errorText();
    // The error texts name hosts, files and libssh's reason, never an answer
    // given to a prompt (those stay inside sshConnectAndAuthenticate).
    if (connected)
        qCInfo(lcSsh).noquote() << QStringLiteral("%1: connected (%2 hop(s)) in %3 ms")
                                       .arg(d->settings.alias)
                                       .arg(d->hops.size())
                                       .arg(timer.elapsed());
    else
        qCWarning(lcSsh).noquote() << QStringLiteral("%1: connecting failed after %2 ms: %3")
                                          .arg(d->settings.alias)
                                          .arg(timer.elapsed())
                                          .arg(d->lastConnectError);
    return connected;
}

QString SshSession::notConnectedText() const
{
    if (d->lastConnectError.isEmpty())
        return QStringLiteral("not connected to %1").arg(d->settings.alias);
    return QStringLiteral("not connected to %1: %2").arg(d->settings.alias, d->lastConnectError);
}

Result<void> SshSession::connectImpl()
{
    disconnect();
    d->broken = false;
    if (d->settings.alias.isEmpty())
        return fail(ErrorCode::Transport, QStringLiteral("no SSH host alias given; set one in the cluster profile"));
    if (const QString missing = SshConfigFile::namedFileProblem(d->settings.configPath); !missing.isEmpty())
        return fail(ErrorCode::Transport, missing);
    const QString cfgPath = d->settings.configPath.isEmpty() ? SshConfigFile::defaultPath() : d->settings.configPath;
    const SshConfigFile cfg = SshConfigFile::load(cfgPath);
    if (const QString cfgError = cfg.errorText(); !cfgError.isEmpty())
        return fail(ErrorCode::Transport, QStringLiteral("cannot use the SSH config: %1").arg(cfgError));
    const QString aliasError = SshConfigFile::validateName(QStringLiteral("host alias"), d->settings.alias);
    if (!aliasError.isEmpty())
        return fail(ErrorCode::Transport, aliasError);
    d->target = cfg.resolve(d->settings.alias);
    QList<SshHostConfig> chain;
    if (const QString err = buildHopList(cfg, d->target, 0, &chain); !err.isEmpty())
        return fail(ErrorCode::Transport, err);
    for (int i = 0; i < chain.size(); ++i) {
        auto hop = std::make_unique<SshHop>();
        hop->config = chain[i];
        hop->keepaliveSeconds = chain[i].serverAliveIntervalSeconds > 0 ? chain[i].serverAliveIntervalSeconds
                                                                        : d->settings.keepaliveSeconds;
        int fd = -1;
        if (i > 0) {
            const Result<int> bridge = sshStartBridge(d->hops.back()->session, *hop);
            if (!bridge) {
                d->teardown();
                return fail(ErrorCode::Transport,
                            QStringLiteral("ProxyJump via %1 failed: %2").arg(chain[i - 1].alias, bridge.errorText()));
            }
            fd = *bridge;
        }
        d->hops.push_back(std::move(hop));
        if (auto hopUp = sshConnectAndAuthenticate(*d->hops.back(), fd, d->settings, d->callbacks); !hopUp) {
            d->teardown();
            if (i + 1 < chain.size())
                return fail(ErrorCode::Transport, QStringLiteral("jump host: %1").arg(hopUp.errorText()));
            return hopUp;
        }
    }
    const char *b = ssh_get_serverbanner(d->session());
    d->banner = b ? RemoteValidation::sanitize(QByteArray(b), {.trim = false}) : QString();
    d->sinceTraffic.start();
    return success();
}

bool SshSession::isConnected() const
{
    ssh_session s = d->session();
    return s && !d->broken && ssh_is_connected(s);
}

void SshSession::disconnect()
{
    d->teardown();
    d->banner.clear();
}

QString SshSession::serverBanner() const
{
    return d->banner;
}

SshHostConfig SshSession::hostConfig() const
{
    return d->target;
}

void SshSession::sendKeepaliveIfDue()
{
    if (!isConnected())
        return;
    const int interval =
        d->target.serverAliveIntervalSeconds > 0 ? d->target.serverAliveIntervalSeconds : d->settings.keepaliveSeconds;
    if (interval <= 0 || d->sinceTraffic.elapsed() < qint64(interval) * 1000)
        return;
    if (ssh_send_keepalive(d->session()) != SSH_OK)
        d->transportFailure(QStringLiteral("keepalive"));
    d->sinceTraffic.restart();
}

RemoteResult SshSession::run(const QStringList &argv, int timeoutMs)
{
    // One line per remote command: what ran (user values redacted), how it
    // ended and how long it took; this is what a "my job shows Unknown" report needs.
    QElapsedTimer timer;
    timer.start();
    const RemoteResult r = runImpl(argv, timeoutMs);
    if (r.transportOk())
        qCInfo(lcSsh).noquote() << QStringLiteral("%1: %2 -> exit %3 in %4 ms")
                                       .arg(d->settings.alias, redactedCommand(argv))
                                       .arg(r.exitCode)
                                       .arg(timer.elapsed());
    else
        qCWarning(lcSsh).noquote() << QStringLiteral("%1: %2 -> transport error after %3 ms: %4")
                                          .arg(d->settings.alias, redactedCommand(argv))
                                          .arg(timer.elapsed())
                                          .arg(r.transportError);
    return r;
}

namespace {

// Opens a session channel and starts `command` in it (with an empty stdin,
// like ssh -n, unless `keepInput`); what failed when it could not.
std::optional<QString> openExec(ssh_session s, const QByteArray &command, ssh_channel *out, bool keepInput = false)
{
    ssh_channel ch = ssh_channel_new(s);
    if (!ch)
        return QStringLiteral("cannot open a channel");
    if (ssh_channel_open_session(ch) != SSH_OK) {
        ssh_channel_free(ch);
        return QStringLiteral("cannot open a session channel");
    }
    if (ssh_channel_request_exec(ch, command.constData()) != SSH_OK) {
        ssh_channel_free(ch);
        return QStringLiteral("cannot start the remote command");
    }
    if (!keepInput)
        ssh_channel_send_eof(ch);
    *out = ch;
    return std::nullopt;
}

// Writes all of `input` to the command's stdin, then its end. libssh's
// blocking write waits for the peer's window (buffering what the command
// prints meanwhile); false when the connection failed. Each chunk is flushed
// to the socket before the next is added: libssh moves the unsent rest of its
// output buffer to the front on every addition, so a buffer left to grow
// costs time in proportion to its size at every packet.
bool writeInput(ssh_channel ch, const QByteArray &input)
{
    constexpr qsizetype kChunk = 64 * 1024;
    constexpr int kFlushTimeoutMs = 60000;
    ssh_session s = ssh_channel_get_session(ch);
    for (qsizetype done = 0; done < input.size();) {
        const qsizetype n = std::min(kChunk, input.size() - done);
        const int w = ssh_channel_write(ch, input.constData() + done, uint32_t(n));
        if (w == SSH_ERROR || ssh_blocking_flush(s, kFlushTimeoutMs) == SSH_ERROR)
            return false;
        done += w;
    }
    return ssh_channel_send_eof(ch) == SSH_OK;
}

enum class ChannelRead { Ended, Failed, TimedOut };

// Reads the command's stdout and stderr until it ends, a read fails or the deadline passes.
ChannelRead readChannel(ssh_channel ch, RemoteResult &r, const QDeadlineTimer &deadline)
{
    char buf[16384];
    for (;;) {
        const int n = ssh_channel_read_timeout(ch, buf, sizeof buf, 0, 100);
        if (n > 0)
            r.out.append(buf, n);
        if (n == SSH_ERROR)
            return ChannelRead::Failed;
        int e;
        while ((e = ssh_channel_read_nonblocking(ch, buf, sizeof buf, 1)) > 0)
            r.err.append(buf, e);
        if (e == SSH_ERROR)
            return ChannelRead::Failed;
        // SSH_EOF (read_nonblocking at end of stream) counts as "no data".
        if (n <= 0 && (e == 0 || e == SSH_EOF) && (ssh_channel_is_eof(ch) || ssh_channel_is_closed(ch))) {
            // Drain what arrived together with the EOF.
            int m;
            while ((m = ssh_channel_read_nonblocking(ch, buf, sizeof buf, 0)) > 0)
                r.out.append(buf, m);
            while ((m = ssh_channel_read_nonblocking(ch, buf, sizeof buf, 1)) > 0)
                r.err.append(buf, m);
            return ChannelRead::Ended;
        }
        if (deadline.hasExpired())
            return ChannelRead::TimedOut;
    }
}

}   // namespace

QString SshSession::homeDirectory()
{
    return d->sftp->homeDirectory();
}

Result<void> SshSession::mkdirs(const QString &remoteDir)
{
    return d->sftp->mkdirs(remoteDir);
}

Result<void> SshSession::upload(const QString &remotePath, const QByteArray &data, int mode)
{
    return d->sftp->upload(remotePath, data, mode);
}

RemoteFileChunk SshSession::download(const QString &remotePath, qint64 offset, qint64 maxBytes)
{
    return d->sftp->download(remotePath, offset, maxBytes);
}

RemoteResult SshSession::runWithInput(const QStringList &argv, const QByteArray &input, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    const RemoteResult r = runImpl(argv, timeoutMs, &input);
    qCInfo(lcSsh).noquote() << QStringLiteral("%1: %2 with %3 bytes of input -> %4 in %5 ms")
                                   .arg(d->settings.alias, redactedCommand(argv))
                                   .arg(input.size())
                                   .arg(r.transportOk() ? QStringLiteral("exit %1").arg(r.exitCode)
                                                        : QStringLiteral("transport error: %1").arg(r.transportError))
                                   .arg(timer.elapsed());
    return r;
}

RemoteResult SshSession::runImpl(const QStringList &argv, int timeoutMs, const QByteArray *input)
{
    RemoteResult r;
    if (argv.isEmpty()) {
        r.transportError = QStringLiteral("no command given");
        return r;
    }
    for (const QString &w : argv)
        if (!ShellQuote::isSafeForRemote(w)) {
            r.transportError = QStringLiteral("refused to send an argument with a control character or '!' (\"%1\")")
                                   .arg(RemoteValidation::sanitize(w.toUtf8(), {.trim = false}).left(60));
            return r;
        }
    if (!isConnected()) {
        r.transportError = notConnectedText();
        return r;
    }
    if (timeoutMs <= 0)
        timeoutMs = d->settings.commandTimeoutMs;
    ssh_session s = d->session();
    ssh_channel ch = nullptr;
    if (const auto what = openExec(s, ShellQuote::join(argv).toUtf8(), &ch, input != nullptr)) {
        r.transportError = d->transportFailure(*what);
        return r;
    }
    if (input && !writeInput(ch, *input)) {
        r.transportError =
            d->transportFailure(QStringLiteral("the connection failed while sending input to %1").arg(argv.first()));
        d->broken = true;
        ssh_channel_free(ch);
        return r;
    }
    const ChannelRead read = readChannel(ch, r, QDeadlineTimer(timeoutMs));
    if (read == ChannelRead::TimedOut) {
        r.transportError =
            QStringLiteral("no result within %1 s; the remote command may still be running").arg(timeoutMs / 1000.0);
        ssh_channel_close(ch);
        ssh_channel_free(ch);
        if (!ssh_is_connected(s))
            d->broken = true;
        return r;
    }
    if (read == ChannelRead::Failed) {
        r.transportError =
            d->transportFailure(QStringLiteral("the connection failed while running %1").arg(argv.first()));
        d->broken = true;   // a read error leaves the channel state unknown
        ssh_channel_free(ch);
        return r;
    }
    r.exitCode = ssh_channel_get_exit_status(ch);
    if (r.exitCode < 0 && !ssh_is_connected(s)) {
        r.transportError = d->transportFailure(
            QStringLiteral("the connection closed before %1 reported its exit status").arg(argv.first()));
        d->broken = true;
    }
    ssh_channel_close(ch);
    ssh_channel_free(ch);
    d->sinceTraffic.restart();
    return r;
}

}   // namespace scalelab
