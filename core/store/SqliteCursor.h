// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

class QSqlDatabase;
struct sqlite3;
struct sqlite3_stmt;

namespace scalelab {

// Equal short texts read from many rows share one QString: 100,000 runs name
// a handful of partitions, states and metric units, and a string each was
// most of the memory (and of the time freeing it) of the runs table.
// Bounded: after kMaxEntries distinct values, new ones are returned unshared.
class TextPool {
public:
    QString get(std::string_view utf8);
    qsizetype size() const { return qsizetype(m_pool.size()); }

    static constexpr size_t kMaxEntries = 4096;
    static constexpr size_t kMaxLength = 128;   // longer texts are rarely repeated

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, QString, Hash, std::equal_to<>> m_pool;
};

// Reads the rows of one statement through SQLite's C API on a QSQLITE
// connection's own handle (so inside that connection's transaction).
// Why not QSqlQuery: it copies every value into a QVariant and every text
// into a new string, which was three quarters of reading 900,000 metric rows.
// For bulk reads only; writes stay on QSqlQuery. A cursor must end before its
// connection closes: Qt closes with sqlite3_close, which refuses while a
// statement is open and leaves the connection open (RunStore's cursors are
// locals of one call, so they always end first).
class SqliteCursor {
public:
    [[nodiscard]] static Result<SqliteCursor> prepare(QSqlDatabase &db, const QByteArray &sql,
                                                      const QList<qint64> &binds = {});
    SqliteCursor(SqliteCursor &&other) noexcept;
    SqliteCursor &operator=(SqliteCursor &&) = delete;
    SqliteCursor(const SqliteCursor &) = delete;
    SqliteCursor &operator=(const SqliteCursor &) = delete;
    ~SqliteCursor();

    // True with a row to read, false after the last one.
    [[nodiscard]] Result<bool> next();
    // Calls read(*this) for every row; the first failing step ends it with its error.
    template <class Read>
    [[nodiscard]] Result<void> eachRow(Read &&read)
    {
        for (;;) {
            auto row = next();
            if (!row)
                return fail(row.error());
            if (!*row)
                return success();
            read(std::as_const(*this));
        }
    }

    bool isNull(int column) const;
    qint64 integer(int column) const;
    double real(int column) const;
    std::string_view utf8(int column) const;   // valid until next()
    QString text(int column) const;
    QString pooled(int column, TextPool &pool) const { return pool.get(utf8(column)); }

private:
    SqliteCursor(sqlite3 *db, sqlite3_stmt *stmt, QString what);

    sqlite3 *m_db = nullptr;
    sqlite3_stmt *m_stmt = nullptr;
    QString m_what;   // the statement's first words, for messages
};

}   // namespace scalelab
