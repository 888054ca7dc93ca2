// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QTemporaryDir>

namespace scalelab::test {

// Own store, settings and (empty) user profiles under `dir`: nothing of the
// host's ScaleLab set-up leaks into a GUI test.
inline void isolateFromHost(const QTemporaryDir &dir, const QString &appName)
{
    qputenv("SCALELAB_DATA_DIR", dir.filePath(QStringLiteral("data")).toUtf8());
    qputenv("XDG_CONFIG_HOME", dir.filePath(QStringLiteral("config")).toUtf8());
    qputenv("XDG_DATA_HOME", dir.filePath(QStringLiteral("xdg")).toUtf8());
    QCoreApplication::setOrganizationName(QStringLiteral("ScaleLabTest"));
    QCoreApplication::setApplicationName(appName);
}

}   // namespace scalelab::test
