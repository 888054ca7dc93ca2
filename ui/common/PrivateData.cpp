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

QStringList PrivateData::prepare(Create create)
{
    QStringList warnings;
    if (create == Create::Settings) {
        const QString file = AppSettings::settingsFilePath();
        Result<void> made = PrivateFiles::makeDirectory(QFileInfo(file).absolutePath());
        if (made)
            made = PrivateFiles::makeFile(file);
        if (!made)
            warnings << QStringLiteral("settings: %1; until then changed settings are not saved").arg(made.errorText());
    }
    for (const QString &dir : folders())
        if (const QString w = PrivateFiles::openFolderWarning(dir); !w.isEmpty())
            warnings << w;
    return warnings;
}

}   // namespace scalelab
