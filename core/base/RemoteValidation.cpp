// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/RemoteValidation.h"

#include <QStringList>

namespace scalelab {

namespace {
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

QString RemoteValidation::sanitize(const QByteArray &text, int maxChars)
{
    QString s = QString::fromUtf8(text);
    QString out;
    out.reserve(qMin<qsizetype>(s.size(), maxChars));
    for (QChar c : s) {
        if (out.size() >= maxChars) {
            out += QStringLiteral("…");
            break;
        }
        const ushort u = c.unicode();
        if (u == '\n' || u == '\t')
            out += c;
        else if (u == '\r')
            continue;
        else if (u < 0x20 || u == 0x7f || (u >= 0x80 && u < 0xa0))
            out += QChar(0xfffd);
        else
            out += c;
    }
    return out.trimmed();
}

}   // namespace scalelab
