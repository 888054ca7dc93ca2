// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/PrivateFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <utility>

namespace scalelab::PrivateFiles {

namespace {

constexpr QFile::Permissions kDirMode = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner;
constexpr QFile::Permissions kFileMode = QFile::ReadOwner | QFile::WriteOwner;
constexpr QFile::Permissions kOthers =
    QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup | QFile::ReadOther | QFile::WriteOther | QFile::ExeOther;

QString native(const QString &path)
{
    return QDir::toNativeSeparators(path);
}

}   // namespace

QString modeText(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return {};
    // Owner, group and other bits only: QFileInfo also reports the current
    // user's view (ReadUser...), which is not a mode.
    static const std::pair<QFile::Permission, int> bits[] = {
        {QFile::ReadOwner, 0400}, {QFile::WriteOwner, 0200}, {QFile::ExeOwner, 0100},
        {QFile::ReadGroup, 040},  {QFile::WriteGroup, 020},  {QFile::ExeGroup, 010},
        {QFile::ReadOther, 04},   {QFile::WriteOther, 02},   {QFile::ExeOther, 01}};
    int mode = 0;
    for (const auto &[flag, value] : bits)
        if (info.permissions() & flag)
            mode |= value;
    return QStringLiteral("0%1").arg(mode, 3, 8, QLatin1Char('0'));
}

Result<void> makeDirectory(const QString &dir)
{
    // The missing folders, outermost first: each is made with the mode, so
    // none is ever open to others, even for a moment.
    QStringList missing;
    for (QString d = QFileInfo(dir).absoluteFilePath(); !QFileInfo::exists(d) && !QDir(d).isRoot();
         d = QFileInfo(d).absolutePath())
        missing.prepend(d);
    for (const QString &d : std::as_const(missing))
        if (!QDir().mkdir(d, kDirMode) && !QFileInfo(d).isDir())
            return fail(ErrorCode::LocalFile, QStringLiteral("cannot create the folder %1").arg(native(d)));
    if (!QFileInfo(dir).isDir())
        return fail(ErrorCode::LocalFile,
                    QStringLiteral("cannot create the folder %1: a file of that name is in the way").arg(native(dir)));
    return success();
}

Result<void> makeFile(const QString &file)
{
    const QFileInfo info(file);
    if (!info.exists()) {
        QFile f(file);
        if (!f.open(QIODevice::WriteOnly | QIODevice::NewOnly, kFileMode) && !QFileInfo::exists(file))
            return fail(ErrorCode::LocalFile,
                        QStringLiteral("cannot create %1: %2").arg(native(file), f.errorString()));
        return success();
    }
    // The mode decides, not only access(): a file made read-only stays so
    // even for a process that could write it anyway.
    if (!info.isWritable() || !(info.permissions() & (QFile::WriteOwner | QFile::WriteGroup | QFile::WriteOther)))
        return fail(ErrorCode::LocalFile,
                    QStringLiteral("%1 is read-only (mode %2) and ScaleLab does not change modes it did not set: "
                                   "make it writable (chmod u+w %1) or use another file")
                        .arg(native(file), modeText(file)));
    return success();
}

QString openFolderWarning(const QString &dir)
{
    const QFileInfo info(dir);
    if (!info.isDir() || !(info.permissions() & kOthers))
        return {};
    int readable = 0;
    const QFileInfoList entries =
        QDir(dir).entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QFileInfo &fi : entries)
        if (!fi.isSymLink() && (fi.permissions() & (QFile::ReadGroup | QFile::ReadOther)))
            ++readable;
    QString text = QStringLiteral("%1 is open to others (mode %2)").arg(native(dir), modeText(dir));
    if (readable > 0)
        text += readable == 1 ? QStringLiteral(" and 1 entry in it is readable by them")
                              : QStringLiteral(" and %1 entries in it are readable by them").arg(readable);
    return text
           + QStringLiteral("; it holds ScaleLab's private data (accounts, paths, job scripts). ScaleLab does not "
                            "change modes it did not set: run chmod 700 %1 if only you should read it")
                 .arg(native(dir));
}

}   // namespace scalelab::PrivateFiles
