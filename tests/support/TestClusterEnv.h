// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Header-only helper for tests that need the real loopback Slurm + sshd cluster
// (tests/cluster/testcluster). load() runs `testcluster env`, exports what it
// prints into this process (qputenv) and returns the values. Tests must FAIL,
// not skip, when the cluster is missing: QVERIFY2(env.ok(), qPrintable(env.error)).

#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

#ifndef SCALELAB_TESTS_DIR
#error "SCALELAB_TESTS_DIR must be defined (tests/CMakeLists.txt does it)"
#endif

namespace scalelab::test {

struct TestClusterEnv {
    enum class Check { RequireUp, EnvOnly };

    QString clusterDir;   // SCALELAB_TESTCLUSTER_DIR
    QString slurmConf;   // SLURM_CONF
    QString sshConfig;   // SCALELAB_SSH_CONFIG: OpenSSH config with testbed* aliases
    QString dataDir;   // SCALELAB_DATA_DIR: throw-away app data dir
    QString totpSecretFile;   // SCALELAB_TOTP_SECRET_FILE: base32 secret of researcher on testbed-mfa
    QString sshdLog;   // SCALELAB_SSHD_LOG (127.0.0.1:2222)
    QString jumpSshdLog;   // SCALELAB_JUMP_SSHD_LOG (127.0.0.1:2223)
    QString mfaSshdLog;   // SCALELAB_MFA_SSHD_LOG (127.0.0.1:2224)
    QString slurmSeries;   // SCALELAB_TESTCLUSTER_SLURM: "22.05" (host) or "24.11" (chroot)
    QString error;   // empty when everything loaded
    // What `sbatch --version` prints on this cluster, without "slurm-wlm ".
    QString expectedSlurmVersion() const
    {
        return slurmSeries == QLatin1String("24.11") ? QStringLiteral("24.11.5") : QStringLiteral("22.05.8");
    }

    bool ok() const { return error.isEmpty(); }

    static QString scriptPath() { return QStringLiteral(SCALELAB_TESTS_DIR "/cluster/testcluster"); }

    // The base32 TOTP secret (for `oathtool --totp -b`), trimmed; empty on error.
    QString totpSecret() const
    {
        QFile f(totpSecretFile);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QString::fromLatin1(f.readAll()).trimmed();
    }

    // Parses one `export KEY=VALUE` line as a POSIX shell would: '…' literal,
    // "…" with \" \\ \$ \` escapes, backslash escapes outside quotes.
    static bool parseExportLine(const QString &line, QString *key, QString *value)
    {
        QString s = line.trimmed();
        if (!s.startsWith(QLatin1String("export ")))
            return false;
        s = s.mid(7).trimmed();
        const qsizetype eq = s.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return false;
        *key = s.left(eq);
        for (const QChar c : *key)
            if (!(c.isLetterOrNumber() || c == QLatin1Char('_')))
                return false;
        QString out;
        enum class Q { None, Single, Double } q = Q::None;
        for (qsizetype i = eq + 1; i < s.size(); ++i) {
            const QChar c = s.at(i);
            if (q == Q::Single) {
                if (c == QLatin1Char('\''))
                    q = Q::None;
                else
                    out += c;
            } else if (q == Q::Double) {
                if (c == QLatin1Char('"')) {
                    q = Q::None;
                } else if (c == QLatin1Char('\\') && i + 1 < s.size()
                           && QStringLiteral("\"\\$`").contains(s.at(i + 1))) {
                    out += s.at(++i);
                } else {
                    out += c;
                }
            } else if (c == QLatin1Char('\'')) {
                q = Q::Single;
            } else if (c == QLatin1Char('"')) {
                q = Q::Double;
            } else if (c == QLatin1Char('\\') && i + 1 < s.size()) {
                out += s.at(++i);
            } else if (c.isSpace()) {
                return false;   // a second word: not something this script prints
            } else {
                out += c;
            }
        }
        if (q != Q::None)
            return false;
        *value = out;
        return true;
    }

    static TestClusterEnv load(Check check = Check::RequireUp)
    {
        TestClusterEnv env;
        const QString script = scriptPath();
        auto run = [&](const QString &cmd, QByteArray *out) -> QString {
            QProcess p;
            p.setStandardInputFile(QProcess::nullDevice());
            p.start(script, {cmd});
            if (!p.waitForStarted(10000))
                return QStringLiteral("cannot run %1: %2").arg(script, p.errorString());
            if (!p.waitForFinished(60000)) {
                p.kill();
                p.waitForFinished(2000);
                return QStringLiteral("'%1 %2' did not finish within 60 s").arg(script, cmd);
            }
            *out = p.readAllStandardOutput();
            if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
                return QStringLiteral("'%1 %2' failed (exit %3): %4%5")
                    .arg(script, cmd)
                    .arg(p.exitCode())
                    .arg(QString::fromLocal8Bit(*out), QString::fromLocal8Bit(p.readAllStandardError()).trimmed());
            return {};
        };

        QByteArray out;
        if (check == Check::RequireUp) {
            env.error = run(QStringLiteral("status"), &out);
            if (!env.error.isEmpty()) {
                env.error = QStringLiteral("the test cluster is not up; start it with `%1 up` "
                                           "(or run ctest, whose fixture testcluster_up does it). %2")
                                .arg(script, env.error);
                return env;
            }
        }
        env.error = run(QStringLiteral("env"), &out);
        if (!env.error.isEmpty())
            return env;

        const QStringList lines = QString::fromLocal8Bit(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (const QString &line : lines) {
            QString key, value;
            if (!parseExportLine(line, &key, &value)) {
                env.error =
                    QStringLiteral("'%1 env' printed a line that is not `export KEY=VALUE`: %2").arg(script, line);
                return env;
            }
            qputenv(key.toLatin1().constData(), value.toLocal8Bit());
            if (key == QLatin1String("SCALELAB_TESTCLUSTER_DIR"))
                env.clusterDir = value;
            else if (key == QLatin1String("SLURM_CONF"))
                env.slurmConf = value;
            else if (key == QLatin1String("SCALELAB_SSH_CONFIG"))
                env.sshConfig = value;
            else if (key == QLatin1String("SCALELAB_DATA_DIR"))
                env.dataDir = value;
            else if (key == QLatin1String("SCALELAB_TOTP_SECRET_FILE"))
                env.totpSecretFile = value;
            else if (key == QLatin1String("SCALELAB_SSHD_LOG"))
                env.sshdLog = value;
            else if (key == QLatin1String("SCALELAB_JUMP_SSHD_LOG"))
                env.jumpSshdLog = value;
            else if (key == QLatin1String("SCALELAB_MFA_SSHD_LOG"))
                env.mfaSshdLog = value;
            else if (key == QLatin1String("SCALELAB_TESTCLUSTER_SLURM"))
                env.slurmSeries = value;
        }
        QStringList missing;
        if (env.clusterDir.isEmpty())
            missing << QStringLiteral("SCALELAB_TESTCLUSTER_DIR");
        if (env.slurmConf.isEmpty())
            missing << QStringLiteral("SLURM_CONF");
        if (env.sshConfig.isEmpty())
            missing << QStringLiteral("SCALELAB_SSH_CONFIG");
        if (env.dataDir.isEmpty())
            missing << QStringLiteral("SCALELAB_DATA_DIR");
        if (env.totpSecretFile.isEmpty())
            missing << QStringLiteral("SCALELAB_TOTP_SECRET_FILE");
        if (env.sshdLog.isEmpty())
            missing << QStringLiteral("SCALELAB_SSHD_LOG");
        if (env.jumpSshdLog.isEmpty())
            missing << QStringLiteral("SCALELAB_JUMP_SSHD_LOG");
        if (env.mfaSshdLog.isEmpty())
            missing << QStringLiteral("SCALELAB_MFA_SSHD_LOG");
        if (env.slurmSeries.isEmpty())
            missing << QStringLiteral("SCALELAB_TESTCLUSTER_SLURM");
        if (!missing.isEmpty())
            env.error = QStringLiteral("'%1 env' did not print %2").arg(script, missing.join(QLatin1String(", ")));
        return env;
    }
};

}   // namespace scalelab::test
