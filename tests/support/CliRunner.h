// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

namespace scalelab::test {

struct CliRun {
    int exitCode = -1;
    QString out;
    QString err;
};

// Runs the real `scalelab` executable headless, as a researcher's script would.
inline CliRun runCli(const QStringList &args, const QProcessEnvironment &extra = {}, int timeoutMs = 300000)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    for (const auto &k : extra.keys())
        env.insert(k, extra.value(k));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SCALELAB_BINARY), args);
    p.waitForFinished(timeoutMs);
    return CliRun{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                  QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

}   // namespace scalelab::test
