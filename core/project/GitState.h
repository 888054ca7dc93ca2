// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>

namespace scalelab {

// The commit checked out where a project folder lies, and whether anything
// under the folder differs from it (changed, staged or untracked files not
// ignored). Runs the local `git status` once, at most `timeoutMs`; no git,
// no work tree, no commit yet or a git that does not answer in time: nullopt.
class GitState {
public:
    struct State {
        QString commit;   // 40 (or 64) hex digits
        bool dirty = false;
    };
    static std::optional<State> read(const QString &folder, int timeoutMs = 10000);
    // The reply of `git status --porcelain=v2 --branch -- .` (public for tests).
    static std::optional<State> parseStatus(const QByteArray &porcelain);
};

}   // namespace scalelab
