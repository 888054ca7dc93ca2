// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/project/GitState.h"

#include <QProcess>
#include <QProcessEnvironment>

#include <algorithm>

namespace scalelab {

std::optional<GitState::State> GitState::parseStatus(const QByteArray &porcelain)
{
    State s;
    for (const QByteArray &line : porcelain.split('\n')) {
        if (line.startsWith("# branch.oid "))
            s.commit = QString::fromLatin1(line.mid(13).trimmed());
        else if (!line.isEmpty() && !line.startsWith('#'))
            s.dirty = true;
    }
    const bool hex = !s.commit.isEmpty() && std::all_of(s.commit.begin(), s.commit.end(), [](QChar c) {
        return (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || (c >= QLatin1Char('a') && c <= QLatin1Char('f'));
    });
    if (!hex)
        return std::nullopt;   // not a work tree, or "(initial)": no commit yet
    return s;
}

std::optional<GitState::State> GitState::read(const QString &folder, int timeoutMs)
{
    QProcess git;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("GIT_OPTIONAL_LOCKS"), QStringLiteral("0"));   // a read never writes the index
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    env.insert(QStringLiteral("GIT_TERMINAL_PROMPT"), QStringLiteral("0"));
    git.setProcessEnvironment(env);
    git.setStandardInputFile(QProcess::nullDevice());
    git.setProcessChannelMode(QProcess::SeparateChannels);
    git.start(QStringLiteral("git"),
              {QStringLiteral("-C"), folder, QStringLiteral("status"), QStringLiteral("--porcelain=v2"),
               QStringLiteral("--branch"), QStringLiteral("--untracked-files=normal"), QStringLiteral("--"),
               QStringLiteral(".")});
    if (!git.waitForStarted(timeoutMs))
        return std::nullopt;   // no git
    if (!git.waitForFinished(timeoutMs)) {
        git.kill();
        git.waitForFinished(1000);
        return std::nullopt;
    }
    if (git.exitStatus() != QProcess::NormalExit || git.exitCode() != 0)
        return std::nullopt;
    return parseStatus(git.readAllStandardOutput());
}

}   // namespace scalelab
