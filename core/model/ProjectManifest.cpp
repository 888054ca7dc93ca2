// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/ProjectManifest.h"

#include "core/base/Sha256.h"

#include <algorithm>

namespace scalelab {

namespace {

bool isHexDigest(const QByteArray &s)
{
    if (s.size() != 64)
        return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}   // namespace

void ProjectManifest::sort()
{
    // By the UTF-8 bytes, as `LC_ALL=C sort` orders them: the same on every machine.
    std::sort(files.begin(), files.end(),
              [](const ProjectFile &a, const ProjectFile &b) { return a.path.toUtf8() < b.path.toUtf8(); });
}

QByteArray ProjectManifest::text() const
{
    QByteArray out;
    out.reserve(files.size() * 100);
    for (const ProjectFile &f : files) {
        out += f.sha256;
        out += ' ';
        out += QByteArray::number(f.size);
        out += ' ';
        out += QByteArray::number(f.mode(), 8);
        out += ' ';
        out += f.path.toUtf8();
        out += '\n';
    }
    return out;
}

QByteArray ProjectManifest::id() const
{
    return Sha256::hexOf(text());
}

qint64 ProjectManifest::totalBytes() const
{
    qint64 total = 0;
    for (const ProjectFile &f : files)
        total += f.size;
    return total;
}

Result<ProjectManifest> ProjectManifest::fromText(const QByteArray &text)
{
    ProjectManifest m;
    const QList<QByteArray> lines = text.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QByteArray &line = lines[i];
        if (line.isEmpty())
            continue;
        const qsizetype a = line.indexOf(' '), b = line.indexOf(' ', a + 1), c = line.indexOf(' ', b + 1);
        ProjectFile f;
        bool sizeOk = false, modeOk = false;
        if (a > 0 && b > a && c > b) {
            f.sha256 = line.left(a);
            f.size = line.mid(a + 1, b - a - 1).toLongLong(&sizeOk);
            const int mode = line.mid(b + 1, c - b - 1).toInt(&modeOk, 8);
            modeOk = modeOk && (mode == 0644 || mode == 0755);
            f.executable = mode == 0755;
            f.path = QString::fromUtf8(line.mid(c + 1));
        }
        if (!sizeOk || !modeOk || !isHexDigest(f.sha256) || f.path.isEmpty() || f.size < 0)
            return fail(ErrorCode::InvalidValue,
                        QStringLiteral("manifest line %1 is not \"<sha256> <size> <mode> <path>\"").arg(i + 1));
        m.files << f;
    }
    return m;
}

}   // namespace scalelab
