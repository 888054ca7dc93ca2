// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/client/ProjectSync.h"

#include "core/base/InputLimits.h"
#include "core/base/RemoteValidation.h"
#include "core/base/Sha256.h"
#include "core/base/ShellQuote.h"
#include "core/project/TarWriter.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>

namespace scalelab {

namespace {

constexpr int kCommandTimeoutMs = 10 * 60 * 1000;   // one pack or the layout of a large tree
constexpr char kSumsName[] = ".scalelab-snapshot.sha256";

QStringList shell(const QString &body)
{
    return {QStringLiteral("sh"), QStringLiteral("-c"), body};
}

// The file's bytes, refused when they are no longer what the snapshot hashed.
Result<QByteArray> readChecked(const QString &folder, const ProjectFile &f)
{
    const QString path = folder + QLatin1Char('/') + f.path;
    auto opened = InputLimits::openFile(path, QStringLiteral("project file"));
    if (!opened)
        return fail(ErrorCode::LocalFile, opened.error().message);
    const QByteArray data = (*opened)->readAll();
    if (data.size() != f.size || Sha256::hexOf(data) != f.sha256)
        return fail(ErrorCode::LocalFile, QStringLiteral("%1 changed since the snapshot was taken; submit again to "
                                                         "send the folder as it is now")
                                              .arg(path));
    return data;
}

}   // namespace

ProjectSync::ProjectSync(RemoteExecutor &executor)
    : m_exec(executor)
{}

QString ProjectSync::objectsFolder(const QString &root)
{
    return root + QStringLiteral("/.scalelab/objects");
}

Result<void> ProjectSync::checked(const RemoteResult &r, const QString &what)
{
    ++m_report.commands;
    if (!r.transportOk())
        return fail(ErrorCode::Transport, QStringLiteral("%1: %2").arg(what, r.transportError));
    if (r.exitCode != 0)
        return fail(ErrorCode::RemoteFailed, QStringLiteral("%1 failed on the cluster (exit %2): %3")
                                                 .arg(what)
                                                 .arg(r.exitCode)
                                                 .arg(RemoteValidation::sanitize(r.err + r.out, 600)));
    return success();
}

// One command for the whole manifest: the names of the objects already there.
// It also clears packs left half-unpacked more than a day ago.
Result<QSet<QByteArray>> ProjectSync::presentObjects(const ProjectManifest &manifest, const QString &root)
{
    QByteArray names;
    for (const ProjectFile &f : manifest.files)
        names += f.objectName() + '\n';
    const QString body =
        QStringLiteral("o=%1; mkdir -p \"$o/.incoming\" || exit 96; find \"$o/.incoming\" -mindepth 1 -maxdepth 1 "
                       "-mmin +1440 -exec rm -rf {} + 2>/dev/null; cd \"$o\" || exit 96; "
                       "while read -r n; do if [ -f \"$n\" ]; then echo \"$n\"; fi; done; exit 0")
            .arg(ShellQuote::quote(objectsFolder(root)));
    m_report.wireBytes += names.size();
    const RemoteResult r = m_exec.runWithInput(shell(body), names, kCommandTimeoutMs);
    if (auto e = checked(r, QStringLiteral("asking which project files are on the cluster")); !e)
        return fail(e.error());
    QSet<QByteArray> present;
    for (const QByteArray &line : r.out.split('\n'))
        if (!line.trimmed().isEmpty())
            present.insert(line.trimmed());
    return present;
}

// A pack is unpacked beside the store, checked, then renamed into it. The
// check is OpenSSL's SHA-256 where the cluster has `openssl` (its SHA
// extensions: three times coreutils' speed here), else sha256sum.
Result<void> ProjectSync::sendPack(const QString &root, const QByteArray &pack)
{
    const QString body =
        QStringLiteral(
            "umask 022; o=%1; t=$(mktemp -d \"$o/.incoming/p.XXXXXX\") || exit 96; cd \"$t\" || exit 96; "
            "v() { if command -v openssl >/dev/null 2>&1; then sort .sums > .want && "
            "openssl dgst -sha256 -r -- * | sed \"s/ [*]/  /\" | sort | cmp -s - .want; "
            "else sha256sum -c --quiet --strict .sums; fi || { echo 'a file arrived damaged' >&2; false; }; }; "
            "if tar -xf - && v && rm -f .sums .want && mv -f -- * \"$o/\"; "
            "then cd \"$o\" && rmdir \"$t\"; exit 0; fi; cd \"$o\" && rm -rf \"$t\"; exit 95")
            .arg(ShellQuote::quote(objectsFolder(root)));
    m_report.wireBytes += pack.size();
    return checked(m_exec.runWithInput(shell(body), pack, kCommandTimeoutMs),
                   QStringLiteral("storing project files on the cluster"));
}

// One tar of hard links (and the sha256sum file), gzipped, unpacked under
// ROOT, then compared by tar itself: each member must be linked to its object.
Result<void> ProjectSync::layOut(const ProjectSnapshot &snapshot, const QString &root, const QString &runFolder)
{
    const QString rel = runFolder.mid(root.size() + 1);   // "runs/<name>"
    const QByteArray prefix = rel.toUtf8() + '/';
    QByteArray stream, sums;
    TarWriter tar(stream);
    for (const ProjectFile &f : snapshot.manifest.files) {
        tar.addHardLink(prefix + f.path.toUtf8(), ".scalelab/objects/" + f.objectName());
        sums += f.sha256 + "  " + f.path.toUtf8() + '\n';
    }
    tar.addFile(prefix + kSumsName, 0644, sums, QDateTime::currentSecsSinceEpoch());
    tar.finish();
    stream = TarWriter::gzip(stream);
    if (stream.isEmpty())
        return fail(ErrorCode::LocalFile, QStringLiteral("cannot compress the run folder's layout"));
    const QString name = rel.section(QLatin1Char('/'), -1);
    const QString body =
        QStringLiteral(
            "umask 022; cd %1 || exit 96; l=.scalelab/objects/.incoming/%2.layout.tar.gz; "
            "cat > \"$l\" || exit 96; mkdir -p %3 || exit 96; "
            "if tar -xzf \"$l\" 2>/dev/null && tar --exclude=%4 -dzf \"$l\" >&2; then rm -f \"$l\"; exit 0; fi; "
            "rm -f \"$l\"; exit 94")
            .arg(ShellQuote::quote(root), name, ShellQuote::quote(rel),
                 ShellQuote::quote(rel + QLatin1Char('/') + QLatin1String(kSumsName)));
    m_report.wireBytes += stream.size();
    const RemoteResult r = m_exec.runWithInput(shell(body), stream, kCommandTimeoutMs);
    if (r.transportOk() && r.exitCode == 94) {
        ++m_report.commands;
        return copyInstead(snapshot, root, runFolder);
    }
    return checked(r, QStringLiteral("laying out the run folder %1").arg(runFolder));
}

// Where hard links fail (the run folder on another file system than the
// store): one copy per file, each compared with its object.
Result<void> ProjectSync::copyInstead(const ProjectSnapshot &snapshot, const QString &root, const QString &runFolder)
{
    const QString rel = runFolder.mid(root.size() + 1);
    QStringList lines{QStringLiteral("cd %1 || exit 96").arg(ShellQuote::quote(root)),
                      QStringLiteral("c() { mkdir -p -- \"$(dirname -- \"$2\")\" && cp -f -- \".scalelab/objects/$1\" "
                                     "\"$2\" && cmp -s -- \".scalelab/objects/$1\" \"$2\" || exit 93; }")};
    for (const ProjectFile &f : snapshot.manifest.files)
        lines << QStringLiteral("c %1 %2").arg(QString::fromLatin1(f.objectName()),
                                               ShellQuote::quote(rel + QLatin1Char('/') + f.path));
    lines << QStringLiteral("exit 0");
    const QByteArray script = lines.join(QLatin1Char('\n')).toUtf8() + '\n';
    m_report.wireBytes += script.size();
    m_report.copied = true;
    return checked(m_exec.runWithInput({QStringLiteral("sh"), QStringLiteral("-s")}, script, kCommandTimeoutMs),
                   QStringLiteral("copying the snapshot into the run folder %1").arg(runFolder));
}

Result<SyncReport> ProjectSync::send(const ProjectSnapshot &snapshot, const QString &root, const QString &runFolder,
                                     const Progress &progress)
{
    m_report = {};
    QElapsedTimer clock;
    clock.start();
    const auto present = presentObjects(snapshot.manifest, root);
    if (!present)
        return fail(present.error());
    QList<ProjectFile> missing;
    QSet<QByteArray> queued;
    SyncProgress &p = m_report.progress;
    for (const ProjectFile &f : snapshot.manifest.files) {
        if (present->contains(f.objectName())) {
            ++p.filesPresent;
        } else if (!queued.contains(f.objectName())) {
            queued.insert(f.objectName());
            missing << f;
            ++p.filesToSend;
            p.bytesToSend += f.size;
        }
    }
    if (progress && !progress(p))
        return fail(ErrorCode::WrongState, QStringLiteral("the upload was cancelled; nothing was submitted"));
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    for (qsizetype i = 0; i < missing.size();) {
        QByteArray pack, sums;
        TarWriter tar(pack);
        qsizetype inPack = 0;
        for (; i < missing.size() && (inPack == 0 || (pack.size() < kPackBytes && inPack < kPackFiles));
             ++i, ++inPack) {
            const ProjectFile &f = missing[i];
            const auto data = readChecked(snapshot.folder, f);
            if (!data)
                return fail(data.error());
            tar.addFile(f.objectName(), f.executable ? 0555 : 0444, *data, now);
            sums += f.sha256 + "  " + f.objectName() + '\n';
            p.bytesSent += f.size;
        }
        tar.addFile(".sums", 0644, sums, now);
        tar.finish();
        if (auto e = sendPack(root, pack); !e)
            return fail(e.error());
        p.filesSent += inPack;
        p.elapsedMs = clock.elapsed();
        m_exec.reached(SubmitStep::ObjectsPackSent);
        if (progress && !progress(p) && i < missing.size())
            return fail(ErrorCode::WrongState, QStringLiteral("the upload was cancelled after %1 of %2 files; "
                                                              "what was sent stays on the cluster for the next try")
                                                   .arg(p.filesSent)
                                                   .arg(p.filesToSend));
    }
    m_exec.reached(SubmitStep::SnapshotSent);
    if (auto e = layOut(snapshot, root, runFolder); !e)
        return fail(e.error());
    p.elapsedMs = clock.elapsed();
    m_exec.reached(SubmitStep::SnapshotLaidOut);
    return m_report;
}

}   // namespace scalelab
