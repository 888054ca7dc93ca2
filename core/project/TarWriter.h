// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

namespace scalelab {

// POSIX ustar records (with a pax "path" record for a name longer than the
// ustar field), written into a byte array: what a project's objects and its
// run folder's hard links travel in, unpacked on the cluster by `tar -x`
// (GNU tar, BusyBox tar). Names are data inside the stream, never shell text.
class TarWriter {
public:
    explicit TarWriter(QByteArray &out)
        : m_out(out)
    {}
    // A regular file's header; its `size` bytes follow, then endFile(size).
    void beginFile(const QByteArray &name, int mode, qint64 size, qint64 mtime);
    void endFile(qint64 size);
    void addFile(const QByteArray &name, int mode, const QByteArray &data, qint64 mtime);
    // A hard link `name` to `target` (a member path relative to where tar unpacks).
    void addHardLink(const QByteArray &name, const QByteArray &target);
    void finish();   // the two empty blocks that end an archive
    // `data` in gzip's format (what `tar -z` reads): an archive of hard links
    // is mostly zeros and repeated names, about a tenth of its size gzipped.
    static QByteArray gzip(const QByteArray &data);

private:
    void header(const QByteArray &name, int mode, qint64 size, char type, const QByteArray &link, qint64 mtime);
    void paxPath(const QByteArray &name);

    QByteArray &m_out;
};

}   // namespace scalelab
