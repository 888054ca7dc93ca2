// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/PrivateFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace scalelab::PrivateFiles {

namespace {

constexpr QFile::Permissions kDirMode = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner;
constexpr QFile::Permissions kFileMode = QFile::ReadOwner | QFile::WriteOwner;

QString setMode(const QString &path, QFile::Permissions mode)
{
    // Owner bits only: QFile::permissions() also reports the User bits, which
    // setPermissions ignores on Unix, so compare what was asked for.
    const QFile::Permissions ownerOnly =
        QFileInfo(path).permissions()
        & (QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::WriteGroup
           | QFile::ExeGroup | QFile::ReadOther | QFile::WriteOther | QFile::ExeOther);
    if (ownerOnly == mode)
        return {};
    if (!QFile::setPermissions(path, mode))
        return QStringLiteral("cannot make %1 private (mode %2): check that you own it")
            .arg(QDir::toNativeSeparators(path), mode == kDirMode ? QStringLiteral("0700") : QStringLiteral("0600"));
    return {};
}

}   // namespace

QString makeDirectory(const QString &dir)
{
    if (!QFileInfo(dir).isDir()) {
        // mkdir with the mode, so the folder is never open to others even
        // for a moment; parents that do not exist yet are created normally.
        const QString parent = QFileInfo(dir).absolutePath();
        if (!QFileInfo(parent).isDir() && !QDir().mkpath(parent))
            return QStringLiteral("cannot create the folder %1").arg(QDir::toNativeSeparators(parent));
        if (!QDir().mkdir(dir, kDirMode) && !QFileInfo(dir).isDir())
            return QStringLiteral("cannot create the folder %1").arg(QDir::toNativeSeparators(dir));
    }
    return setMode(dir, kDirMode);
}

QString makeFile(const QString &file)
{
    if (!QFileInfo::exists(file)) {
        QFile f(file);
        if (!f.open(QIODevice::WriteOnly | QIODevice::NewOnly, kFileMode) && !QFileInfo::exists(file))
            return QStringLiteral("cannot create %1: %2").arg(QDir::toNativeSeparators(file), f.errorString());
    }
    return setMode(file, kFileMode);
}

QStringList tightenFolder(const QString &dir)
{
    QStringList problems;
    if (!QFileInfo(dir).isDir())
        return problems;
    if (const QString e = setMode(dir, kDirMode); !e.isEmpty())
        problems << e;
    // One level: a 0700 folder already shuts others out of everything below
    // it, so a start costs one stat per entry, not one per fetched file.
    const QFileInfoList entries =
        QDir(dir).entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QFileInfo &fi : entries) {
        if (fi.isSymLink())
            continue;   // never change what a link points to
        QFile::Permissions mode = fi.isDir() ? kDirMode : kFileMode;
        if (!fi.isDir() && (fi.permissions() & QFile::ExeOwner))
            mode |= QFile::ExeOwner;
        if (const QString e = setMode(fi.filePath(), mode); !e.isEmpty())
            problems << e;
    }
    return problems;
}

}   // namespace scalelab::PrivateFiles
