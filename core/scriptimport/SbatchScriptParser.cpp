// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/SbatchScriptParser.h"

#include "core/base/InputLimits.h"
#include "core/base/ShellWords.h"
#include "core/scriptimport/SitePluginOptions.h"

#include <QRegularExpression>

#include <algorithm>
#include <iterator>
#include <optional>

namespace scalelab {

namespace {

Diagnostic finding(Severity sev, const QString &rule, int line, const QString &message, int column = 0)
{
    Diagnostic d;
    d.severity = sev;
    d.rule = rule;
    d.line = line;
    d.column = column;
    d.message = message;
    return d;
}

struct DirectiveWord {
    QString text;
    int column;   // 1-based
};

// #SBATCH arguments: blank-separated words, quotes removed, a word starting
// with '#' starts a comment. No variable expansion: sbatch does none.
QList<DirectiveWord> directiveWords(const QString &line, int from)
{
    QList<DirectiveWord> out;
    int i = from;
    const int n = int(line.size());
    while (i < n) {
        while (i < n && line.at(i).isSpace())
            ++i;
        if (i >= n || line.at(i) == QLatin1Char('#'))
            break;
        DirectiveWord w{QString(), i + 1};
        while (i < n && !line.at(i).isSpace()) {
            const QChar c = line.at(i);
            if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
                const int close = int(line.indexOf(c, i + 1));
                const int end = close < 0 ? n : close;
                w.text += line.mid(i + 1, end - i - 1);
                i = end + 1;
            } else {
                w.text += c;
                ++i;
            }
        }
        out << w;
    }
    return out;
}

const QRegularExpression &placeholderRegex()
{
    // <project>, <options>, <further options>; not heredocs or redirections.
    static const QRegularExpression re(QStringLiteral("(?<![<\\w])<([A-Za-z][A-Za-z0-9_.-]*(?: [A-Za-z0-9_.-]+)*)>"));
    return re;
}

// A plugin's option keeps its value (inline, or the next word when it takes one).
void readPluginOption(const SitePluginOption &plugin, const QList<DirectiveWord> &words, int &i, SbatchOption *opt,
                      const QString &inlineValue, bool hasInline)
{
    opt->name = QString::fromLatin1(plugin.longName);
    if (hasInline) {
        opt->value = inlineValue;
        opt->hasValue = true;
    } else if (plugin.takesValue && i + 1 < words.size()) {
        opt->value = words[++i].text;
        opt->hasValue = true;
    }
}

QList<SbatchOption> parseDirective(const QString &line, int lineNo, Diagnostics *diags)
{
    QList<SbatchOption> out;
    const auto words = directiveWords(line, 7);
    if (words.isEmpty()) {
        if (diags)
            *diags << finding(Severity::Warning, QStringLiteral("cannot-parse"), lineNo,
                              QStringLiteral("#SBATCH without an option; remove the line or add the option."));
        return out;
    }
    for (int i = 0; i < words.size(); ++i) {
        const auto &w = words[i];
        SbatchOption opt;
        opt.written = w.text;
        opt.line = lineNo;
        opt.column = w.column;
        const SbatchOptionInfo *info = nullptr;
        QString inlineValue;
        bool hasInline = false;
        if (w.text.startsWith(QLatin1String("--")) && w.text.size() > 2) {
            const QString body = w.text.mid(2);
            const int eq = int(body.indexOf(QLatin1Char('=')));
            const QString name = eq >= 0 ? body.left(eq) : body;
            opt.written = QStringLiteral("--") + name;
            bool ambiguous = false;
            info = findSbatchLongOption(name, &ambiguous);
            if (eq >= 0) {
                inlineValue = body.mid(eq + 1);
                hasInline = true;
            }
            if (!info) {
                opt.name = name;
                if (diags && !ambiguous) {
                    if (const auto gone = removedSbatchOption(name)) {
                        *diags << finding(Severity::Error, QStringLiteral("option-removed"), lineNo, *gone, w.column);
                        opt.value = inlineValue;
                        opt.hasValue = hasInline;
                        out << opt;
                        continue;
                    }
                }
                if (const SitePluginOption *plugin = ambiguous ? nullptr : findSitePluginOption(name)) {
                    readPluginOption(*plugin, words, i, &opt, inlineValue, hasInline);
                    if (diags)
                        *diags << finding(Severity::Info, QStringLiteral("site-plugin-option"), lineNo,
                                          QStringLiteral("--%1 is an option of the %2 plugin, not of Slurm itself; "
                                                         "sbatch takes it where the site runs %2.")
                                              .arg(name, QLatin1String(plugin->plugin)),
                                          w.column);
                    out << opt;
                    continue;
                }
                const QString dashed = QString(name).replace(QLatin1Char('_'), QLatin1Char('-'));
                if (diags && !ambiguous && dashed != name && findSbatchLongOption(dashed)) {
                    // --job_name: getopt matches names exactly, so sbatch refuses it.
                    *diags << finding(Severity::Error, QStringLiteral("unknown-option"), lineNo,
                                      QStringLiteral("--%1 is not an sbatch option; sbatch refuses the script. Write "
                                                     "--%2 (with hyphens).")
                                          .arg(InputLimits::quoted(name), InputLimits::quoted(dashed)),
                                      w.column);
                    opt.value = inlineValue;
                    opt.hasValue = hasInline;
                    out << opt;
                    continue;
                }
                if (diags)
                    *diags << finding(Severity::Warning, QStringLiteral("unknown-option"), lineNo,
                                      ambiguous
                                          ? QStringLiteral("--%1 is ambiguous: it abbreviates several sbatch options. "
                                                           "Write the option out in full.")
                                                .arg(InputLimits::quoted(name))
                                          : QStringLiteral("--%1 is not an sbatch option (Slurm 22.05 to 24.11); "
                                                           "sbatch refuses the script. Check the spelling.")
                                                .arg(InputLimits::quoted(name)),
                                      w.column);
                opt.value = inlineValue;
                opt.hasValue = hasInline;
                out << opt;
                continue;
            }
        } else if (w.text.startsWith(QLatin1Char('-')) && w.text.size() >= 2 && w.text.at(1) != QLatin1Char('-')) {
            info = findSbatchShortOption(w.text.at(1));
            opt.written = w.text.left(2);
            if (w.text.size() > 2) {
                inlineValue = w.text.mid(2);
                hasInline = true;
            }
            if (!info) {
                opt.name = w.text;
                if (diags)
                    *diags << finding(
                        Severity::Warning, QStringLiteral("unknown-option"), lineNo,
                        QStringLiteral("%1 is not an sbatch option; sbatch refuses the script.").arg(opt.written),
                        w.column);
                continue;
            }
            if (info->arg == SbatchArg::None)
                hasInline = false;   // bundled flags like -vv
        } else {
            if (diags) {
                const bool dash = w.text.startsWith(QChar(0x2014)) || w.text.startsWith(QChar(0x2013));
                *diags << finding(Severity::Warning,
                                  dash ? QStringLiteral("unknown-option") : QStringLiteral("cannot-parse"), lineNo,
                                  dash ? QStringLiteral("\"%1\" starts with a typographic dash; Slurm needs two ASCII "
                                                        "hyphens (--). Retype the option.")
                                             .arg(InputLimits::quoted(w.text))
                                       : QStringLiteral("\"%1\" is not an option; sbatch cannot use it here.")
                                             .arg(InputLimits::quoted(w.text)),
                                  w.column);
            }
            continue;
        }
        opt.name = QString::fromLatin1(info->longName);
        if (info->arg == SbatchArg::Required) {
            if (hasInline) {
                opt.value = inlineValue;
                opt.hasValue = true;
            } else if (i + 1 < words.size()) {
                opt.value = words[++i].text;
                opt.hasValue = true;
            } else if (diags) {
                *diags << finding(Severity::Error, QStringLiteral("invalid-value"), lineNo,
                                  QStringLiteral("%1 needs a value.").arg(opt.written), w.column);
            }
        } else if (info->arg == SbatchArg::Optional && hasInline) {
            opt.value = inlineValue;
            opt.hasValue = true;
        } else if (info->arg == SbatchArg::None && hasInline && w.text.startsWith(QLatin1String("--")) && diags) {
            *diags << finding(Severity::Warning, QStringLiteral("invalid-value"), lineNo,
                              QStringLiteral("%1 takes no value; \"%2\" is ignored.")
                                  .arg(opt.written, InputLimits::quoted(inlineValue)),
                              w.column);
        }
        if (diags && opt.hasValue) {
            const auto m = placeholderRegex().match(opt.value);
            if (m.hasMatch() || opt.value == QLatin1String("<>"))
                *diags << finding(
                    // The account is the reader's own: an example leaves it open on purpose.
                    opt.name == QLatin1String("account") ? Severity::Info : Severity::Error,
                    QStringLiteral("placeholder-value"), lineNo,
                    QStringLiteral("%1 still holds the placeholder %2 from the example; put your own value.")
                        .arg(opt.written, m.captured(0)),
                    w.column);
            else if (opt.name == QLatin1String("mail-user")
                     && (opt.value.contains(QLatin1String("youremail"), Qt::CaseInsensitive)
                         || opt.value.endsWith(QLatin1String("@domain.com"), Qt::CaseInsensitive)
                         || opt.value.endsWith(QLatin1String("@example.com"), Qt::CaseInsensitive)))
                *diags << finding(Severity::Warning, QStringLiteral("placeholder-value"), lineNo,
                                  QStringLiteral("--mail-user %1 is the example address; put yours or remove the line.")
                                      .arg(opt.value),
                                  w.column);
        }
        out << opt;
    }
    return out;
}

// Text that is clearly not a shell script: NUL bytes, undecodable bytes or
// many control characters.
int binaryLine(const QString &text)
{
    const int n = int(std::min<qsizetype>(text.size(), 65536));
    int controls = 0;
    int line = 1;
    for (int i = 0; i < n; ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\n'))
            ++line;
        if (c.unicode() == 0)
            return line;
        if ((c.unicode() < 0x20 && c != QLatin1Char('\n') && c != QLatin1Char('\t') && c != QLatin1Char('\r')
             && c.unicode() != 0x1b)
            || c == QChar::ReplacementCharacter)
            ++controls;
    }
    return controls > 4 && controls * 50 > n ? 1 : 0;
}

bool isHeaderDirectiveTypo(const QString &line)
{
    // "# SBATCH", "#sbatch", "  #SBATCH": shells ignore them and so does sbatch.
    static const QRegularExpression re(QStringLiteral("^\\s*#+\\s*SBATCH\\b"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re.match(line).hasMatch();
}

// A shell line too long to be a job's command: generated data, not read.
Diagnostic commandTooLong(int lineNo, qsizetype chars)
{
    return finding(Severity::Warning, QStringLiteral("input-too-large"), lineNo,
                   QStringLiteral("The command on line %1 is %2 KB long; ScaleLab reads commands of up to %3 KB (Linux "
                                  "starts no program with an argument over 128 KB), so it is not checked. Move its "
                                  "data into a file the job reads.")
                       .arg(lineNo)
                       .arg(chars / 1024)
                       .arg(InputLimits::kMaxCommandChars / 1024));
}

bool isDirective(const QString &line)
{
    return line.startsWith(QLatin1String("#SBATCH")) && (line.size() == 7 || line.at(7).isSpace());
}

}   // namespace

int ScriptLine::lineAt(int offset) const
{
    // lineOffsets ascend: a binary search keeps a long joined line cheap.
    const auto it = std::upper_bound(lineOffsets.cbegin(), lineOffsets.cend(), offset);
    return it == lineOffsets.cbegin() ? line : line + int(it - lineOffsets.cbegin()) - 1;
}

const SbatchOption *ParsedSbatchScript::find(const QString &name) const
{
    for (auto it = options.crbegin(); it != options.crend(); ++it)
        if (it->name == name)
            return &*it;
    return nullptr;
}

ParsedSbatchScript parseSbatchScript(const QString &input)
{
    ParsedSbatchScript out;
    auto &diags = out.diagnostics;
    if (QStringView(input).trimmed().isEmpty()) {   // a view: no copy of a 16 MB script
        diags << finding(Severity::Error, QStringLiteral("cannot-parse"), 0,
                         QStringLiteral("The script is empty: there is nothing to import."));
        return out;
    }
    if (const int bin = binaryLine(input)) {
        diags << finding(Severity::Error, QStringLiteral("cannot-parse"), bin,
                         QStringLiteral("This is binary data, not a shell script. Choose the .sh/.sbatch text file."));
        return out;
    }
    QString text = input;
    if (const int crlf = int(text.indexOf(QLatin1String("\r\n"))); crlf >= 0) {
        const int line = int(QStringView(text).left(crlf).count(QLatin1Char('\n'))) + 1;
        diags << finding(Severity::Error, QStringLiteral("dos-line-breaks"), line,
                         QStringLiteral("The script has DOS line breaks (\\r\\n); sbatch refuses it. Convert it with "
                                        "dos2unix or save it with Unix line endings."));
        text.replace(QLatin1String("\r\n"), QLatin1String("\n"));
    }
    const QStringList lines = text.split(QLatin1Char('\n'));
    out.interpreter = checkFirstLine(lines.front(), diags);

    // Where each physical line starts in `text`, for joining lines by offset.
    QList<int> lineStart;
    lineStart.reserve(lines.size());
    for (int k = 0, at = 0; k < lines.size(); ++k) {
        lineStart << at;
        at += int(lines[k].size()) + 1;
    }
    // Scans for a quote that never closes read to the end of the script; once
    // they have read the script twice over, later ones are reported without
    // trying to join, so hostile input stays linear.
    qint64 failedScanBudget = 2 * qint64(text.size()) + 65536;
    bool joinBudgetReported = false;

    bool inHeader = true;
    const int count = int(lines.size());
    for (int i = 0; i < count; ++i) {
        const QString &raw = lines[i];
        const int lineNo = i + 1;
        const QString trimmed = raw.trimmed();
        if (inHeader) {
            if (isDirective(raw)) {
                out.options += parseDirective(raw, lineNo, &diags);
                continue;
            }
            static const QRegularExpression disabled(QStringLiteral("^#{2,}SBATCH(\\s|$)"));
            if (const auto m = disabled.match(raw); m.hasMatch()) {
                const QString asDirective = QStringLiteral("#SBATCH") + raw.mid(m.capturedStart(1));
                out.disabledOptions += parseDirective(asDirective, lineNo, nullptr);
                diags << finding(Severity::Info, QStringLiteral("sbatch-disabled"), lineNo,
                                 QStringLiteral("##SBATCH is switched off; sbatch ignores this line."));
                continue;
            }
            if (isHeaderDirectiveTypo(raw)) {
                diags << finding(Severity::Warning, QStringLiteral("sbatch-directive-ignored"), lineNo,
                                 QStringLiteral("sbatch only reads lines that start exactly with \"#SBATCH\" in the "
                                                "first column; this one is ignored. Write it as #SBATCH --option."));
                continue;
            }
            if (trimmed.isEmpty() || trimmed.startsWith(QLatin1Char('#')))
                continue;
            inHeader = false;
            out.firstCommandLine = lineNo;
        }
        if (isDirective(raw)) {
            out.ignoredOptions += parseDirective(raw, lineNo, nullptr);
            diags << finding(Severity::Warning, QStringLiteral("sbatch-after-command"), lineNo,
                             QStringLiteral("#SBATCH after the first command (line %1) is ignored by sbatch. Move it "
                                            "above line %1.")
                                 .arg(out.firstCommandLine));
            continue;
        }
        if (trimmed.isEmpty() || trimmed.startsWith(QLatin1Char('#')))
            continue;

        if (raw.size() > InputLimits::kMaxCommandChars) {
            diags << commandTooLong(lineNo, raw.size());
            continue;
        }
        // Join continuation lines and multi-line quotes the way the shell does.
        ScriptLine sl;
        sl.line = lineNo;
        sl.text = raw;
        sl.lineOffsets << 0;
        ShellLexResult lex = scanShell(sl.text);
        int j = i;
        int unterminatedAt = lex.unterminatedQuote ? sl.lineAt(lex.unterminatedOffset) : 0;
        if ((lex.unterminatedQuote || lex.trailingBackslash) && i + 1 < count) {
            if (failedScanBudget > 0) {
                // One scan from this line to where the shell's line really ends.
                const ShellLineEnd end = findShellLineEnd(text, lineStart[i]);
                if (end.unterminated) {
                    failedScanBudget -= text.size() - lineStart[i];
                    unterminatedAt = int(std::upper_bound(lineStart.cbegin(), lineStart.cend(), end.unterminatedOffset)
                                         - lineStart.cbegin());
                } else {
                    j = int(std::upper_bound(lineStart.cbegin(), lineStart.cend(), end.end) - lineStart.cbegin()) - 1;
                    j = std::max(i, std::min(j, count - 1));
                    sl.text = text.mid(lineStart[i], end.end - lineStart[i]);
                    sl.lineOffsets.clear();
                    for (int k = i; k <= j; ++k)
                        sl.lineOffsets << lineStart[k] - lineStart[i];
                    lex = scanShell(sl.text);
                }
            } else if (!joinBudgetReported && lex.unterminatedQuote) {
                joinBudgetReported = true;
                diags << finding(Severity::Info, QStringLiteral("input-too-large"), lineNo,
                                 QStringLiteral("From here on, quotes left open are not followed onto the next lines: "
                                                "too many of them never close. Fix the ones reported above first."));
            }
        }
        if (lex.unterminatedQuote) {
            const int at = unterminatedAt;
            diags << finding(Severity::Error, QStringLiteral("cannot-parse"), at,
                             QStringLiteral("A quote or $( opened on line %1 is never closed; the shell reads the rest "
                                            "of the script as part of it. Close it.")
                                 .arg(at));
            // Read on line by line so the rest of the script is still checked.
            sl.text = raw;
            sl.lineOffsets = {0};
            j = i;
            lex = scanShell(sl.text);
        }
        sl.lastLine = j + 1;
        i = j;
        if (sl.text.size() > InputLimits::kMaxCommandChars) {
            diags << commandTooLong(lineNo, sl.text.size());
            continue;
        }
        // Blank out placeholders (same length keeps offsets) after reporting them.
        auto it = placeholderRegex().globalMatch(sl.text);
        while (it.hasNext()) {
            const auto m = it.next();
            const int at = sl.lineAt(int(m.capturedStart()));
            diags << finding(Severity::Error, QStringLiteral("placeholder-value"), at,
                             QStringLiteral("%1 is a placeholder from the example; the shell reads it as a redirection "
                                            "and the line fails. Replace it with real values or remove it.")
                                 .arg(m.captured(0)));
            sl.text.replace(m.capturedStart(), m.capturedLength(), QString(m.capturedLength(), QLatin1Char(' ')));
        }
        out.lines << sl;
        // Skip here-document bodies.
        for (const auto &h : lex.heredocs) {
            int k = i + 1;
            for (; k < count; ++k) {
                QString body = lines[k];
                if (h.stripTabs)
                    while (body.startsWith(QLatin1Char('\t')))
                        body.remove(0, 1);
                if (body == h.delimiter)
                    break;
            }
            if (k >= count) {
                diags << finding(
                    Severity::Warning, QStringLiteral("cannot-parse"), sl.line,
                    QStringLiteral("The here-document <<%1 never ends; the rest of the script is its text.")
                        .arg(h.delimiter));
            }
            i = std::min(k, count - 1);
        }
    }
    if (out.options.isEmpty() && out.disabledOptions.isEmpty())
        diags << finding(Severity::Info, QStringLiteral("no-sbatch-options"), 0,
                         QStringLiteral("No #SBATCH options: every resource comes from the command line or the site "
                                        "defaults."));
    return out;
}

}   // namespace scalelab
