// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QByteArray>
#include <QSaveFile>
#include <QString>

#include <functional>

namespace scalelab {

// A file replaced whole or not at all. The bytes go to a temporary file in
// the same folder; commit() flushes it, forces it to the disk, renames it over
// the target and forces the folder's entry too. A full disk, a refused write
// or a kill at any moment leaves the previous file as it was (a kill may leave
// the temporary beside it). A folder where the file should be is refused.
// An existing file keeps its permissions (PrivateFiles' 0600 stays 0600).
// Every file ScaleLab writes goes through here; streamed writers (QPdfWriter,
// QImage::save) write to device().
class AtomicFile : public QIODevice {
public:
    explicit AtomicFile(const QString &path);
    ~AtomicFile();   // without commit(): the temporary goes, the target stays
    AtomicFile(const AtomicFile &) = delete;
    AtomicFile &operator=(const AtomicFile &) = delete;

    Result<void> open();
    // Where a streamed writer writes. Every write is checked here: one the
    // disk refuses (or takes only in part, which Qt does not call an error)
    // is kept with its reason, and commit() then refuses to replace the file.
    QIODevice *device() { return this; }
    // Bytes written so far (0: a streamed writer wrote nothing).
    qint64 written() const { return m_written; }
    Result<void> commit();
    const QString &path() const { return m_path; }

    // The whole file in one call: open, write, commit.
    static Result<void> write(const QString &path, const QByteArray &bytes);
    // For writers that only take a file name (QCustomPlot::savePdf): `writer`
    // writes the temporary it is given, which then replaces `path` as above.
    static Result<void> writeThrough(const QString &path, const std::function<bool(const QString &)> &writer);
    // Whether `path` can be written at all: a folder or a missing folder is refused.
    static Result<void> checkTarget(const QString &path);

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 len) override;

private:
    using QIODevice::open;   // opened only through open() above, never with a mode from outside
    static Result<void> replaceWith(const QString &temp, const QString &path);
    Result<void> failure(const QString &why) const;

    QString m_path;
    QSaveFile m_file;
    qint64 m_written = 0;
    QString m_refused;   // why a write failed, "" while none did
};

}   // namespace scalelab
