// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDir>
#include <QString>

namespace scalelab::test {

// Where tests save the screenshots they take: the build tree, so a test run
// never changes the sources. SCALELAB_SCREENSHOT_DIR=resources/screenshots
// refreshes the README's pictures on purpose.
inline QString screenshotPath(const QString &fileName)
{
    QString dir = qEnvironmentVariable("SCALELAB_SCREENSHOT_DIR");
    if (dir.isEmpty())
        dir = QStringLiteral(SCALELAB_TEST_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    return QDir(dir).filePath(fileName);
}

}   // namespace scalelab::test
