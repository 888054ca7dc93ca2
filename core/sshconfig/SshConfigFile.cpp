// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sshconfig/SshConfigFile.h"

#include "core/base/InputLimits.h"
#include "core/base/PlatformUser.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include <optional>

namespace scalelab {

namespace {

constexpr int kMaxIncludeDepth = 16;
// Includes read in total: a file including another twice, sixteen levels
// deep, would otherwise be read 65536 times even without a cycle.
constexpr int kMaxIncludedFiles = 256;
// As for every other file ScaleLab reads (InputLimits::kMaxFileBytes).
constexpr qint64 kMaxConfigBytes = 16 * 1024 * 1024;

QString localUserName()
{
    return PlatformUser::loginName();
}

// Splits a config line into words, honouring double quotes (ssh_config(5)).
bool splitWords(const QString &line, QStringList *words, QString *why)
{
    QString cur;
    bool inQuote = false;
    bool have = false;
    for (QChar c : line) {
        if (c == QLatin1Char('"')) {
            inQuote = !inQuote;
            have = true;
        } else if (!inQuote && (c == QLatin1Char(' ') || c == QLatin1Char('\t'))) {
            if (have)
                *words << cur;
            cur.clear();
            have = false;
        } else {
            cur += c;
            have = true;
        }
    }
    if (inQuote) {
        *why = QStringLiteral("unterminated quote");
        return false;
    }
    if (have)
        *words << cur;
    return true;
}

QString expandTilde(const QString &path)
{
    if (path == QLatin1String("~"))
        return QDir::homePath();
    if (path.startsWith(QLatin1String("~/")))
        return QDir::homePath() + path.mid(1);
    return path;
}

}   // namespace

QString SshHostConfig::knownHostsPath() const
{
    if (!userKnownHostsFile.isEmpty())
        return userKnownHostsFile;
    return QDir::homePath() + QStringLiteral("/.ssh/known_hosts");
}

QString SshConfigFile::defaultPath()
{
    const QString env = qEnvironmentVariable("SCALELAB_SSH_CONFIG");
    if (!env.isEmpty())
        return env;
    return QDir::homePath() + QStringLiteral("/.ssh/config");
}

QString SshConfigFile::namedFileProblem(const QString &path)
{
    const QString file = path.isEmpty() ? defaultPath() : path;
    if (file == QDir::homePath() + QStringLiteral("/.ssh/config") || QFileInfo(file).isFile())
        return {};
    const QString what = QFileInfo::exists(file) ? QStringLiteral("is not a file") : QStringLiteral("does not exist");
    if (path.isEmpty())
        return QStringLiteral("the SSH config %1 named by SCALELAB_SSH_CONFIG %2: set it to your OpenSSH config "
                              "file, or unset it to read ~/.ssh/config")
            .arg(QDir::toNativeSeparators(file), what);
    return QStringLiteral("the SSH config %1 %2: give your OpenSSH config file")
        .arg(QDir::toNativeSeparators(file), what);
}

QString SshConfigFile::validateName(const QString &what, const QString &value)
{
    if (value.startsWith(QLatin1Char('-')))
        return QStringLiteral("%1 \"%2\" starts with '-', which ssh tools would read as an option; fix the name")
            .arg(what, value);
    for (QChar c : value)
        if (c.unicode() < 0x21 || c.unicode() == 0x7f || c == QLatin1Char('\'') || c == QLatin1Char('"')
            || c == QLatin1Char('`') || c == QLatin1Char('$') || c == QLatin1Char(';') || c == QLatin1Char('|')
            || c == QLatin1Char('&') || c == QLatin1Char('\\'))
            return QStringLiteral("%1 \"%2\" contains a character not allowed in host or user names").arg(what, value);
    return {};
}

bool SshConfigFile::matchWildcard(const QString &pattern, const QString &name)
{
    // Iterative glob with * and ?, case-insensitive like ssh's host matching.
    const QString p = pattern.toLower();
    const QString s = name.toLower();
    int pi = 0, si = 0, star = -1, mark = 0;
    while (si < s.size()) {
        if (pi < p.size() && (p[pi] == QLatin1Char('?') || p[pi] == s[si])) {
            ++pi;
            ++si;
        } else if (pi < p.size() && p[pi] == QLatin1Char('*')) {
            star = pi++;
            mark = si;
        } else if (star >= 0) {
            pi = star + 1;
            si = ++mark;
        } else {
            return false;
        }
    }
    while (pi < p.size() && p[pi] == QLatin1Char('*'))
        ++pi;
    return pi == p.size();
}

bool SshConfigFile::matchPatternList(const QStringList &patterns, const QString &name)
{
    bool positive = false;
    for (QString pat : patterns) {
        const bool negated = pat.startsWith(QLatin1Char('!'));
        if (negated)
            pat.remove(0, 1);
        if (matchWildcard(pat, name)) {
            if (negated)
                return false;   // a negated match vetoes the whole line
            positive = true;
        }
    }
    return positive;
}

SshConfigFile SshConfigFile::load(const QString &path)
{
    SshConfigFile cfg;
    cfg.m_path = path;
    cfg.parseFile(path, {}, false, 0);
    cfg.closeFindings();
    return cfg;
}

SshConfigFile SshConfigFile::fromText(const QString &text, const QString &pathForMessages)
{
    SshConfigFile cfg;
    cfg.m_path = pathForMessages;
    cfg.parseText(text, pathForMessages, {}, false, 0);
    cfg.closeFindings();
    return cfg;
}

void SshConfigFile::report(const QString &file, int line, const QString &message)
{
    // Linear on a hostile file: past the cap, findings are only counted (and
    // said, see closeFindings), never silently cut.
    if (m_diagnostics.size() < InputLimits::kMaxDiagnosticsPerFile)
        m_diagnostics << finding(Severity::Error, QStringLiteral("ssh-config"), file, line, message);
    else
        ++m_droppedFindings;
}

void SshConfigFile::closeFindings()
{
    if (m_droppedFindings > 0)
        m_diagnostics << InputLimits::tooManyFindings(m_path, m_droppedFindings, InputLimits::kMaxDiagnosticsPerFile,
                                                      Severity::Error);
}

bool SshConfigFile::parseFile(const QString &file, const QStringList &currentHost, bool currentMatchNever, int depth)
{
    if (!QFileInfo::exists(file))
        return true;   // like ssh: a missing config is simply empty
    const auto read = InputLimits::readFile(file, QStringLiteral("ssh config"), kMaxConfigBytes);
    if (!read.ok) {
        report(file, read.problem.line, read.problem.message);
        return false;
    }
    const QByteArray &data = read.data;
    const QString canonical = QFileInfo(file).canonicalFilePath();
    m_includeStack << canonical;
    const bool ok = parseText(QString::fromUtf8(data), file, currentHost, currentMatchNever, depth);
    m_includeStack.removeLast();
    return ok;
}

namespace {

QString located(const QString &file, int line, const QString &what)
{
    return QStringLiteral("%1:%2: %3").arg(file).arg(line).arg(what);
}

// What is wrong with a number-valued setting (Port, ConnectTimeout, ServerAliveInterval), if anything.
std::optional<QString> numberProblem(const QString &keyword, const QString &written, const QString &value)
{
    bool okNum = false;
    const int v = value.toInt(&okNum);
    if (keyword == QLatin1String("port") && (!okNum || v <= 0 || v > 65535))
        return QStringLiteral("Port \"%1\" is not a number between 1 and 65535").arg(value);
    if ((keyword == QLatin1String("connecttimeout") || keyword == QLatin1String("serveraliveinterval"))
        && (!okNum || v < 0))
        return QStringLiteral("%1 \"%2\" is not a number of seconds").arg(written, value);
    return std::nullopt;
}

}   // namespace

bool SshConfigFile::parseText(const QString &text, const QString &file, QStringList currentHost, bool currentMatchNever,
                              int depth)
{
    bool ok = true;
    auto fail = [&](int line, const QString &what) {
        report(file, line, located(file, line, what));
        ok = false;
    };
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const int lineNo = i + 1;
        QString line = lines[i].trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        // "Keyword=Value" and "Keyword Value" are both valid.
        static const QRegularExpression keyRe(QStringLiteral("^([A-Za-z]+)\\s*(?:=\\s*|\\s+)(.*)$"));
        const auto m = keyRe.match(line);
        if (!m.hasMatch()) {
            fail(lineNo,
                 QStringLiteral("cannot parse \"%1\" (expected: Keyword value)").arg(InputLimits::quoted(line)));
            continue;
        }
        const QString keyword = m.captured(1).toLower();
        QStringList words;
        QString why;
        if (!splitWords(m.captured(2), &words, &why)) {
            fail(lineNo, why);
            continue;
        }
        if (words.isEmpty()) {
            fail(lineNo, QStringLiteral("%1 has no value").arg(m.captured(1)));
            continue;
        }
        if (keyword == QLatin1String("host")) {
            currentHost = words;
            currentMatchNever = false;
            continue;
        }
        if (keyword == QLatin1String("match")) {
            // Only "Match all" is understood; anything else is treated as never
            // matching rather than guessed at.
            currentHost = QStringList{QStringLiteral("*")};
            currentMatchNever =
                !(words.size() == 1 && words[0].compare(QLatin1String("all"), Qt::CaseInsensitive) == 0);
            continue;
        }
        if (keyword == QLatin1String("include")) {
            if (!readInclude(words, file, lineNo, currentHost, currentMatchNever, depth, &ok))
                return false;
            continue;   // the outer Host context is restored after the include
        }
        Entry e;
        e.hostPatterns = currentHost;
        e.matchNever = currentMatchNever;
        e.keyword = keyword;
        e.value = keyword == QLatin1String("identityfile") || keyword == QLatin1String("userknownhostsfile")
                      ? words.first()
                      : words.join(QLatin1Char(' '));
        e.file = file;
        e.line = lineNo;
        if (const auto problem = numberProblem(keyword, m.captured(1), e.value)) {
            fail(lineNo, *problem);
            continue;
        }
        m_entries << e;
    }
    return ok;
}

bool SshConfigFile::readInclude(const QStringList &words, const QString &file, int lineNo,
                                const QStringList &currentHost, bool currentMatchNever, int depth, bool *ok)
{
    auto fail = [&](const QString &what) {
        report(file, lineNo, located(file, lineNo, what));
        *ok = false;
    };
    if (depth >= kMaxIncludeDepth) {
        fail(QStringLiteral("Include nested more than %1 levels deep; ScaleLab reads no deeper").arg(kMaxIncludeDepth));
        return true;
    }
    for (const QString &w : words) {
        QString pattern = expandTilde(w);
        if (QDir::isRelativePath(pattern))
            pattern = QDir::homePath() + QStringLiteral("/.ssh/") + pattern;
        const QFileInfo fi(pattern);
        QDir dir = fi.dir();
        const QStringList matches = dir.entryList(QStringList{fi.fileName()}, QDir::Files, QDir::Name);
        for (const QString &name : matches) {
            const QString path = dir.filePath(name);
            if (m_includeStack.contains(QFileInfo(path).canonicalFilePath())) {
                fail(QStringLiteral("Include %1 includes itself (directly or through other files); remove the loop")
                         .arg(path));
                continue;
            }
            if (++m_filesRead > kMaxIncludedFiles) {
                fail(QStringLiteral("Include: more than %1 files included in all; ScaleLab stops reading Includes here")
                         .arg(kMaxIncludedFiles));
                return false;
            }
            if (!parseFile(path, currentHost, currentMatchNever, depth + 1))
                *ok = false;
        }
    }
    return true;
}

QStringList SshConfigFile::hostAliases() const
{
    QStringList out;
    for (const Entry &e : m_entries) {
        if (e.matchNever)
            continue;
        for (const QString &pattern : e.hostPatterns)
            if (!pattern.contains(QLatin1Char('*')) && !pattern.contains(QLatin1Char('?'))
                && !pattern.startsWith(QLatin1Char('!')) && !out.contains(pattern))
                out << pattern;
    }
    return out;
}

namespace {

// Token expansion for file names (ssh_config(5) TOKENS, the common subset).
QString expandTokens(const QString &in, const SshHostConfig &c)
{
    const QString s = expandTilde(in);
    QString out;
    for (int i = 0; i < s.size(); ++i) {
        if (s[i] != QLatin1Char('%') || i + 1 >= s.size()) {
            out += s[i];
            continue;
        }
        const QChar t = s[++i];
        if (t == QLatin1Char('d'))
            out += QDir::homePath();
        else if (t == QLatin1Char('u'))
            out += localUserName();
        else if (t == QLatin1Char('h'))
            out += c.hostName;
        else if (t == QLatin1Char('n'))
            out += c.alias;
        else if (t == QLatin1Char('r'))
            out += c.user;
        else if (t == QLatin1Char('p'))
            out += QString::number(c.port);
        else if (t == QLatin1Char('%'))
            out += QLatin1Char('%');
        else
            out += QLatin1Char('%') + t;
    }
    return out;
}

// One setting into the host's configuration (the first value of a keyword wins, as in ssh).
void applySetting(const QString &k, const QString &value, SshHostConfig &c)
{
    if (k == QLatin1String("hostname"))
        c.hostName = value;
    else if (k == QLatin1String("user"))
        c.user = value;
    else if (k == QLatin1String("port"))
        c.port = value.toInt();
    else if (k == QLatin1String("proxyjump"))
        c.proxyJump = value;
    else if (k == QLatin1String("userknownhostsfile"))
        c.userKnownHostsFile = value;
    else if (k == QLatin1String("identitiesonly"))
        c.identitiesOnly = value.compare(QLatin1String("yes"), Qt::CaseInsensitive) == 0;
    else if (k == QLatin1String("connecttimeout"))
        c.connectTimeoutSeconds = value.toInt();
    else if (k == QLatin1String("serveraliveinterval"))
        c.serverAliveIntervalSeconds = value.toInt();
}

}   // namespace

SshHostConfig SshConfigFile::resolve(const QString &alias) const
{
    SshHostConfig c;
    c.alias = alias;
    c.configPath = m_path;
    QSet<QString> given;
    QStringList rawIdentities;
    for (const Entry &e : m_entries) {
        if (e.matchNever)
            continue;
        if (!e.hostPatterns.isEmpty() && !matchPatternList(e.hostPatterns, alias))
            continue;
        if (e.keyword == QLatin1String("identityfile"))
            rawIdentities << e.value;   // every IdentityFile counts, in order
        else if (!given.contains(e.keyword)) {
            given.insert(e.keyword);
            applySetting(e.keyword, e.value, c);
        }
    }
    if (c.hostName.isEmpty())
        c.hostName = alias;
    else
        c.hostName.replace(QLatin1String("%h"), alias);
    if (c.user.isEmpty())
        c.user = localUserName();
    for (const QString &id : rawIdentities) {
        const QString x = expandTokens(id, c);
        if (!c.identityFiles.contains(x))
            c.identityFiles << x;
    }
    if (!c.userKnownHostsFile.isEmpty())
        c.userKnownHostsFile = expandTokens(c.userKnownHostsFile, c);
    return c;
}

}   // namespace scalelab
