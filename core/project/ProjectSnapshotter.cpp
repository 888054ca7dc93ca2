// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/project/ProjectSnapshotter.h"

#include "core/base/InputLimits.h"
#include "core/base/Sha256.h"
#include "core/project/GitState.h"
#include "core/project/ProjectWalker.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLocale>

#include <algorithm>

namespace scalelab {

namespace {

constexpr qint64 kReadChunk = 1024 * 1024;
constexpr int kOffendersShown = 5;

struct Heavy {
    QString name;
    qint64 bytes = 0;
    qsizetype files = 0;
};

// The largest files and top-level folders, heaviest first.
QStringList largestOffenders(const QList<ProjectWalker::Entry> &files)
{
    QList<Heavy> singles;
    QHash<QString, Heavy> folders;
    for (const auto &f : files) {
        singles << Heavy{f.path, f.size, 1};
        if (const qsizetype slash = f.path.indexOf(QLatin1Char('/')); slash > 0) {
            Heavy &h = folders[f.path.left(slash + 1)];
            h.name = f.path.left(slash + 1);
            h.bytes += f.size;
            ++h.files;
        }
    }
    QList<Heavy> dirs = folders.values();
    auto heavier = [](const Heavy &a, const Heavy &b) {
        return a.bytes != b.bytes ? a.bytes > b.bytes : a.files > b.files;
    };
    std::sort(dirs.begin(), dirs.end(), heavier);
    const qsizetype k = std::min<qsizetype>(kOffendersShown, singles.size());
    std::partial_sort(singles.begin(), singles.begin() + k, singles.end(), heavier);
    QStringList out;
    for (qsizetype i = 0; i < std::min<qsizetype>(kOffendersShown, dirs.size()); ++i)
        out << QStringLiteral("  %1  (%2 files, %3)")
                   .arg(dirs[i].name, QLocale::c().toString(qlonglong(dirs[i].files)),
                        ProjectSnapshotter::sizeText(dirs[i].bytes));
    for (qsizetype i = 0; i < k; ++i)
        out << QStringLiteral("  %1  (%2)").arg(singles[i].name, ProjectSnapshotter::sizeText(singles[i].bytes));
    return out;
}

QString overCap(const QString &folder, const ProjectWalker::Walk &walk, qint64 bytes, const SnapshotLimits &limits)
{
    const QString count =
        QLocale::c().toString(qlonglong(walk.files.size())) + (walk.stopped ? QStringLiteral("+") : QString());
    return QStringLiteral("the project folder %1 holds %2 files, %3: over the cap of %4 files, %5. The largest:\n%6\n"
                          "Name what the job does not need in %1/.scalelabignore (one pattern a line, as in "
                          ".gitignore, e.g. \"data/\" or \"*.ckpt\"), or keep data on the cluster and give its path "
                          "in the arguments.")
        .arg(folder, count, ProjectSnapshotter::sizeText(bytes), QLocale::c().toString(qlonglong(limits.maxFiles)),
             ProjectSnapshotter::sizeText(limits.maxBytes), largestOffenders(walk.files).join(QLatin1Char('\n')));
}

Result<ProjectFile> hashFile(const ProjectWalker::Entry &e, QByteArray &buffer)
{
    auto opened = InputLimits::openFile(e.source, QStringLiteral("project file"));
    if (!opened)
        return fail(ErrorCode::LocalFile, opened.error().message);
    QFile &f = **opened;
    Sha256 hash;
    qint64 size = 0;
    for (;;) {
        const qint64 n = f.read(buffer.data(), buffer.size());
        if (n < 0)
            return fail(ErrorCode::LocalFile,
                        QStringLiteral("cannot read the project file %1: %2").arg(e.source, f.errorString()));
        if (n == 0)
            break;
        hash.add(buffer.constData(), n);
        size += n;
    }
    return ProjectFile{e.path, size, e.executable, hash.hexDigest()};
}

}   // namespace

QString ProjectSnapshotter::sizeText(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
}

Result<ProjectSnapshot> ProjectSnapshotter::take(const QString &folder, const SnapshotLimits &limits)
{
    // Room past the cap so the refusal can name where the files are.
    const qsizetype stopAt = std::max<qsizetype>(limits.maxFiles * 2, 1000);
    const auto walked = ProjectWalker::walk(folder, stopAt);
    if (!walked)
        return fail(walked.error());
    const ProjectWalker::Walk &walk = *walked;
    qint64 bytes = 0;
    for (const auto &f : walk.files)
        bytes += f.size;
    const QString root = QFileInfo(folder).canonicalFilePath();
    if (walk.stopped || walk.files.size() > limits.maxFiles || bytes > limits.maxBytes)
        return fail(ErrorCode::InvalidValue, overCap(root, walk, bytes, limits));
    ProjectSnapshot s;
    s.folder = root;
    s.skipped = walk.skipped;
    s.excluded = walk.excluded;
    QByteArray buffer(int(kReadChunk), Qt::Uninitialized);
    for (const auto &e : walk.files) {
        auto file = hashFile(e, buffer);
        if (!file)
            return fail(file.error());
        s.manifest.files << *file;
    }
    s.manifest.sort();
    s.id = s.manifest.id();
    if (const auto git = GitState::read(root)) {
        s.gitCommit = git->commit;
        s.gitDirty = git->dirty;
    }
    return s;
}

}   // namespace scalelab
