// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/AtomicFile.h"

#include "core/base/PlatformFiles.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryFile>

namespace scalelab {

AtomicFile::AtomicFile(const QString &path)
    : m_path(path)
    , m_file(path)
{
    // Never written in place, even when the folder refuses a temporary file.
    m_file.setDirectWriteFallback(false);
}

AtomicFile::~AtomicFile()
{
    if (m_file.isOpen())
        m_file.cancelWriting();
}

Result<void> AtomicFile::failure(const QString &why) const
{
    return fail(ErrorCode::LocalFile, QStringLiteral("could not write %1: %2").arg(m_path, why));
}

Result<void> AtomicFile::checkTarget(const QString &path)
{
    const QFileInfo info(path);
    if (path.isEmpty())
        return fail(ErrorCode::LocalFile, QStringLiteral("no file name given to write"));
    if (info.isDir())
        return fail(ErrorCode::LocalFile,
                    QStringLiteral("could not write %1: it is a folder; give a file name inside it").arg(path));
    if (!info.dir().exists())
        return fail(ErrorCode::LocalFile,
                    QStringLiteral("could not write %1: the folder %2 does not exist").arg(path, info.absolutePath()));
    return success();
}

Result<void> AtomicFile::open()
{
    if (auto target = checkTarget(m_path); !target)
        return target;
    if (!m_file.open(QIODevice::WriteOnly))
        return failure(m_file.errorString());
    QIODevice::open(QIODevice::WriteOnly | QIODevice::Unbuffered);
    return success();
}

qint64 AtomicFile::writeData(const char *data, qint64 len)
{
    if (!m_refused.isEmpty())
        return -1;
    // A short write is tried again: the next one fails with the disk's reason.
    for (qint64 done = 0; done < len;) {
        const qint64 n = m_file.write(data + done, len - done);
        if (n <= 0) {
            m_refused = m_file.errorString();
            return -1;
        }
        done += n;
    }
    m_written += len;
    return len;
}

Result<void> AtomicFile::commit()
{
    if (!m_file.isOpen())
        return failure(QStringLiteral("it was not opened"));
    QIODevice::close();
    // A refused write was kept; then the bytes are forced out, and counted,
    // before the rename makes them the file. The temporary goes with m_file.
    if (!m_refused.isEmpty())
        return failure(m_refused);
    if (m_file.error() != QFileDevice::NoError || !m_file.flush())
        return failure(m_file.errorString());
    if (m_file.size() != m_written)
        return failure(
            QStringLiteral("only %1 of %2 bytes reached the disk (is it full?)").arg(m_file.size()).arg(m_written));
    QString reason;
    if (!PlatformFiles::syncDescriptor(m_file.handle(), &reason))
        return failure(reason);
    if (!m_file.commit())
        return failure(m_file.errorString());
    if (!PlatformFiles::syncFolder(QFileInfo(m_path).absolutePath(), &reason))
        return failure(QStringLiteral("the folder's entry did not reach the disk: %1").arg(reason));
    return success();
}

Result<void> AtomicFile::write(const QString &path, const QByteArray &bytes)
{
    AtomicFile file(path);
    if (auto opened = file.open(); !opened)
        return opened;
    file.QIODevice::write(bytes);   // a refusal is kept and said by commit()
    return file.commit();
}

Result<void> AtomicFile::replaceWith(const QString &temp, const QString &path)
{
    const auto failure = [&](const QString &why) {
        QFile::remove(temp);
        return fail(ErrorCode::LocalFile, QStringLiteral("could not write %1: %2").arg(path, why));
    };
    QFile written(temp);
    if (!written.open(QIODevice::ReadWrite) || written.size() == 0)
        return failure(QStringLiteral("nothing was written"));
    QString reason;
    if (!PlatformFiles::syncDescriptor(written.handle(), &reason))
        return failure(reason);
    // A replaced file keeps its permissions, as with QSaveFile.
    if (QFileInfo::exists(path))
        written.setPermissions(QFile(path).permissions());
    written.close();
    if (!PlatformFiles::replaceFile(temp, path, &reason))
        return failure(reason);
    if (!PlatformFiles::syncFolder(QFileInfo(path).absolutePath(), &reason))
        return fail(
            ErrorCode::LocalFile,
            QStringLiteral("could not write %1: the folder's entry did not reach the disk: %2").arg(path, reason));
    return success();
}

Result<void> AtomicFile::writeThrough(const QString &path, const std::function<bool(const QString &)> &writer)
{
    if (auto target = checkTarget(path); !target)
        return target;
    QString temp;
    {
        QTemporaryFile t(path + QStringLiteral(".XXXXXX"));
        if (!t.open())
            return fail(ErrorCode::LocalFile, QStringLiteral("could not write %1: %2").arg(path, t.errorString()));
        t.setAutoRemove(false);
        t.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                         | QFileDevice::ReadOther);
        temp = t.fileName();
    }
    if (!writer(temp)) {
        QFile::remove(temp);
        return fail(ErrorCode::LocalFile, QStringLiteral("could not write %1").arg(path));
    }
    return replaceWith(temp, path);
}

}   // namespace scalelab
