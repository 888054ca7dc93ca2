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

// One word of a directive read as an option: what sbatch knows of it and the value written with it.
struct OptionWord {
    SbatchOption opt;
    const SbatchOptionInfo *info = nullptr;
    const SitePluginOption *plugin = nullptr;   // a site plugin's option (Shifter, pyxis)
    QString inlineValue;
    bool hasInline = false;
};

// What becomes of a directive word: an option sbatch knows, one it does not
// (kept, with its value, for the findings that follow), or not kept at all.
enum class WordKind { Known, Plugin, UnknownKept, Dropped };

// Why sbatch refuses a long option it does not know: removed, written with '_', ambiguous or misspelt.
void reportUnknownLongOption(const QString &name, bool ambiguous, int column, int lineNo, Diagnostics *diags)
{
    if (!diags)
        return;
    if (!ambiguous) {
        if (const auto gone = removedSbatchOption(name)) {
            *diags << finding(Severity::Error, QStringLiteral("option-removed"), lineNo, *gone, column);
            return;
        }
    }
    const QString dashed = QString(name).replace(QLatin1Char('_'), QLatin1Char('-'));
    if (!ambiguous && dashed != name && findSbatchLongOption(dashed)) {
        // --job_name: getopt matches names exactly, so sbatch refuses it.
        *diags << finding(Severity::Error, QStringLiteral("unknown-option"), lineNo,
                          QStringLiteral("--%1 is not an sbatch option; sbatch refuses the script. Write "
                                         "--%2 (with hyphens).")
                              .arg(InputLimits::quoted(name), InputLimits::quoted(dashed)),
                          column);
        return;
    }
    *diags << finding(Severity::Warning, QStringLiteral("unknown-option"), lineNo,
                      ambiguous ? QStringLiteral("--%1 is ambiguous: it abbreviates several sbatch options. "
                                                 "Write the option out in full.")
                                      .arg(InputLimits::quoted(name))
                                : QStringLiteral("--%1 is not an sbatch option (Slurm 22.05 to 24.11); "
                                                 "sbatch refuses the script. Check the spelling.")
                                      .arg(InputLimits::quoted(name)),
                      column);
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

WordKind readLongOption(const DirectiveWord &w, int lineNo, Diagnostics *diags, OptionWord &o)
{
    const QString body = w.text.mid(2);
    const int eq = int(body.indexOf(QLatin1Char('=')));
    const QString name = eq >= 0 ? body.left(eq) : body;
    o.opt.written = QStringLiteral("--") + name;
    bool ambiguous = false;
    o.info = findSbatchLongOption(name, &ambiguous);
    if (eq >= 0) {
        o.inlineValue = body.mid(eq + 1);
        o.hasInline = true;
    }
    if (o.info)
        return WordKind::Known;
    if (o.plugin = ambiguous ? nullptr : findSitePluginOption(name); o.plugin) {
        if (diags)
            *diags << finding(Severity::Info, QStringLiteral("site-plugin-option"), lineNo,
                              QStringLiteral("--%1 is an option of the %2 plugin, not of Slurm itself; "
                                             "sbatch takes it where the site runs %2.")
                                  .arg(name, QLatin1String(o.plugin->plugin)),
                              w.column);
        return WordKind::Plugin;
    }
    o.opt.name = name;
    reportUnknownLongOption(name, ambiguous, w.column, lineNo, diags);
    o.opt.value = o.inlineValue;
    o.opt.hasValue = o.hasInline;
    return WordKind::UnknownKept;
}

WordKind readShortOption(const DirectiveWord &w, int lineNo, Diagnostics *diags, OptionWord &o)
{
    o.info = findSbatchShortOption(w.text.at(1));
    o.opt.written = w.text.left(2);
    if (w.text.size() > 2) {
        o.inlineValue = w.text.mid(2);
        o.hasInline = true;
    }
    if (!o.info) {
        o.opt.name = w.text;
        if (diags)
            *diags << finding(
                Severity::Warning, QStringLiteral("unknown-option"), lineNo,
                QStringLiteral("%1 is not an sbatch option; sbatch refuses the script.").arg(o.opt.written), w.column);
        return WordKind::Dropped;
    }
    if (o.info->arg == SbatchArg::None)
        o.hasInline = false;   // bundled flags like -vv
    return WordKind::Known;
}

// A word that is no option at all (perhaps one typed with a typographic dash).
void reportNotAnOption(const DirectiveWord &w, int lineNo, Diagnostics *diags)
{
    if (!diags)
        return;
    const bool dash = w.text.startsWith(QChar(0x2014)) || w.text.startsWith(QChar(0x2013));
    *diags << finding(
        Severity::Warning, dash ? QStringLiteral("unknown-option") : QStringLiteral("cannot-parse"), lineNo,
        dash ? QStringLiteral("\"%1\" starts with a typographic dash; Slurm needs two ASCII "
                              "hyphens (--). Retype the option.")
                   .arg(InputLimits::quoted(w.text))
             : QStringLiteral("\"%1\" is not an option; sbatch cannot use it here.").arg(InputLimits::quoted(w.text)),
        w.column);
}

// The value of a known option: written inline, or the next word (then *i moves on).
void readOptionValue(OptionWord &o, const QList<DirectiveWord> &words, int *i, int lineNo, Diagnostics *diags)
{
    const DirectiveWord &w = words[*i];
    if (o.info->arg == SbatchArg::Required) {
        if (o.hasInline) {
            o.opt.value = o.inlineValue;
            o.opt.hasValue = true;
        } else if (*i + 1 < words.size()) {
            o.opt.value = words[++*i].text;
            o.opt.hasValue = true;
        } else if (diags) {
            *diags << finding(Severity::Error, QStringLiteral("invalid-value"), lineNo,
                              QStringLiteral("%1 needs a value.").arg(o.opt.written), w.column);
        }
    } else if (o.info->arg == SbatchArg::Optional && o.hasInline) {
        o.opt.value = o.inlineValue;
        o.opt.hasValue = true;
    } else if (o.info->arg == SbatchArg::None && o.hasInline && w.text.startsWith(QLatin1String("--")) && diags) {
        *diags << finding(Severity::Warning, QStringLiteral("invalid-value"), lineNo,
                          QStringLiteral("%1 takes no value; \"%2\" is ignored.")
                              .arg(o.opt.written, InputLimits::quoted(o.inlineValue)),
                          w.column);
    }
}

// A value left as the example wrote it: <placeholder>, or the example's e-mail address.
void checkPlaceholderValue(const SbatchOption &opt, int column, int lineNo, Diagnostics *diags)
{
    if (!diags || !opt.hasValue)
        return;
    const auto m = placeholderRegex().match(opt.value);
    if (m.hasMatch() || opt.value == QLatin1String("<>"))
        // The account is the reader's own: an example leaves it open on purpose.
        *diags << finding(opt.name == QLatin1String("account") ? Severity::Info : Severity::Error,
                          QStringLiteral("placeholder-value"), lineNo,
                          QStringLiteral("%1 still holds the placeholder %2 from the example; put your own value.")
                              .arg(opt.written, m.captured(0)),
                          column);
    else if (opt.name == QLatin1String("mail-user")
             && (opt.value.contains(QLatin1String("youremail"), Qt::CaseInsensitive)
                 || opt.value.endsWith(QLatin1String("@domain.com"), Qt::CaseInsensitive)
                 || opt.value.endsWith(QLatin1String("@example.com"), Qt::CaseInsensitive)))
        *diags << finding(
            Severity::Warning, QStringLiteral("placeholder-value"), lineNo,
            QStringLiteral("--mail-user %1 is the example address; put yours or remove the line.").arg(opt.value),
            column);
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
        OptionWord o;
        o.opt.written = w.text;
        o.opt.line = lineNo;
        o.opt.column = w.column;
        WordKind kind = WordKind::Dropped;
        if (w.text.startsWith(QLatin1String("--")) && w.text.size() > 2)
            kind = readLongOption(w, lineNo, diags, o);
        else if (w.text.startsWith(QLatin1Char('-')) && w.text.size() >= 2 && w.text.at(1) != QLatin1Char('-'))
            kind = readShortOption(w, lineNo, diags, o);
        else
            reportNotAnOption(w, lineNo, diags);
        if (kind == WordKind::Plugin)
            readPluginOption(*o.plugin, words, i, &o.opt, o.inlineValue, o.hasInline);
        if (kind == WordKind::UnknownKept || kind == WordKind::Plugin)
            out << o.opt;
        if (kind != WordKind::Known)
            continue;
        o.opt.name = QString::fromLatin1(o.info->longName);
        readOptionValue(o, words, &i, lineNo, diags);
        checkPlaceholderValue(o.opt, w.column, lineNo, diags);
        out << o.opt;
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

namespace {

// Empty or binary input: nothing to read, said once.
bool rejectUnreadable(const QString &input, Diagnostics &diags)
{
    if (QStringView(input).trimmed().isEmpty()) {   // a view: no copy of a 16 MB script
        diags << finding(Severity::Error, QStringLiteral("cannot-parse"), 0,
                         QStringLiteral("The script is empty: there is nothing to import."));
        return true;
    }
    if (const int bin = binaryLine(input)) {
        diags << finding(Severity::Error, QStringLiteral("cannot-parse"), bin,
                         QStringLiteral("This is binary data, not a shell script. Choose the .sh/.sbatch text file."));
        return true;
    }
    return false;
}

// The text with Unix line breaks (DOS ones reported) and its interpreter line checked.
QString unixText(const QString &input, ParsedSbatchScript &out)
{
    QString text = input;
    if (const int crlf = int(text.indexOf(QLatin1String("\r\n"))); crlf >= 0) {
        const int line = int(QStringView(text).left(crlf).count(QLatin1Char('\n'))) + 1;
        out.diagnostics << finding(Severity::Error, QStringLiteral("dos-line-breaks"), line,
                                   QStringLiteral("The script has DOS line breaks (\\r\\n); sbatch refuses it. Convert "
                                                  "it with dos2unix or save it with Unix line endings."));
        text.replace(QLatin1String("\r\n"), QLatin1String("\n"));
    }
    const qsizetype firstEnd = text.indexOf(QLatin1Char('\n'));
    const QStringView first = QStringView(text).left(firstEnd < 0 ? text.size() : firstEnd);
    out.interpreter = checkFirstLine(first.toString(), out.diagnostics);
    return text;
}

// One reading of a script's lines: the header's directives, then the shell
// lines joined the way the shell joins them.
class ScriptLineReader {
public:
    ScriptLineReader(const QString &text, ParsedSbatchScript &out)
        : m_text(text)
        , m_lines(text.split(QLatin1Char('\n')))
        , m_count(int(m_lines.size()))
        , m_out(out)
        , m_diags(out.diagnostics)
        // Scans for a quote that never closes read to the end of the script; once
        // they have read the script twice over, later ones are reported without
        // trying to join, so hostile input stays linear.
        , m_failedScanBudget(2 * qint64(text.size()) + 65536)
    {
        // Where each physical line starts in `text`, for joining lines by offset.
        m_lineStart.reserve(m_lines.size());
        for (int k = 0, at = 0; k < m_count; ++k) {
            m_lineStart << at;
            at += int(m_lines[k].size()) + 1;
        }
    }

    void readAll()
    {
        for (int i = 0; i < m_count; ++i) {
            const QString &raw = m_lines[i];
            const QString trimmed = raw.trimmed();
            if (m_inHeader && readHeaderLine(raw, trimmed, i + 1))
                continue;
            if (readLateDirective(raw, i + 1) || trimmed.isEmpty() || trimmed.startsWith(QLatin1Char('#')))
                continue;
            i = readCommand(i);
        }
    }

private:
    bool readHeaderLine(const QString &raw, const QString &trimmed, int lineNo);
    bool readLateDirective(const QString &raw, int lineNo);
    int readCommand(int i);
    int joinLines(int i, ScriptLine &sl, ShellLexResult &lex);
    void blankPlaceholders(ScriptLine &sl);
    int skipHeredocs(const ShellLexResult &lex, const ScriptLine &sl, int i);

    const QString &m_text;
    const QStringList m_lines;
    const int m_count;
    ParsedSbatchScript &m_out;
    Diagnostics &m_diags;
    QList<int> m_lineStart;
    qint64 m_failedScanBudget;
    bool m_joinBudgetReported = false;
    bool m_inHeader = true;
};

// A line of the header: a directive, a switched-off or mistyped one, a comment;
// false at the first command, which ends the header.
bool ScriptLineReader::readHeaderLine(const QString &raw, const QString &trimmed, int lineNo)
{
    if (isDirective(raw)) {
        m_out.options += parseDirective(raw, lineNo, &m_diags);
        return true;
    }
    static const QRegularExpression disabled(QStringLiteral("^#{2,}SBATCH(\\s|$)"));
    if (const auto m = disabled.match(raw); m.hasMatch()) {
        const QString asDirective = QStringLiteral("#SBATCH") + raw.mid(m.capturedStart(1));
        m_out.disabledOptions += parseDirective(asDirective, lineNo, nullptr);
        m_diags << finding(Severity::Info, QStringLiteral("sbatch-disabled"), lineNo,
                           QStringLiteral("##SBATCH is switched off; sbatch ignores this line."));
        return true;
    }
    if (isHeaderDirectiveTypo(raw)) {
        m_diags << finding(Severity::Warning, QStringLiteral("sbatch-directive-ignored"), lineNo,
                           QStringLiteral("sbatch only reads lines that start exactly with \"#SBATCH\" in the "
                                          "first column; this one is ignored. Write it as #SBATCH --option."));
        return true;
    }
    if (trimmed.isEmpty() || trimmed.startsWith(QLatin1Char('#')))
        return true;
    m_inHeader = false;
    m_out.firstCommandLine = lineNo;
    return false;
}

// #SBATCH after the first command: sbatch ignores it.
bool ScriptLineReader::readLateDirective(const QString &raw, int lineNo)
{
    if (!isDirective(raw))
        return false;
    m_out.ignoredOptions += parseDirective(raw, lineNo, nullptr);
    m_diags << finding(Severity::Warning, QStringLiteral("sbatch-after-command"), lineNo,
                       QStringLiteral("#SBATCH after the first command (line %1) is ignored by sbatch. Move it "
                                      "above line %1.")
                           .arg(m_out.firstCommandLine));
    return true;
}

// The shell command starting on line i + 1 (0-based i); returns the index of its last line.
int ScriptLineReader::readCommand(int i)
{
    const QString &raw = m_lines[i];
    const int lineNo = i + 1;
    if (raw.size() > InputLimits::kMaxCommandChars) {
        m_diags << commandTooLong(lineNo, raw.size());
        return i;
    }
    ScriptLine sl;
    sl.line = lineNo;
    sl.text = raw;
    sl.lineOffsets << 0;
    ShellLexResult lex = scanShell(sl.text);
    const int j = joinLines(i, sl, lex);
    sl.lastLine = j + 1;
    if (sl.text.size() > InputLimits::kMaxCommandChars) {
        m_diags << commandTooLong(lineNo, sl.text.size());
        return j;
    }
    blankPlaceholders(sl);
    m_out.lines << sl;
    return skipHeredocs(lex, sl, j);
}

// Joins continuation lines and multi-line quotes the way the shell does; returns the last line's index.
int ScriptLineReader::joinLines(int i, ScriptLine &sl, ShellLexResult &lex)
{
    int j = i;
    int unterminatedAt = lex.unterminatedQuote ? sl.lineAt(lex.unterminatedOffset) : 0;
    if ((lex.unterminatedQuote || lex.trailingBackslash) && i + 1 < m_count) {
        if (m_failedScanBudget > 0) {
            // One scan from this line to where the shell's line really ends.
            const ShellLineEnd end = findShellLineEnd(m_text, m_lineStart[i]);
            if (end.unterminated) {
                m_failedScanBudget -= m_text.size() - m_lineStart[i];
                unterminatedAt = int(std::upper_bound(m_lineStart.cbegin(), m_lineStart.cend(), end.unterminatedOffset)
                                     - m_lineStart.cbegin());
            } else {
                j = int(std::upper_bound(m_lineStart.cbegin(), m_lineStart.cend(), end.end) - m_lineStart.cbegin()) - 1;
                j = std::max(i, std::min(j, m_count - 1));
                sl.text = m_text.mid(m_lineStart[i], end.end - m_lineStart[i]);
                sl.lineOffsets.clear();
                for (int k = i; k <= j; ++k)
                    sl.lineOffsets << m_lineStart[k] - m_lineStart[i];
                lex = scanShell(sl.text);
            }
        } else if (!m_joinBudgetReported && lex.unterminatedQuote) {
            m_joinBudgetReported = true;
            m_diags << finding(Severity::Info, QStringLiteral("input-too-large"), i + 1,
                               QStringLiteral("From here on, quotes left open are not followed onto the next lines: "
                                              "too many of them never close. Fix the ones reported above first."));
        }
    }
    if (lex.unterminatedQuote) {
        const int at = unterminatedAt;
        m_diags << finding(Severity::Error, QStringLiteral("cannot-parse"), at,
                           QStringLiteral("A quote or $( opened on line %1 is never closed; the shell reads the rest "
                                          "of the script as part of it. Close it.")
                               .arg(at));
        // Read on line by line so the rest of the script is still checked.
        sl.text = m_lines[i];
        sl.lineOffsets = {0};
        j = i;
        lex = scanShell(sl.text);
    }
    return j;
}

// Blanks out placeholders (same length keeps offsets) after reporting them.
void ScriptLineReader::blankPlaceholders(ScriptLine &sl)
{
    auto it = placeholderRegex().globalMatch(sl.text);
    while (it.hasNext()) {
        const auto m = it.next();
        const int at = sl.lineAt(int(m.capturedStart()));
        m_diags << finding(Severity::Error, QStringLiteral("placeholder-value"), at,
                           QStringLiteral("%1 is a placeholder from the example; the shell reads it as a redirection "
                                          "and the line fails. Replace it with real values or remove it.")
                               .arg(m.captured(0)));
        sl.text.replace(m.capturedStart(), m.capturedLength(), QString(m.capturedLength(), QLatin1Char(' ')));
    }
}

// Skips here-document bodies after line i; returns the index of the last line skipped.
int ScriptLineReader::skipHeredocs(const ShellLexResult &lex, const ScriptLine &sl, int i)
{
    for (const auto &h : lex.heredocs) {
        int k = i + 1;
        for (; k < m_count; ++k) {
            QString body = m_lines[k];
            if (h.stripTabs)
                while (body.startsWith(QLatin1Char('\t')))
                    body.remove(0, 1);
            if (body == h.delimiter)
                break;
        }
        if (k >= m_count) {
            m_diags << finding(Severity::Warning, QStringLiteral("cannot-parse"), sl.line,
                               QStringLiteral("The here-document <<%1 never ends; the rest of the script is its text.")
                                   .arg(h.delimiter));
        }
        i = std::min(k, m_count - 1);
    }
    return i;
}

}   // namespace

ParsedSbatchScript parseSbatchScript(const QString &input)
{
    ParsedSbatchScript out;
    if (rejectUnreadable(input, out.diagnostics))
        return out;
    const QString text = unixText(input, out);
    ScriptLineReader(text, out).readAll();
    if (out.options.isEmpty() && out.disabledOptions.isEmpty())
        out.diagnostics << finding(Severity::Info, QStringLiteral("no-sbatch-options"), 0,
                                   QStringLiteral("No #SBATCH options: every resource comes from the command line or "
                                                  "the site defaults."));
    return out;
}

}   // namespace scalelab
