// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/ShellQuote.h"

namespace scalelab {

bool ShellQuote::isPlain(const QString &word)
{
    // zsh expands a leading '=' (=cmd is the path of cmd).
    if (word.isEmpty() || word.startsWith(QLatin1Char('=')))
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
        else if (c == QLatin1Char('\\'))
            out += QStringLiteral("'\\\\'");   // fish reads \\ and \' inside single quotes as escapes
        else
            out += c;
    }
    out += QLatin1Char('\'');
    return out;
}

QString ShellQuote::quoteExpandingVariables(const QString &value)
{
    QString out;
    out.reserve(value.size() + 2);
    out += QLatin1Char('"');
    for (qsizetype i = 0; i < value.size(); ++i) {
        const QChar c = value.at(i);
        if (c == QLatin1Char('\\') || c == QLatin1Char('"') || c == QLatin1Char('`')) {
            out += QLatin1Char('\\');
            out += c;
        } else if (c == QLatin1Char('$')) {
            const QChar next = i + 1 < value.size() ? value.at(i + 1) : QChar();
            const bool variable =
                next == QLatin1Char('_') || next == QLatin1Char('{') || (next.unicode() < 128 && next.isLetter());
            if (!variable)
                out += QLatin1Char('\\');
            else if (next == QLatin1Char('{')) {
                // ${NAME} only; ${x:-$(cmd)} and friends stay literal.
                const qsizetype close = value.indexOf(QLatin1Char('}'), i);
                bool plain = close > i + 2;
                for (qsizetype k = i + 2; plain && k < close; ++k)
                    plain = value.at(k) == QLatin1Char('_')
                            || (value.at(k).unicode() < 128 && value.at(k).isLetterOrNumber());
                if (!plain)
                    out += QLatin1Char('\\');
            }
            out += c;
        } else {
            out += c;
        }
    }
    out += QLatin1Char('"');
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

}   // namespace scalelab
