// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/RemoteValidation.h"

#include <QRegularExpression>
#include <QStringList>

#include <utility>

namespace scalelab {

namespace {

bool isControl(ushort u)
{
    return u < 0x20 || u == 0x7f || (u >= 0x80 && u < 0xa0);
}

// What a terminal would show: ANSI CSI/OSC sequences (colours, cursor
// movement, titles) removed whole, and of a line a progress bar redrew with
// "\r", its last drawing.
QString lastDrawing(QString text)
{
    static const QRegularExpression ansi(
        QStringLiteral("\x1b\\[[0-9;?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(\x07|\x1b\\\\)?"));
    text.remove(ansi);
    text.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString &line : lines)
        if (const qsizetype cr = line.lastIndexOf(QLatin1Char('\r'), line.size() - 2); cr >= 0)
            line = line.mid(cr + 1);
    return lines.join(QLatin1Char('\n'));
}

bool isPathChar(QChar c)
{
    const ushort u = c.unicode();
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '.' || u == '_'
           || u == '-' || u == '+';
}
}   // namespace

bool RemoteValidation::isJobId(const QString &s)
{
    if (s.isEmpty() || s.size() > 18)
        return false;
    for (QChar c : s)
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return false;
    return true;
}

bool RemoteValidation::isRunToken(const QString &s)
{
    if (s.isEmpty() || s.size() > 64 || s.startsWith(QLatin1Char('-')))
        return false;
    for (QChar c : s) {
        const ushort u = c.unicode();
        if (!((u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '-'))
            return false;
    }
    return true;
}

bool RemoteValidation::isSafeFileName(const QString &s)
{
    if (s.isEmpty() || s.size() > 255 || s == QLatin1String(".") || s == QLatin1String("..")
        || s.startsWith(QLatin1Char('-')))
        return false;
    for (QChar c : s)
        if (!isPathChar(c))
            return false;
    return true;
}

bool RemoteValidation::isSafePath(const QString &s)
{
    if (!s.startsWith(QLatin1Char('/')) || s.size() > 1024)
        return false;
    if (s == QLatin1String("/"))
        return true;
    const QStringList parts = s.mid(1).split(QLatin1Char('/'));
    for (qsizetype i = 0; i < parts.size(); ++i) {
        // A trailing '/' is tolerated; empty segments elsewhere are not.
        if (parts[i].isEmpty() && i == parts.size() - 1 && i > 0)
            continue;
        if (!isSafeFileName(parts[i]))
            return false;
    }
    return true;
}

QString RemoteValidation::sanitize(const QByteArray &text, const Printable &how)
{
    QString s = QString::fromUtf8(text);
    if (how.terminal)
        s = lastDrawing(s);
    QString out;
    out.reserve(how.maxChars > 0 ? qMin<qsizetype>(s.size(), how.maxChars) : s.size());
    for (QChar c : std::as_const(s)) {
        if (how.maxChars > 0 && out.size() >= how.maxChars) {
            out += QStringLiteral("…");
            break;
        }
        const ushort u = c.unicode();
        if (u == '\n' || u == '\t')
            out += how.oneLine ? QChar(u' ') : c;
        else if (!isControl(u))
            out += c;
    }
    return how.trim ? out.trimmed() : out;
}

}   // namespace scalelab
