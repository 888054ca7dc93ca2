// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/StoreHealth.h"

#include "core/base/Logging.h"

#include <QDateTime>
#include <QFileInfo>
#include <QHash>
#include <QMutex>

namespace scalelab {

namespace {

struct Entry : StoreHealth::State {
    QString stampAtDamage;   // StoreHealth::fileStamp when the damage was found
};

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

QHash<int, StoreHealth::Listener> &listeners()
{
    static QHash<int, StoreHealth::Listener> l;
    return l;
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
    QList<Listener> tell;
    {
        QMutexLocker lock(&mutex());
        Entry &e = entries()[k];
        if (e.damage)
            return;   // known already: told once
        e.damage = why;
        e.stampAtDamage = fileStamp(k);
        qCWarning(lcStore).noquote() << QStringLiteral("%1 is damaged (%2): no more writes").arg(k, why);
        tell = listeners().values();
    }
    for (const Listener &l : tell)
        l(k, why);
}

int StoreHealth::addListener(Listener listener)
{
    static int next = 0;
    QMutexLocker lock(&mutex());
    listeners().insert(++next, std::move(listener));
    return next;
}

void StoreHealth::removeListener(int id)
{
    QMutexLocker lock(&mutex());
    listeners().remove(id);
}

std::optional<QString> StoreHealth::damage(const QString &path)
{
    return state(path).damage;
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
    const auto it = entries().find(k);
    if (it == entries().end())
        return {};
    if (it->damage && fileStamp(k) != it->stampAtDamage) {
        qCInfo(lcStore).noquote() << QStringLiteral("%1 changed on disk since it was found damaged (a restore?): "
                                                    "checking it again")
                                         .arg(k);
        it->damage.reset();
        ++it->generation;
    }
    return *it;
}

QString StoreHealth::fileStamp(const QString &path)
{
    QString stamp;
    for (const QString &file : {path, path + QStringLiteral("-wal")}) {
        const QFileInfo info(file);
        // An empty -wal comes and goes with connections (SQLite deletes it when
        // the last one closes): only one holding pages says the file was written.
        if (file != path && (!info.exists() || info.size() == 0))
            continue;
        stamp += QStringLiteral("%1:%2:%3;")
                     .arg(info.exists() ? info.size() : -1)
                     .arg(info.lastModified().toMSecsSinceEpoch())
                     .arg(info.metadataChangeTime().toMSecsSinceEpoch());
    }
    return stamp;
}

}   // namespace scalelab
