// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/PrivateData.h"

#include "core/base/Logging.h"
#include "core/base/PrivateFiles.h"
#include "core/store/RunStore.h"
#include "ui/common/AppSettings.h"

#include <QFileInfo>
#include <QStandardPaths>

namespace scalelab {

QStringList PrivateData::folders()
{
    QStringList dirs{RunStore::defaultDataDirectory(), QFileInfo(AppSettings::settingsFilePath()).absolutePath(),
                     QFileInfo(AppSettings::generatedConfigPath()).absolutePath(),
                     QStandardPaths::writableLocation(QStandardPaths::CacheLocation),
                     QFileInfo(LogFile::defaultPath()).absolutePath()};
    dirs.removeDuplicates();
    dirs.removeAll(QString());
    return dirs;
}

QStringList PrivateData::secure(Create create)
{
    QStringList problems;
    if (create == Create::Settings) {
        const QString file = AppSettings::settingsFilePath();
        for (const QString &e :
             {PrivateFiles::makeDirectory(QFileInfo(file).absolutePath()), PrivateFiles::makeFile(file)})
            if (!e.isEmpty())
                problems << e;
    }
    for (const QString &dir : folders())
        problems << PrivateFiles::tightenFolder(dir);
    return problems;
}

}   // namespace scalelab
