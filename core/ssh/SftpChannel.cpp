// SPDX-License-Identifier: GPL-3.0-or-later
// The file half of SshSession: SFTP (needs the blocking session of libssh 0.10).
#include "core/ssh/SftpChannel.h"

#include "core/ssh/SshSessionPrivate.h"

#include "core/base/Logging.h"
#include "core/base/RemoteValidation.h"
#include "core/base/ShellQuote.h"

#include <QElapsedTimer>
#include <QRandomGenerator>

#include <fcntl.h>
#include <sys/stat.h>

namespace scalelab {

void SftpChannel::close()
{
    if (m_sftp) {
        sftp_free(m_sftp);
        m_sftp = nullptr;
    }
    m_home.clear();
}

Result<void> SftpChannel::ensureStarted()
{
    if (m_sftp)
        return success();
    ssh_session s = m_link.session();
    if (!s || m_link.broken || !ssh_is_connected(s))
        return fail(
            ErrorCode::Transport,
            m_link.lastConnectError.isEmpty()
                ? QStringLiteral("not connected to %1").arg(m_link.settings.alias)
                : QStringLiteral("not connected to %1: %2").arg(m_link.settings.alias, m_link.lastConnectError));
    m_sftp = sftp_new(s);
    if (!m_sftp)
        return fail(ErrorCode::Transport, m_link.transportFailure(QStringLiteral(
                                              "cannot start SFTP (is the sftp subsystem enabled on the server?)")));
    if (sftp_init(m_sftp) != SSH_OK) {
        sftp_free(m_sftp);
        m_sftp = nullptr;
        return fail(ErrorCode::Transport, m_link.transportFailure(QStringLiteral("cannot start SFTP")));
    }
    return success();
}

QString SftpChannel::errorText(const QString &op, const QString &path) const
{
    const int code = m_sftp ? sftp_get_error(m_sftp) : -1;
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
        why = sshErrorText(m_link.session());
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

QString SftpChannel::homeDirectory()
{
    if (!m_home.isEmpty())
        return m_home;
    if (!ensureStarted())
        return {};
    char *p = sftp_canonicalize_path(m_sftp, ".");
    if (!p) {
        m_link.transportFailure(QStringLiteral("cannot resolve the home directory"));
        return {};
    }
    m_home = QString::fromUtf8(p);
    ssh_string_free_char(p);
    m_link.sinceTraffic.restart();
    return m_home;
}

// "~/x" and "~" mean the remote home; relative paths are relative to it too
// (the SFTP server starts there).
QString SftpChannel::expandRemote(const QString &path)
{
    if (path == QLatin1String("~"))
        return homeDirectory();
    if (path.startsWith(QLatin1String("~/"))) {
        const QString home = homeDirectory();
        return home.isEmpty() ? QString() : home + path.mid(1);
    }
    return path;
}

Result<void> SftpChannel::mkdirs(const QString &remoteDir)
{
    if (auto ready = ensureStarted(); !ready)
        return ready;
    const QString dir = expandRemote(remoteDir);
    // The home is unknown only when asking for it failed on the connection.
    if (dir.isEmpty())
        return fail(ErrorCode::Transport,
                    QStringLiteral("cannot create %1: the remote home directory is unknown").arg(remoteDir));
    const QStringList parts = dir.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString cur = isAbsoluteOrHome(dir) ? QStringLiteral("") : QStringLiteral(".");
    for (const QString &part : parts) {
        cur += QLatin1Char('/') + part;
        const QByteArray p = cur.toUtf8();
        sftp_attributes a = sftp_stat(m_sftp, p.constData());
        if (a) {
            const bool isDir = a->type == SSH_FILEXFER_TYPE_DIRECTORY;
            sftp_attributes_free(a);
            if (!isDir)
                return fail(ErrorCode::RemoteFailed,
                            QStringLiteral("cannot create %1: %2 exists and is not a directory").arg(remoteDir, cur));
            continue;
        }
        if (sftp_get_error(m_sftp) != SSH_FX_NO_SUCH_FILE) {
            if (!m_owner.isConnected() || !ssh_is_connected(m_link.session()))
                return fail(ErrorCode::Transport, m_link.transportFailure(QStringLiteral("mkdir %1").arg(cur)));
            return fail(ErrorCode::RemoteFailed, errorText(QStringLiteral("cannot inspect"), cur));
        }
        if (sftp_mkdir(m_sftp, p.constData(), 0755) != SSH_OK) {
            // Another process may have created it meanwhile.
            sftp_attributes again = sftp_stat(m_sftp, p.constData());
            const bool ok = again && again->type == SSH_FILEXFER_TYPE_DIRECTORY;
            if (again)
                sftp_attributes_free(again);
            if (!ok)
                return fail(sftpFailureCode(m_link.session()),
                            errorText(QStringLiteral("cannot create the directory"), cur));
        }
    }
    m_link.sinceTraffic.restart();
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

Result<void> SftpChannel::upload(const QString &remotePath, const QByteArray &data, int mode)
{
    QElapsedTimer timer;
    timer.start();
    Result<void> result = uploadImpl(remotePath, data, mode);
    const QString what = QStringLiteral("%1: sftp upload %2 (%3 bytes)")
                             .arg(m_link.settings.alias, loggedPath(remotePath, remotePath))
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

RemoteFileChunk SftpChannel::download(const QString &remotePath, qint64 offset, qint64 maxBytes)
{
    QElapsedTimer timer;
    timer.start();
    const RemoteFileChunk c = downloadImpl(remotePath, offset, maxBytes);
    const QString what = QStringLiteral("%1: sftp download %2 from byte %3")
                             .arg(m_link.settings.alias, loggedPath(remotePath, remotePath))
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

Result<void> SftpChannel::uploadImpl(const QString &remotePath, const QByteArray &data, int mode)
{
    if (auto ready = ensureStarted(); !ready)
        return ready;
    const QString path = expandRemote(remotePath);
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
        sftp_open(m_sftp, tmpBytes.constData(), O_WRONLY | O_CREAT | O_EXCL, mode_t(mode & 07777) | S_IRUSR | S_IWUSR);
    if (!f)
        return fail(sftpFailureCode(m_link.session()), errorText(QStringLiteral("cannot create"), tmp));
    qint64 done = 0;
    QString error;
    bool mvLost = false;   // the mv fallback's outcome is unknown
    while (done < data.size()) {
        const size_t chunk = size_t(std::min<qint64>(data.size() - done, 32 * 1024));
        const ssize_t w = sftp_write(f, data.constData() + done, chunk);
        if (w <= 0) {
            error = errorText(QStringLiteral("cannot write"), tmp);
            break;
        }
        done += w;
    }
    if (sftp_close(f) != SSH_OK && error.isEmpty())
        error = errorText(QStringLiteral("cannot finish writing"), tmp);
    if (error.isEmpty() && sftp_chmod(m_sftp, tmpBytes.constData(), mode_t(mode & 07777)) != SSH_OK)
        error = errorText(QStringLiteral("cannot set the mode of"), tmp);
    if (error.isEmpty()) {
        const QByteArray finalBytes = path.toUtf8();
        if (sftp_rename(m_sftp, tmpBytes.constData(), finalBytes.constData()) != SSH_OK) {
            // SFTP v3 rename refuses an existing target and libssh 0.10 has no
            // posix-rename@openssh.com; mv within one directory is rename(2),
            // which replaces the old file atomically.
            error = errorText(QStringLiteral("cannot rename the upload to"), path);
            sftp_attributes a = sftp_lstat(m_sftp, finalBytes.constData());
            const bool replaceable = a && a->type != SSH_FILEXFER_TYPE_DIRECTORY;
            if (a)
                sftp_attributes_free(a);
            if (replaceable && ShellQuote::isSafeForRemote(path)) {
                const RemoteResult mv =
                    m_owner.run({QStringLiteral("mv"), QStringLiteral("-f"), QStringLiteral("--"), tmp, path});
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
        const ErrorCode code = mvLost ? ErrorCode::Transport : sftpFailureCode(m_link.session());
        if (m_link.session() && ssh_is_connected(m_link.session()))
            sftp_unlink(m_sftp, tmpBytes.constData());
        else
            m_link.broken = true;
        return fail(code, error);
    }
    m_link.sinceTraffic.restart();
    return success();
}

RemoteFileChunk SftpChannel::downloadImpl(const QString &remotePath, qint64 offset, qint64 maxBytes)
{
    RemoteFileChunk c;
    if (const auto ready = ensureStarted(); !ready) {
        c.error = ready.errorText();
        return c;
    }
    const QString path = expandRemote(remotePath);
    const QByteArray p = path.toUtf8();
    sftp_attributes a = sftp_stat(m_sftp, p.constData());
    if (!a) {
        if (sftp_get_error(m_sftp) == SSH_FX_NO_SUCH_FILE) {
            c.missing = true;
            c.error = QStringLiteral("no such file: %1").arg(path);
        } else {
            c.error = errorText(QStringLiteral("cannot inspect"), path);
            if (!ssh_is_connected(m_link.session()))
                m_link.broken = true;
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
    sftp_file f = sftp_open(m_sftp, p.constData(), O_RDONLY, 0);
    if (!f) {
        c.missing = sftp_get_error(m_sftp) == SSH_FX_NO_SUCH_FILE;
        c.error = errorText(QStringLiteral("cannot open"), path);
        return c;
    }
    if (offset > 0 && sftp_seek64(f, quint64(offset)) != 0) {
        c.error = errorText(QStringLiteral("cannot seek in"), path);
        sftp_close(f);
        return c;
    }
    const qint64 want = std::min(maxBytes, c.fileSize - offset);
    c.data.reserve(int(want));
    char buf[32 * 1024];
    while (c.data.size() < want) {
        const ssize_t n = sftp_read(f, buf, size_t(std::min<qint64>(sizeof buf, want - c.data.size())));
        if (n < 0) {
            c.error = errorText(QStringLiteral("cannot read"), path);
            if (!ssh_is_connected(m_link.session()))
                m_link.broken = true;
            break;
        }
        if (n == 0)
            break;   // the file shrank meanwhile
        c.data.append(buf, int(n));
    }
    sftp_close(f);
    m_link.sinceTraffic.restart();
    return c;
}

}   // namespace scalelab
