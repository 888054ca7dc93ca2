// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/InputLimits.h"

#include "core/base/PlatformFile.h"

#include <QElapsedTimer>
#include <QFile>

#include <algorithm>
#include <utility>

namespace scalelab {

namespace InputLimits {

namespace {

constexpr qint64 kChunk = 64 * 1024;

Diagnostic problem(const QString &rule, const QString &message, int line = 0)
{
    Diagnostic d;
    d.severity = Severity::Error;
    d.rule = rule;
    d.line = line;
    d.message = message;
    return d;
}

QString kindText(PlatformFile::Kind kind)
{
    switch (kind) {
    case PlatformFile::Kind::Directory:
        return QStringLiteral("it is a folder, not a file");
    case PlatformFile::Kind::Fifo:
        return QStringLiteral("it is a named pipe (FIFO), not a regular file");
    case PlatformFile::Kind::CharDevice:
    case PlatformFile::Kind::BlockDevice:
        return QStringLiteral("it is a device, not a regular file");
    case PlatformFile::Kind::Socket:
        return QStringLiteral("it is a socket, not a regular file");
    default:
        return QStringLiteral("it is not a regular file");
    }
}

Diagnostic tooLarge(const QString &name, const QString &what, qint64 maxBytes)
{
    return problem(QStringLiteral("input-too-large"),
                   QStringLiteral("%1: this %2 is larger than %3 MB, the most ScaleLab reads; "
                                  "it cannot be a real %2. Check that the right file was chosen.")
                       .arg(name, what)
                       .arg(maxBytes / (1024 * 1024)));
}

// The line (1-based) and column of byte `at`.
std::pair<int, int> lineAndColumn(QByteArrayView data, qsizetype at)
{
    const QByteArrayView before = data.first(at);
    const qsizetype lastNewline = before.lastIndexOf('\n');
    return {int(before.count('\n') + 1), int(at - lastNewline)};
}

FileRead finish(QByteArray data, const QString &name, const QString &what, Content content)
{
    FileRead r;
    if (auto bad = encodingProblem(data, name, what, content)) {
        r.problem = *bad;
        return r;
    }
    r.data = std::move(data);
    r.ok = true;
    return r;
}

}   // namespace

Result<std::unique_ptr<QFile>> openFile(const QString &path, const QString &what)
{
    const PlatformFile::Opened o = PlatformFile::openRegular(path);
    if (o.kind == PlatformFile::Kind::Missing)
        return fail(ErrorCode::LocalFile, QStringLiteral("%1: cannot read this %2: no such file").arg(path, what));
    if (o.kind != PlatformFile::Kind::Regular && o.kind != PlatformFile::Kind::Unknown)
        return fail(ErrorCode::LocalFile, QStringLiteral("%1: cannot read this %2: %3; give a regular file instead")
                                              .arg(path, what, kindText(o.kind)));
    if (o.fd < 0)
        return fail(ErrorCode::LocalFile, QStringLiteral("%1: cannot read this %2: %3").arg(path, what, o.error));
    auto f = std::make_unique<QFile>(path);
    if (!f->open(o.fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        PlatformFile::closeFd(o.fd);
        return fail(ErrorCode::LocalFile,
                    QStringLiteral("%1: cannot read this %2: %3").arg(path, what, f->errorString()));
    }
    return f;
}

FileRead readFile(const QString &path, const QString &what, qint64 maxBytes, Content content)
{
    FileRead r;
    auto opened = openFile(path, what);
    if (!opened) {
        r.problem = problem(QStringLiteral("file-unreadable"), opened.errorText());
        return r;
    }
    QFile &f = **opened;
    // Counted while reading, one byte past the cap: a file of exactly the cap
    // is accepted and one that grows while it is read is still caught.
    QByteArray data;
    data.reserve(qsizetype(std::clamp<qint64>(f.size(), 0, maxBytes) + 1));
    while (data.size() <= maxBytes) {
        const QByteArray chunk = f.read(std::min(kChunk, maxBytes + 1 - data.size()));
        if (chunk.isEmpty())
            break;
        data += chunk;
    }
    if (data.size() > maxBytes) {
        r.problem = tooLarge(path, what, maxBytes);
        return r;
    }
    if (f.error() != QFileDevice::NoError) {
        r.problem = problem(QStringLiteral("file-unreadable"),
                            QStringLiteral("%1: cannot read this %2: %3").arg(path, what, f.errorString()));
        return r;
    }
    return finish(std::move(data), path, what, content);
}

FileRead readStream(int fd, const QString &name, const QString &what, qint64 maxBytes, Content content, int idleMs,
                    int totalMs)
{
    FileRead r;
    auto stalled = [&](bool idle, qsizetype read) {
        r.problem = problem(QStringLiteral("input-stalled"),
                            QStringLiteral("%1: the %2 %3 (%4 bytes read); ScaleLab stops waiting so that a writer "
                                           "that never closes cannot hang it. Save it to a file and give that file "
                                           "instead.")
                                .arg(name, what,
                                     idle ? QStringLiteral("sent nothing for %1 s").arg(idleMs / 1000.0)
                                          : QStringLiteral("did not end within %1 s").arg(totalMs / 1000.0))
                                .arg(read));
        return r;
    };
    QElapsedTimer clock;
    clock.start();
    QByteArray data;
    for (;;) {
        const qint64 left = totalMs - clock.elapsed();
        if (left <= 0)
            return stalled(false, data.size());
        const auto wait = PlatformFile::waitReadable(fd, int(std::min<qint64>(left, idleMs)));
        if (wait == PlatformFile::Wait::TimedOut)
            return stalled(left > idleMs, data.size());
        // One read of what is there: never a wait for a full chunk.
        const qsizetype at = data.size();
        data.resize(at + qsizetype(std::min(kChunk, maxBytes + 1 - at)));
        const qint64 n =
            wait == PlatformFile::Wait::Readable ? PlatformFile::readSome(fd, data.data() + at, data.size() - at) : -1;
        if (n < 0) {
            r.problem =
                problem(QStringLiteral("file-unreadable"),
                        QStringLiteral("%1: cannot read this %2: %3").arg(name, what, PlatformFile::lastErrorText()));
            return r;
        }
        data.resize(at + qsizetype(n));
        if (n == 0)
            break;
        if (data.size() > maxBytes) {
            r.problem = tooLarge(name, what, maxBytes);
            return r;
        }
    }
    return finish(std::move(data), name, what, content);
}

std::optional<Diagnostic> encodingProblem(QByteArrayView data, const QString &name, const QString &what,
                                          Content content)
{
    if (content == Content::Binary)
        return std::nullopt;
    const auto starts = [&](QByteArrayView prefix) { return data.startsWith(prefix); };
    const QString convert = QStringLiteral("ScaleLab reads UTF-8: convert it (iconv -f %1 -t UTF-8 FILE > NEW) and "
                                           "give the new file");
    if (starts(QByteArrayView("\xff\xfe\0\0", 4)) || starts(QByteArrayView("\0\0\xfe\xff", 4)))
        return problem(QStringLiteral("input-not-utf8"),
                       QStringLiteral("%1:1: this %2 is UTF-32 text (it starts with a UTF-32 byte-order mark); %3")
                           .arg(name, what, convert.arg(QStringLiteral("UTF-32"))),
                       1);
    if (starts("\xff\xfe") || starts("\xfe\xff"))
        return problem(QStringLiteral("input-not-utf8"),
                       QStringLiteral("%1:1: this %2 is UTF-16 text (it starts with a UTF-16 byte-order mark); %3")
                           .arg(name, what, convert.arg(QStringLiteral("UTF-16"))),
                       1);
    // A log is only looked at in its first bytes: it may be hundreds of MB.
    const qsizetype nul =
        content == Content::Log ? data.first(std::min<qsizetype>(2, data.size())).indexOf('\0') : data.indexOf('\0');
    if (nul < 0)
        return std::nullopt;
    // ASCII written as UTF-16 without a byte-order mark: a NUL beside every character.
    if (nul < 2 && data.size() >= 4 && data[nul + 2] == '\0' && data[1 - nul] != '\0')
        return problem(QStringLiteral("input-not-utf8"),
                       QStringLiteral("%1:1: this %2 looks like UTF-16 text (a NUL byte beside every character); %3")
                           .arg(name, what, convert.arg(QStringLiteral("UTF-16"))),
                       1);
    if (content == Content::Log)
        return std::nullopt;
    const auto [line, column] = lineAndColumn(data, nul);
    return problem(QStringLiteral("input-not-utf8"),
                   QStringLiteral("%1:%2: line %2 holds a NUL byte (column %3): this %4 is not plain text; check "
                                  "that the right file was chosen")
                       .arg(name)
                       .arg(line)
                       .arg(column)
                       .arg(what),
                   line);
}

Diagnostics capDiagnostics(Diagnostics diags, const QString &file, int max)
{
    if (diags.size() <= max)
        return diags;
    Severity gravest = Severity::Info;
    for (qsizetype i = max; i < diags.size(); ++i)
        gravest = std::max(gravest, diags[i].severity);
    const qsizetype dropped = diags.size() - max;
    diags.resize(max);
    diags << tooManyFindings(file, dropped, max, gravest);
    return diags;
}

Diagnostic tooManyFindings(const QString &file, qsizetype dropped, int max, Severity gravest)
{
    Diagnostic d;
    d.severity = gravest;
    d.rule = QStringLiteral("too-many-findings");
    d.message = QStringLiteral("%1: %2 more findings are not shown (at most %3 per file); fix the ones above first.")
                    .arg(file.isEmpty() ? QStringLiteral("<input>") : file)
                    .arg(dropped)
                    .arg(max);
    return d;
}

QString quoted(const QString &text, int max)
{
    if (text.size() <= max)
        return text;
    return text.left(max) + QStringLiteral("... (%1 more characters)").arg(text.size() - max);
}

}   // namespace InputLimits

}   // namespace scalelab
