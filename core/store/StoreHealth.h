// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <functional>
#include <optional>

namespace scalelab {

// What this process knows about each store file: damaged (found by the
// check at open or by SQLite answering "corrupt" or "not a database" to any
// statement) and how often it was replaced by a restore. Process-wide, so
// that every RunStore on the file (the window's, the cluster workers') stops
// writing at once, and every connection opened before a restore is reopened.
// A restore by another process (`scalelab store restore` beside an open
// window) writes the file: a damage whose file changed on disk since it was
// found is forgotten, so the next open checks the file again.
class StoreHealth {
public:
    // `path` as given or as SQLite names it: both are made absolute.
    static void markDamaged(const QString &path, const QString &why);
    static std::optional<QString> damage(const QString &path);   // why, when damaged
    // After a restore: the damage is forgotten and the generation moves on.
    static void restored(const QString &path);
    static quint64 generation(const QString &path);
    struct State {
        std::optional<QString> damage;
        quint64 generation = 0;
    };
    static State state(const QString &path);   // both at once
    static QString key(const QString &path);
    // Told once per damage found, whenever it is found (at open, by a later
    // read or write answered "corrupt", or by a later check): the file's key
    // and why. Called on the thread that found it, outside any lock; the
    // window posts it to its banner. Returns an id for removeListener.
    using Listener = std::function<void(const QString &key, const QString &why)>;
    static int addListener(Listener listener);
    static void removeListener(int id);

private:
    // Sizes and change times of the file and its -wal (when it holds pages):
    // what any write moves, and not a connection opening or closing.
    static QString fileStamp(const QString &path);
};

}   // namespace scalelab
