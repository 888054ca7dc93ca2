// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/SegmentLog.h"

#include "core/base/AtomicFile.h"
#include "core/base/InputLimits.h"

#include <QFileInfo>

namespace scalelab {

Result<QString> SegmentLog::join(const QList<FileRecord> &files, const QStringList &jobIds, const QString &target)
{
    QByteArray joined;
    int found = 0;
    for (const QString &jobId : jobIds) {
        const QString name = QStringLiteral("scalelab-%1.out").arg(jobId);
        for (const FileRecord &f : files) {
            if (QFileInfo(f.remotePath).fileName() != name || f.localPath.isEmpty() || !QFileInfo(f.localPath).isFile())
                continue;
            const InputLimits::FileRead in = InputLimits::readFile(
                f.localPath, QStringLiteral("job output"), InputLimits::kMaxFileBytes, InputLimits::Content::Log);
            if (!in.ok)
                return fail(ErrorCode::InvalidValue, in.problem.message);
            joined += in.data;
            if (!joined.isEmpty() && !joined.endsWith('\n'))
                joined += '\n';
            ++found;
            break;
        }
    }
    if (found == 0)
        return fail(ErrorCode::NotFound, QStringLiteral("no segment's output was fetched"));
    if (auto e = AtomicFile::write(target, joined); !e)
        return fail(e.error());
    return target;
}

}   // namespace scalelab
