// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/RecentSpecs.h"

#include <QFileInfo>
#include <QSettings>

namespace scalelab {

namespace {
const QString key = QStringLiteral("compose/recentSpecs");
}

QStringList RecentSpecs::list()
{
    return QSettings().value(key).toStringList();
}

void RecentSpecs::add(const QString &path)
{
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList l = list();
    l.removeAll(abs);
    l.prepend(abs);
    while (l.size() > maxEntries)
        l.removeLast();
    QSettings().setValue(key, l);
}

void RecentSpecs::remove(const QString &path)
{
    QStringList l = list();
    l.removeAll(path);
    QSettings().setValue(key, l);
}

void RecentSpecs::clear()
{
    QSettings().remove(key);
}

}   // namespace scalelab
