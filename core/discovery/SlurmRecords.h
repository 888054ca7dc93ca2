// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace scalelab {

// One record of `scontrol show ...` output (a partition, a node): its
// Key=Value fields in the order printed. Keys are looked up by several names
// because Slurm renamed some between releases (Shared -> OverSubscribe,
// CPUTot -> CPUEfctv, ...).
struct SlurmRecord {
    QList<QPair<QString, QString>> fields;

    // The first of `keys` that is present, else empty; `found` says which.
    QString value(std::initializer_list<const char *> keys, bool *found = nullptr) const;
    QString value(const char *key) const { return value({key}); }
    bool has(const char *key) const;
};

class SlurmRecords {
public:
    // Decodes output bytes: UTF-8, with invalid bytes replaced (U+FFFD) so a
    // non-UTF-8 name can never make the profile file invalid.
    static QString decode(const QByteArray &bytes);

    // Splits `scontrol show partition|node` output, one-line (-o) or
    // multi-line, into records. A record starts at `firstKey=`. A word that
    // is not `Key=...` continues the previous value (OS=Linux 5.4 #1 SMP,
    // Reason=... with spaces, a name with spaces).
    static QList<SlurmRecord> split(const QString &text, const QString &firstKey);

    // `sacctmgr -P` output with its header line: one record per row, keys
    // from the header. `--parsable2` and `--parsable` (trailing '|') both work.
    static QList<SlurmRecord> splitParsable(const QString &text);

    // Splits a comma list, keeping commas inside parentheses:
    // "gpu:a100:4(S:0,2),gpfs:ess:no_consume:1".
    static QStringList splitTopLevel(const QString &list, QChar sep = QLatin1Char(','));

    // "UNLIMITED", "INFINITE", "NONE", "N/A", "(null)", "" -> true.
    static bool isNone(const QString &v);
};

}   // namespace scalelab
