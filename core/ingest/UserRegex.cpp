// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/UserRegex.h"

#include "core/base/InputLimits.h"

#include <QRegularExpression>

#include <re2/re2.h>

#include <vector>

namespace scalelab {

namespace {

// What RE2 does not run, named so the researcher knows what to rewrite.
QString unsupportedFeature(const QString &pattern)
{
    static const QRegularExpression lookaround(QStringLiteral("\\(\\?<?[=!]"));
    static const QRegularExpression backreference(QStringLiteral("\\\\[1-9]|\\\\[gk][<{']"));
    if (lookaround.match(pattern).hasMatch())
        return QStringLiteral("a lookahead or lookbehind ((?=, (?!, (?<=, (?<!)");
    if (backreference.match(pattern).hasMatch())
        return QStringLiteral("a backreference (\\1, \\k<name>)");
    return {};
}

}   // namespace

Result<UserRegex> UserRegex::compile(const QString &pattern)
{
    const QString shown = InputLimits::quoted(pattern, 80);
    if (pattern.size() > kMaxPatternChars)
        return fail(ErrorCode::InvalidValue,
                    QStringLiteral("the regex %1 is %2 characters long; ScaleLab takes at most %3: shorten it")
                        .arg(shown)
                        .arg(pattern.size())
                        .arg(kMaxPatternChars));
    QString rewritten = pattern;
    static const QRegularExpression pcreNamed(QStringLiteral("\\(\\?<(?=[A-Za-z_])"));
    rewritten.replace(pcreNamed, QStringLiteral("(?P<"));
    const QByteArray utf8 = rewritten.toUtf8();
    RE2::Options options;
    options.set_log_errors(false);   // the message is returned, not printed
    auto re = std::make_shared<const RE2>(re2::StringPiece(utf8.constData(), size_t(utf8.size())), options);
    if (!re->ok()) {
        const QString feature = unsupportedFeature(pattern);
        if (!feature.isEmpty())
            return fail(ErrorCode::InvalidValue,
                        QStringLiteral("the regex %1 uses %2, which ScaleLab does not run: user patterns run in "
                                       "time linear in the log, which that cannot; rewrite the pattern without it")
                            .arg(shown, feature));
        return fail(ErrorCode::InvalidValue, QStringLiteral("the regex %1 is invalid: %2; fix the pattern")
                                                 .arg(shown, InputLimits::quoted(QString::fromStdString(re->error()))));
    }
    UserRegex r;
    r.m_re = std::move(re);
    return r;
}

int UserRegex::captureCount() const
{
    return m_re ? m_re->NumberOfCapturingGroups() : 0;
}

void UserRegex::forEachMatch(std::string_view text, int maxMatches, const OnMatch &onMatch) const
{
    if (!m_re)
        return;
    const int groups = 1 + std::max(0, m_re->NumberOfCapturingGroups());
    std::vector<re2::StringPiece> found(static_cast<size_t>(groups));
    std::vector<std::string_view> views(static_cast<size_t>(groups));
    const re2::StringPiece whole(text.data(), text.size());
    size_t from = 0;
    for (int seen = 0; seen < maxMatches && from <= text.size(); ++seen) {
        if (!m_re->Match(whole, from, text.size(), RE2::UNANCHORED, found.data(), groups))
            return;
        for (int i = 0; i < groups; ++i)
            views[size_t(i)] = found[size_t(i)].data()
                                   ? std::string_view(found[size_t(i)].data(), found[size_t(i)].size())
                                   : std::string_view();
        if (!onMatch(views.data(), groups))
            return;
        const size_t end = size_t(found[0].data() - text.data()) + found[0].size();
        // An empty match moves on by one character (not into the middle of one).
        from = end;
        if (found[0].empty()) {
            ++from;
            while (from < text.size() && (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80)
                ++from;
        }
    }
}

}   // namespace scalelab
