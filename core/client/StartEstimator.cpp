// SPDX-License-Identifier: GPL-3.0-or-later
// sbatch --test-only for every partition that fits, in one remote command.
#include "core/client/StartEstimator.h"

#include "core/base/RemoteValidation.h"
#include "core/base/ShellQuote.h"
#include "core/client/SlurmClient.h"
#include "core/slurm/SlurmTime.h"
#include "core/slurm/WaitText.h"
#include "core/store/RunStore.h"

#include <algorithm>

namespace scalelab {

namespace {

constexpr int kEstimateTimeoutMs = 120000;
const QString kMark = QStringLiteral("@@scalelab-estimate ");

QString envPrefix()
{
    // As SlurmClient::queryArgv: the output's shape is ours, not the login shell's.
    QStringList argv = SlurmClient::queryArgv({});
    for (QString &w : argv)
        w = ShellQuote::quote(w);
    return argv.join(QLatin1Char(' '));
}

// One section of the output: "partition NAME" ... "exit N".
struct Section {
    QString name;   // "partition gpu", "sshare"
    QString text;
    int exitCode = -1;
};

QList<Section> sectionsOf(const QString &out, QString &head)
{
    QList<Section> sections;
    for (QStringView line : QStringView(out).split(u'\n')) {
        if (line.startsWith(kMark)) {
            const QStringView what = line.mid(kMark.size()).trimmed();
            if (what.startsWith(u"exit ") && !sections.isEmpty())
                sections.back().exitCode = what.mid(5).toInt();
            else
                sections << Section{what.toString(), {}, -1};
        } else if (sections.isEmpty()) {
            head += line;
            head += QLatin1Char('\n');
        } else if (sections.back().text.size() < 20000) {
            sections.back().text += line;
            sections.back().text += QLatin1Char('\n');
        }
    }
    return sections;
}

}   // namespace

StartEstimator::StartEstimator(RemoteExecutor &executor)
    : m_exec(executor)
{}

QString StartEstimator::shellBody(const QString &dir, const QStringList &partitions)
{
    const QString d = ShellQuote::quote(dir);
    const QString env = envPrefix();
    // One line, no '!' and no backslashes (as submitShellBody).
    QString body = QStringLiteral("cd %1 || exit 97; date +%Y-%m-%dT%H:%M:%S; ").arg(d);
    for (const QString &p : partitions)
        body += QStringLiteral("echo '%1partition %2'; %3 sbatch --test-only --partition=%2 --chdir=%4 %5 2>&1; "
                               "echo \"%1exit $?\"; ")
                    .arg(kMark, ShellQuote::quote(p), env, d, SlurmClient::scriptFileName());
    body += QStringLiteral("echo '%1sshare'; %2 %3 2>&1; echo \"%1exit $?\"; cd / && rm -rf -- %4")
                .arg(kMark, env, ShellQuote::join(SshareAllocationParser::arguments()), d);
    return body;
}

StartEstimates StartEstimator::parseOutput(const QString &out)
{
    StartEstimates e;
    e.allocation.unknownWhy = QStringLiteral("sshare gave no answer");
    QString head;
    const QList<Section> sections = sectionsOf(out, head);
    e.clusterNow = SlurmTime::parseTimestamp(head.trimmed().section(QLatin1Char('\n'), -1));
    for (const Section &s : sections) {
        if (s.name == QLatin1String("sshare")) {
            e.allocation = s.exitCode == 0 ? SshareAllocationParser::parse(s.text) : RemainingAllocation{};
            if (s.exitCode != 0)
                e.allocation.unknownWhy = QStringLiteral("sshare is not available (%1)")
                                              .arg(RemoteValidation::sanitize(s.text.trimmed().toUtf8(), 200));
            e.diagnostics << e.allocation.diagnostics;
            continue;
        }
        if (!s.name.startsWith(QLatin1String("partition ")))
            continue;
        PartitionStart p;
        p.partition = s.name.mid(10).trimmed();
        p.exitCode = s.exitCode;
        const TestOnlyParse parsed = SbatchTestOnlyParser::parse(RemoteValidation::sanitize(s.text.toUtf8(), 4000));
        p.reply = parsed.reply;
        e.diagnostics << parsed.diagnostics;
        if (p.reply.willRun && p.reply.start && e.clusterNow)
            p.waitSeconds = std::max<qint64>(0, *p.reply.start - *e.clusterNow);
        e.partitions << p;
    }
    return e;
}

StartEstimates StartEstimator::estimate(const QString &script, const QStringList &partitions)
{
    StartEstimates e;
    QString home = m_exec.homeDirectory();
    while (home.size() > 1 && home.endsWith(QLatin1Char('/')))
        home.chop(1);
    if (home.isEmpty() || !RemoteValidation::isSafePath(home)) {
        e.error = QStringLiteral("the remote home directory is unknown or has characters ScaleLab does not send");
        return e;
    }
    QStringList names;
    for (const QString &p : partitions)
        if (ShellQuote::isPlain(p) && RemoteValidation::isSafeFileName(p) && names.size() < kMaxPartitions)
            names << p;
    const QString dir = home + QStringLiteral("/.scalelab/test-only/") + RunStore::newToken();
    if (auto r = m_exec.mkdirs(dir); !r) {
        e.error = QStringLiteral("creating %1 failed: %2").arg(dir, r.error().message);
        return e;
    }
    if (auto r = m_exec.upload(dir + QLatin1Char('/') + SlurmClient::scriptFileName(), script.toUtf8(), 0644); !r) {
        e.error = QStringLiteral("uploading the script failed: %1").arg(r.error().message);
        return e;
    }
    const RemoteResult r =
        m_exec.run({QStringLiteral("sh"), QStringLiteral("-c"), shellBody(dir, names)}, kEstimateTimeoutMs);
    if (!r.transportOk()) {
        e.error = r.transportError;
        return e;
    }
    e = parseOutput(QString::fromUtf8(r.out));
    if (r.exitCode == 97)
        e.error = QStringLiteral("the uploaded script's folder could not be entered");
    return e;
}

QString PartitionStart::words() const
{
    if (reply.willRun)
        return waitSeconds ? WaitText::startsIn(*waitSeconds) : QStringLiteral("at %1").arg(reply.startText);
    if (!reply.refusal.isEmpty())
        return QStringLiteral("refused (%1)").arg(reply.refusal.left(160));
    return QStringLiteral("no answer (exit %1)").arg(exitCode);
}

QString StartEstimates::describe(const QHash<QString, QString> &pastWaitByPartition) const
{
    if (!ok())
        return summary();
    QStringList parts;
    for (const PartitionStart &p : partitions) {
        const QString past = pastWaitByPartition.value(p.partition);
        parts << QStringLiteral("%1: %2%3")
                     .arg(p.partition, p.words(), past.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(past));
    }
    const QString starts = parts.isEmpty() ? summary() : parts.join(QStringLiteral(", "));
    return starts + QLatin1Char('\n') + allocation.text();
}

QString StartEstimates::summary() const
{
    if (!ok())
        return QStringLiteral("no estimate: %1").arg(error);
    QStringList parts;
    for (const PartitionStart &p : partitions)
        parts << QStringLiteral("%1: %2").arg(p.partition, p.words());
    return parts.isEmpty() ? QStringLiteral("no partition fits the job") : parts.join(QStringLiteral(", "));
}

}   // namespace scalelab
