// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace scalelab {

// The rules of one ignore file (.gitignore, .scalelabignore), as gitignore(5)
// writes them: blank lines and "#" comments skipped, "\#" and "\!" literal,
// trailing spaces dropped unless escaped, "!" re-includes, a trailing "/"
// matches folders only, a "/" at the start or in the middle anchors the
// pattern to the file's folder (otherwise it matches a name at any depth),
// "*", "?", "[a-z]", "[!a-z]" never match "/", "**/" (leading), "/**"
// (trailing) and "/**/" match across folders. A file inside an excluded
// folder cannot be re-included (the folder is never entered), as in git.
//
// Matching is a table over pattern × path positions: time and memory grow
// with their product, never exponentially (a pattern of many "*" included).
class ProjectIgnore {
public:
    // `base`: the folder holding the file, relative to the project ("" = its root).
    static ProjectIgnore parse(const QByteArray &text, const QString &base = {});
    static ProjectIgnore defaults();   // .git/, __pycache__/, *.pyc, .venv/

    // The decision of the last rule matching `path` (relative to the project,
    // '/'-separated): true = excluded, false = re-included, nullopt = no rule matches.
    std::optional<bool> decide(const QString &path, bool isDir) const;
    qsizetype size() const { return m_rules.size(); }

private:
    enum class Token : quint8 { Literal, AnyChar, Star, DoubleStar, DoubleStarSlash, Class };
    struct Part {
        Token token = Token::Literal;
        QChar ch;
        QString set;   // Class: the characters and ranges ("a-z" kept as three characters)
        bool negatedSet = false;
    };
    struct Rule {
        QList<Part> parts;
        bool negate = false;
        bool dirOnly = false;
        bool anchored = false;
    };
    static std::optional<Rule> parseLine(QString line);
    static QList<Part> compile(const QString &pattern);
    static bool matches(const QList<Part> &parts, const QString &text);
    static bool partMatches(const Part &p, QChar c);

    QString m_base;
    QList<Rule> m_rules;
};

}   // namespace scalelab
