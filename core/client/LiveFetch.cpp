// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/client/LiveFetch.h"

#include "core/base/RemoteValidation.h"
#include "core/base/ShellQuote.h"

namespace scalelab {

namespace {

// The body for one run: in its folder, each sample file and the output.
QString runBody(const LiveTarget &t, qint64 maxBytesPerFile)
{
    QStringList cases;
    for (auto it = t.offsets.cbegin(); it != t.offsets.cend(); ++it)
        cases << QStringLiteral("%1) o=%2;;").arg(ShellQuote::quote(it.key()), QString::number(it.value()));
    const QString gpuGlob =
        ShellQuote::quote(QStringLiteral("scalelab-gpu-%1-").arg(t.jobId)) + QStringLiteral("*.csv");
    const QString out = ShellQuote::quote(QStringLiteral("scalelab-%1.out").arg(t.jobId));
    // Numbers first, then the quoted texts in one pass (a '%' in them is never read as a placeholder).
    return QStringLiteral("( cd %4 2>/dev/null || exit 0\n"
                          "for f in %5 %6; do\n"
                          "  [ -f \"$f\" ] || continue\n"
                          "  case \"$f\" in %7 *) o=0;; esac\n"
                          "  s=$(($(wc -c < \"$f\")))\n"
                          "  [ \"$s\" -lt \"$o\" ] && o=0\n"
                          "  n=$((s - o)); [ \"$n\" -gt %1 ] && n=%1\n"
                          "  printf '%2%s %s %s %s %s\\n' %3 \"$f\" \"$o\" \"$s\" \"$n\"\n"
                          "  if [ \"$n\" -gt 0 ]; then tail -c +$((o + 1)) \"$f\" | head -c \"$n\"; fi\n"
                          "done )\n")
        .arg(maxBytesPerFile)
        .arg(QString::fromLatin1(LiveFetch::kFrameMark))
        .arg(t.runId)
        .arg(ShellQuote::quote(t.remoteDir), gpuGlob, out, cases.join(u' '));
}

}   // namespace

QString LiveFetch::script(const QList<LiveTarget> &targets, qint64 maxBytesPerFile)
{
    QString s = QStringLiteral("LC_ALL=C; export LC_ALL\n");
    for (const LiveTarget &t : targets)
        if (RemoteValidation::isSafePath(t.remoteDir) && RemoteValidation::isJobId(t.jobId))
            s += runBody(t, maxBytesPerFile);
    return s + QStringLiteral("exit 0\n");
}

Result<QList<LiveChunk>> LiveFetch::parse(const QByteArray &reply)
{
    QList<LiveChunk> out;
    const QByteArrayView mark(kFrameMark);
    qsizetype at = 0;
    while (at < reply.size()) {
        const qsizetype eol = reply.indexOf('\n', at);
        const QByteArrayView line = eol < 0 ? QByteArrayView() : QByteArrayView(reply).sliced(at, eol - at);
        const QList<QByteArray> f =
            line.startsWith(mark) ? line.sliced(mark.size()).toByteArray().split(' ') : QList<QByteArray>();
        bool ok[4] = {false, false, false, false};
        LiveChunk c;
        if (f.size() == 5) {
            c.runId = f[0].toLongLong(&ok[0]);
            c.name = QString::fromUtf8(f[1]);
            c.offset = f[2].toLongLong(&ok[1]);
            c.size = f[3].toLongLong(&ok[2]);
        }
        const qint64 n = f.size() == 5 ? f[4].toLongLong(&ok[3]) : -1;
        if (!ok[0] || !ok[1] || !ok[2] || !ok[3] || n < 0 || c.offset < 0 || eol + 1 + n > reply.size()
            || !c.name.startsWith(QLatin1String("scalelab-")) || !RemoteValidation::isSafeFileName(c.name))
            return fail(ErrorCode::RemoteFailed,
                        QStringLiteral("the live watch's reply is cut or garbled at byte %1: %2")
                            .arg(at)
                            .arg(RemoteValidation::sanitize(reply.mid(at, 80), 80)));
        c.data = reply.mid(eol + 1, n);
        out << c;
        at = eol + 1 + n;
    }
    return out;
}

}   // namespace scalelab
