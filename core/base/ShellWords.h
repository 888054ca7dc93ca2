// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace scalelab {

// A word of a shell command after quote removal and (optional) variable
// expansion. `offset` is where it starts in the lexed text, so callers can map
// it back to a script line.
struct ShellWord {
    QString text;
    int offset = 0;
    int end = 0;   // one past the last character in the lexed text
    bool operator==(const ShellWord &) const = default;
};

// One simple command: the words between ; && || | & ( ) operators, with
// redirections removed.
struct ShellCommand {
    QList<ShellWord> words;
    QString terminator;   // the operator that ended it ("", ";", "&&", "|", "&" ...)
    int offset = 0;

    QStringList texts() const;
};

struct ShellHeredoc {
    QString delimiter;
    bool stripTabs = false;   // <<- form
};

struct ShellLexResult {
    QList<ShellCommand> commands;
    QStringList unresolved;   // variables referenced but unknown, in order, unique
    QList<ShellHeredoc> heredocs;   // bodies follow the line in the script
    bool unterminatedQuote = false;   // a ' " ` or $( that never closes
    int unterminatedOffset = -1;
    bool trailingBackslash = false;   // line continues on the next one
};

// Returns the value of a variable, or nullopt when unknown.
using VariableLookup = std::function<std::optional<QString>(const QString &name)>;

// A small POSIX-shell lexer: quotes, backslashes, comments, $VAR/${VAR}/
// ${VAR:-default} expansion, $(...) and `...` kept verbatim, operators and
// redirections. It never fails: problems are reported in the result. Without a
// lookup, variables are kept as written.
ShellLexResult lexShell(const QString &text, const VariableLookup &lookup = {});

// lexShell's reading without its words, commands and unresolved names: only
// quotes left open, the trailing backslash and here-documents. A huge line
// costs one pass and no copies of its words.
ShellLexResult scanShell(const QString &text);

// Where the logical shell line that starts at `from` in `text` ends: the first
// newline outside any quote, $( ), backtick or backslash continuation, read
// the way lexShell reads. One pass from `from`, so joining a multi-line quote
// costs its length once instead of a re-lex per added line.
struct ShellLineEnd {
    int end = 0;   // offset of that newline, or text.size()
    bool unterminated = false;   // a construct opened and never closed
    int unterminatedOffset = -1;   // where it opened (in `text`)
};
ShellLineEnd findShellLineEnd(const QString &text, int from);

}   // namespace scalelab
