// SPDX-License-Identifier: GPL-3.0-or-later
// The file half of SshSession: SFTP (needs the blocking session of libssh 0.10).
#include "core/ssh/SshSessionPrivate.h"

#include "core/base/Logging.h"
#include "core/base/RemoteValidation.h"
#include "core/base/ShellQuote.h"

#include <QElapsedTimer>
#include <QRandomGenerator>

#include <fcntl.h>
#include <sys/stat.h>

namespace scalelab {

Result<void> SshSession::Private::ensureSftp()
{
    if (sftp)
        return success();
    ssh_session s = session();
    if (!s || broken || !ssh_is_connected(s))
        return fail(ErrorCode::Transport,
                    lastConnectError.isEmpty()
                        ? QStringLiteral("not connected to %1").arg(settings.alias)
                        : QStringLiteral("not connected to %1: %2").arg(settings.alias, lastConnectError));
    sftp = sftp_new(s);
    if (!sftp)
        return fail(ErrorCode::Transport, transportFailure(QStringLiteral(
                                              "cannot start SFTP (is the sftp subsystem enabled on the server?)")));
    if (sftp_init(sftp) != SSH_OK) {
        sftp_free(sftp);
        sftp = nullptr;
        return fail(ErrorCode::Transport, transportFailure(QStringLiteral("cannot start SFTP")));
    }
    return success();
}

QString SshSession::Private::sftpErrorText(const QString &op, const QString &path) const
{
    const int code = sftp ? sftp_get_error(sftp) : -1;
    QString why;
    switch (code) {
    case SSH_FX_NO_SUCH_FILE:
        why = QStringLiteral("no such file or directory");
        break;
    case SSH_FX_PERMISSION_DENIED:
        why = QStringLiteral("permission denied");
        break;
    case SSH_FX_FILE_ALREADY_EXISTS:
        why = QStringLiteral("already exists");
        break;
    default:
        why = sshErrorText(session());
        break;
    }
    return QStringLiteral("%1 %2: %3").arg(op, path, why);
}

namespace {

bool isAbsoluteOrHome(const QString &p)
{
    return p.startsWith(QLatin1Char('/'));
}

// An SFTP request that failed on a lost connection may or may not have taken
// effect, like a command whose answer was lost: Transport, not RemoteFailed.
ErrorCode sftpFailureCode(ssh_session s)
{
    return s && ssh_is_connected(s) ? ErrorCode::RemoteFailed : ErrorCode::Transport;
}

}   // namespace

QString SshSession::homeDirectory()
{
    if (!d->home.isEmpty())
        return d->home;
    if (!d->ensureSftp())
        return {};
    char *p = sftp_canonicalize_path(d->sftp, ".");
    if (!p) {
        d->transportFailure(QStringLiteral("cannot resolve the home directory"));
        return {};
    }
    d->home = QString::fromUtf8(p);
    ssh_string_free_char(p);
    d->sinceTraffic.restart();
    return d->home;
}

// "~/x" and "~" mean the remote home; relative paths are relative to it too
// (the SFTP server starts there).
static QString expandRemote(SshSession *self, const QString &path)
{
    if (path == QLatin1String("~"))
        return self->homeDirectory();
    if (path.startsWith(QLatin1String("~/"))) {
        const QString home = self->homeDirectory();
        return home.isEmpty() ? QString() : home + path.mid(1);
    }
    return path;
}

Result<void> SshSession::mkdirs(const QString &remoteDir)
{
    if (auto ready = d->ensureSftp(); !ready)
        return ready;
    const QString dir = expandRemote(this, remoteDir);
    // The home is unknown only when asking for it failed on the connection.
    if (dir.isEmpty())
        return fail(ErrorCode::Transport,
                    QStringLiteral("cannot create %1: the remote home directory is unknown").arg(remoteDir));
    const QStringList parts = dir.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString cur = isAbsoluteOrHome(dir) ? QStringLiteral("") : QStringLiteral(".");
    for (const QString &part : parts) {
        cur += QLatin1Char('/') + part;
        const QByteArray p = cur.toUtf8();
        sftp_attributes a = sftp_stat(d->sftp, p.constData());
        if (a) {
            const bool isDir = a->type == SSH_FILEXFER_TYPE_DIRECTORY;
            sftp_attributes_free(a);
            if (!isDir)
                return fail(ErrorCode::RemoteFailed,
                            QStringLiteral("cannot create %1: %2 exists and is not a directory").arg(remoteDir, cur));
            continue;
        }
        if (sftp_get_error(d->sftp) != SSH_FX_NO_SUCH_FILE) {
            if (!isConnected() || !ssh_is_connected(d->session()))
                return fail(ErrorCode::Transport, d->transportFailure(QStringLiteral("mkdir %1").arg(cur)));
            return fail(ErrorCode::RemoteFailed, d->sftpErrorText(QStringLiteral("cannot inspect"), cur));
        }
        if (sftp_mkdir(d->sftp, p.constData(), 0755) != SSH_OK) {
            // Another process may have created it meanwhile.
            sftp_attributes again = sftp_stat(d->sftp, p.constData());
            const bool ok = again && again->type == SSH_FILEXFER_TYPE_DIRECTORY;
            if (again)
                sftp_attributes_free(again);
            if (!ok)
                return fail(sftpFailureCode(d->session()),
                            d->sftpErrorText(QStringLiteral("cannot create the directory"), cur));
        }
    }
    d->sinceTraffic.restart();
    return success();
}

namespace {

// Transfers are logged by file name only: the directories hold the remote
// user name and run tokens.
QString loggedPath(QString text, const QString &remotePath)
{
    const QString name = remotePath.section(QLatin1Char('/'), -1);
    const QString dir = remotePath.left(remotePath.size() - name.size());
    if (!dir.isEmpty())
        text.replace(dir, QStringLiteral("<…>/"));
    return text;
}

}   // namespace

Result<void> SshSession::upload(const QString &remotePath, const QByteArray &data, int mode)
{
    QElapsedTimer timer;
    timer.start();
    Result<void> result = uploadImpl(remotePath, data, mode);
    const QString what = QStringLiteral("%1: sftp upload %2 (%3 bytes)")
                             .arg(d->settings.alias, loggedPath(remotePath, remotePath))
                             .arg(data.size());
    if (result)
        qCInfo(lcSsh).noquote() << QStringLiteral("%1 -> ok in %2 ms").arg(what).arg(timer.elapsed());
    else
        qCWarning(lcSsh).noquote() << QStringLiteral("%1 -> failed after %2 ms: %3")
                                          .arg(what)
                                          .arg(timer.elapsed())
                                          .arg(loggedPath(result.error().message, remotePath));
    return result;
}

RemoteFileChunk SshSession::download(const QString &remotePath, qint64 offset, qint64 maxBytes)
{
    QElapsedTimer timer;
    timer.start();
    const RemoteFileChunk c = downloadImpl(remotePath, offset, maxBytes);
    const QString what = QStringLiteral("%1: sftp download %2 from byte %3")
                             .arg(d->settings.alias, loggedPath(remotePath, remotePath))
                             .arg(offset);
    if (c.error.isEmpty())
        qCInfo(lcSsh).noquote()
            << QStringLiteral("%1 -> %2 bytes in %3 ms").arg(what).arg(c.data.size()).arg(timer.elapsed());
    else
        qCInfo(lcSsh).noquote() << QStringLiteral("%1 -> %2 after %3 ms: %4")
                                       .arg(what, c.missing ? QStringLiteral("missing") : QStringLiteral("failed"))
                                       .arg(timer.elapsed())
                                       .arg(loggedPath(c.error, remotePath));
    return c;
}

Result<void> SshSession::uploadImpl(const QString &remotePath, const QByteArray &data, int mode)
{
    if (auto ready = d->ensureSftp(); !ready)
        return ready;
    const QString path = expandRemote(this, remotePath);
    if (path.isEmpty() || path.endsWith(QLatin1Char('/'))) {
        // "~/x" comes out empty only when asking for the home failed on the connection.
        const bool homeUnknown = path.isEmpty() && !remotePath.isEmpty();
        return fail(homeUnknown ? ErrorCode::Transport : ErrorCode::InvalidValue,
                    QStringLiteral("cannot upload to \"%1\": not a file path").arg(remotePath));
    }
    // Temporary name in the same directory so the final rename is atomic.
    const int slash = path.lastIndexOf(QLatin1Char('/'));
    const QString tmp =
        path.left(slash + 1) + QStringLiteral(".") + path.mid(slash + 1)
        + QStringLiteral(".part-%1").arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    const QByteArray tmpBytes = tmp.toUtf8();
    sftp_file f =
        sftp_open(d->sftp, tmpBytes.constData(), O_WRONLY | O_CREAT | O_EXCL, mode_t(mode & 07777) | S_IRUSR | S_IWUSR);
    if (!f)
        return fail(sftpFailureCode(d->session()), d->sftpErrorText(QStringLiteral("cannot create"), tmp));
    qint64 done = 0;
    QString error;
    bool mvLost = false;   // the mv fallback's outcome is unknown
    while (done < data.size()) {
        const size_t chunk = size_t(std::min<qint64>(data.size() - done, 32 * 1024));
        const ssize_t w = sftp_write(f, data.constData() + done, chunk);
        if (w <= 0) {
            error = d->sftpErrorText(QStringLiteral("cannot write"), tmp);
            break;
        }
        done += w;
    }
    if (sftp_close(f) != SSH_OK && error.isEmpty())
        error = d->sftpErrorText(QStringLiteral("cannot finish writing"), tmp);
    if (error.isEmpty() && sftp_chmod(d->sftp, tmpBytes.constData(), mode_t(mode & 07777)) != SSH_OK)
        error = d->sftpErrorText(QStringLiteral("cannot set the mode of"), tmp);
    if (error.isEmpty()) {
        const QByteArray finalBytes = path.toUtf8();
        if (sftp_rename(d->sftp, tmpBytes.constData(), finalBytes.constData()) != SSH_OK) {
            // SFTP v3 rename refuses an existing target and libssh 0.10 has no
            // posix-rename@openssh.com; mv within one directory is rename(2),
            // which replaces the old file atomically.
            error = d->sftpErrorText(QStringLiteral("cannot rename the upload to"), path);
            sftp_attributes a = sftp_lstat(d->sftp, finalBytes.constData());
            const bool replaceable = a && a->type != SSH_FILEXFER_TYPE_DIRECTORY;
            if (a)
                sftp_attributes_free(a);
            if (replaceable && ShellQuote::isSafeForRemote(path)) {
                const RemoteResult mv =
                    run({QStringLiteral("mv"), QStringLiteral("-f"), QStringLiteral("--"), tmp, path});
                mvLost = !mv.transportOk();
                if (mv.ok())
                    error.clear();
                else
                    error = QStringLiteral("cannot replace %1: %2")
                                .arg(path, mv.transportOk() ? RemoteValidation::sanitize(mv.err) : mv.transportError);
            }
        }
    }
    if (!error.isEmpty()) {
        const ErrorCode code = mvLost ? ErrorCode::Transport : sftpFailureCode(d->session());
        if (d->session() && ssh_is_connected(d->session()))
            sftp_unlink(d->sftp, tmpBytes.constData());
        else
            d->broken = true;
        return fail(code, error);
    }
    d->sinceTraffic.restart();
    return success();
}

RemoteFileChunk SshSession::downloadImpl(const QString &remotePath, qint64 offset, qint64 maxBytes)
{
    RemoteFileChunk c;
    if (const auto ready = d->ensureSftp(); !ready) {
        c.error = ready.errorText();
        return c;
    }
    const QString path = expandRemote(this, remotePath);
    const QByteArray p = path.toUtf8();
    sftp_attributes a = sftp_stat(d->sftp, p.constData());
    if (!a) {
        if (sftp_get_error(d->sftp) == SSH_FX_NO_SUCH_FILE) {
            c.missing = true;
            c.error = QStringLiteral("no such file: %1").arg(path);
        } else {
            c.error = d->sftpErrorText(QStringLiteral("cannot inspect"), path);
            if (!ssh_is_connected(d->session()))
                d->broken = true;
        }
        return c;
    }
    c.fileSize = qint64(a->size);
    const bool isDir = a->type == SSH_FILEXFER_TYPE_DIRECTORY;
    sftp_attributes_free(a);
    if (isDir) {
        c.error = QStringLiteral("%1 is a directory").arg(path);
        return c;
    }
    if (offset < 0)
        offset = std::max<qint64>(0, c.fileSize + offset);
    c.offset = offset;
    if (offset >= c.fileSize || maxBytes <= 0)
        return c;
    sftp_file f = sftp_open(d->sftp, p.constData(), O_RDONLY, 0);
    if (!f) {
        c.missing = sftp_get_error(d->sftp) == SSH_FX_NO_SUCH_FILE;
        c.error = d->sftpErrorText(QStringLiteral("cannot open"), path);
        return c;
    }
    if (offset > 0 && sftp_seek64(f, quint64(offset)) != 0) {
        c.error = d->sftpErrorText(QStringLiteral("cannot seek in"), path);
        sftp_close(f);
        return c;
    }
    const qint64 want = std::min(maxBytes, c.fileSize - offset);
    c.data.reserve(int(want));
    char buf[32 * 1024];
    while (c.data.size() < want) {
        const ssize_t n = sftp_read(f, buf, size_t(std::min<qint64>(sizeof buf, want - c.data.size())));
        if (n < 0) {
            c.error = d->sftpErrorText(QStringLiteral("cannot read"), path);
            if (!ssh_is_connected(d->session()))
                d->broken = true;
            break;
        }
        if (n == 0)
            break;   // the file shrank meanwhile
        c.data.append(buf, int(n));
    }
    sftp_close(f);
    d->sinceTraffic.restart();
    return c;
}

}   // namespace scalelab
