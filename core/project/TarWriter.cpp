// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/project/TarWriter.h"

#include <algorithm>
#include <cstring>

#include <zlib.h>

namespace scalelab {

namespace {

constexpr int kBlock = 512;
constexpr qsizetype kNameField = 100;

void putOctal(char *field, int width, qint64 value)
{
    // width - 1 digits, then NUL.
    const QByteArray digits = QByteArray::number(value, 8).rightJustified(width - 1, '0');
    std::memcpy(field, digits.constData(), size_t(width - 1));
    field[width - 1] = '\0';
}

void pad(QByteArray &out, qint64 size)
{
    const qint64 rest = size % kBlock;
    if (rest != 0)
        out.append(int(kBlock - rest), '\0');
}

}   // namespace

void TarWriter::header(const QByteArray &name, int mode, qint64 size, char type, const QByteArray &link, qint64 mtime)
{
    char h[kBlock];
    std::memset(h, 0, sizeof h);
    std::memcpy(h, name.constData(), size_t(std::min<qsizetype>(name.size(), kNameField)));
    putOctal(h + 100, 8, mode & 07777);
    putOctal(h + 108, 8, 0);
    putOctal(h + 116, 8, 0);
    putOctal(h + 124, 12, size);
    putOctal(h + 136, 12, mtime);
    h[156] = type;
    std::memcpy(h + 157, link.constData(), size_t(std::min<qsizetype>(link.size(), kNameField)));
    std::memcpy(h + 257, "ustar", 6);
    std::memcpy(h + 263, "00", 2);
    std::memset(h + 148, ' ', 8);
    unsigned sum = 0;
    for (unsigned char c : h)
        sum += c;
    const QByteArray chk = QByteArray::number(sum, 8).rightJustified(6, '0');
    std::memcpy(h + 148, chk.constData(), 6);
    h[154] = '\0';
    h[155] = ' ';
    m_out.append(h, kBlock);
}

void TarWriter::paxPath(const QByteArray &name)
{
    // "<length> path=<name>\n", the length counting its own digits.
    const QByteArray body = " path=" + name + "\n";
    qsizetype length = body.size() + 1;
    while (QByteArray::number(length).size() + body.size() != length)
        ++length;
    const QByteArray record = QByteArray::number(length) + body;
    header("PaxHeader", 0644, record.size(), 'x', {}, 0);
    m_out += record;
    pad(m_out, record.size());
}

void TarWriter::beginFile(const QByteArray &name, int mode, qint64 size, qint64 mtime)
{
    if (name.size() >= kNameField)
        paxPath(name);
    header(name, mode, size, '0', {}, mtime);
}

void TarWriter::endFile(qint64 size)
{
    pad(m_out, size);
}

void TarWriter::addFile(const QByteArray &name, int mode, const QByteArray &data, qint64 mtime)
{
    beginFile(name, mode, data.size(), mtime);
    m_out += data;
    endFile(data.size());
}

void TarWriter::addHardLink(const QByteArray &name, const QByteArray &target)
{
    if (name.size() >= kNameField)
        paxPath(name);
    header(name, 0644, 0, '1', target, 0);
}

void TarWriter::finish()
{
    m_out.append(2 * kBlock, '\0');
}

QByteArray TarWriter::gzip(const QByteArray &data)
{
    z_stream z{};
    // 15 + 16: a window of 2^15 bytes with gzip's header and trailer.
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return {};
    QByteArray out(int(deflateBound(&z, uLong(data.size()))), Qt::Uninitialized);
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    z.avail_in = uInt(data.size());
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = uInt(out.size());
    const int rc = deflate(&z, Z_FINISH);
    out.resize(int(z.total_out));
    deflateEnd(&z);
    return rc == Z_STREAM_END ? out : QByteArray();
}

}   // namespace scalelab
