#include "ShellQuote.h"

namespace scalelab {

bool ShellQuote::isPlain(const QString &word)
{
    if (word.isEmpty())
        return false;
    for (QChar c : word) {
        const ushort u = c.unicode();
        const bool ok = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_'
            || u == '-' || u == '.' || u == '/' || u == ',' || u == ':' || u == '=' || u == '+' || u == '@'
            || u == '%';
        if (!ok)
            return false;
    }
    return true;
}

bool ShellQuote::isSafeForRemote(const QString &word)
{
    for (QChar c : word)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f || c == QLatin1Char('!'))
            return false;   // newline breaks tcsh; '!' is history expansion in csh shells
    return true;
}

QString ShellQuote::quote(const QString &word)
{
    if (isPlain(word))
        return word;
    QString out;
    out.reserve(word.size() + 2);
    out += QLatin1Char('\'');
    for (QChar c : word) {
        if (c == QLatin1Char('\''))
            out += QStringLiteral("'\"'\"'");
        else
            out += c;
    }
    out += QLatin1Char('\'');
    return out;
}

QString ShellQuote::join(const QStringList &argv)
{
    QStringList q;
    q.reserve(argv.size());
    for (const auto &a : argv)
        q << quote(a);
    return q.join(QLatin1Char(' '));
}

} // namespace scalelab
