// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/StoreHealth.h"

#include "core/base/Logging.h"

#include <QFileInfo>
#include <QHash>
#include <QMutex>

namespace scalelab {

namespace {

using Entry = StoreHealth::State;

QMutex &mutex()
{
    static QMutex m;
    return m;
}

QHash<QString, Entry> &entries()
{
    static QHash<QString, Entry> e;
    return e;
}

}   // namespace

QString StoreHealth::key(const QString &path)
{
    const QFileInfo info(path);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? info.absoluteFilePath() : canonical;
}

void StoreHealth::markDamaged(const QString &path, const QString &why)
{
    const QString k = key(path);
    QMutexLocker lock(&mutex());
    Entry &e = entries()[k];
    if (!e.damage) {
        e.damage = why;
        qCWarning(lcStore).noquote() << QStringLiteral("%1 is damaged (%2): no more writes").arg(k, why);
    }
}

std::optional<QString> StoreHealth::damage(const QString &path)
{
    const QString k = key(path);
    QMutexLocker lock(&mutex());
    const auto it = entries().constFind(k);
    return it == entries().constEnd() ? std::nullopt : it->damage;
}

void StoreHealth::restored(const QString &path)
{
    const QString k = key(path);
    QMutexLocker lock(&mutex());
    Entry &e = entries()[k];
    e.damage.reset();
    ++e.generation;
}

quint64 StoreHealth::generation(const QString &path)
{
    const QString k = key(path);
    QMutexLocker lock(&mutex());
    return entries().value(k).generation;
}

StoreHealth::State StoreHealth::state(const QString &path)
{
    const QString k = key(path);
    QMutexLocker lock(&mutex());
    return entries().value(k);
}

}   // namespace scalelab
