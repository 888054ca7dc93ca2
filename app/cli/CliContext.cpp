#include "app/cli/CliContext.h"

#include "core/base/InputLimits.h"
#include "core/model/JobSpecJson.h"

#include <QFile>

#include <cstdio>

namespace scalelab {

CliContext::CliContext() : out(stdout), err(stderr) {}

const ProfileRegistry &CliContext::profiles()
{
    if (!m_registry) {
        m_registry.emplace();
        m_registry->loadDefaults();
    }
    return *m_registry;
}

const ClusterProfile *CliContext::profileFor(const QString &id)
{
    const ClusterProfile *p = profiles().find(id);
    if (!p) {
        QStringList ids;
        for (const auto &prof : profiles().profiles())
            ids << prof.id;
        err << "scalelab: unknown profile \"" << id << "\" (known: " << ids.join(QStringLiteral(", "))
            << "); see `scalelab profiles`\n";
        for (const auto &d : profiles().problems())
            if (d.severity == Severity::Error && d.message.contains(id))
                err << "scalelab: " << d.message << "\n";
        err.flush();
    }
    return p;
}

std::optional<JobSpec> CliContext::readSpec(const QString &path)
{
    const auto read = InputLimits::readFile(path, QStringLiteral("job spec"));
    if (!read.ok) {
        unusable(read.problem.message);
        return std::nullopt;
    }
    auto parsed = parseJobSpec(read.data, path);
    if (!parsed.spec) {
        // The first problem is the one-line reason; the rest help fix all at once.
        err << "scalelab: " << parsed.errors.front().message << "\n";
        for (qsizetype i = 1; i < parsed.errors.size(); ++i)
            err << "scalelab: " << parsed.errors[i].message << "\n";
        err.flush();
        return std::nullopt;
    }
    return parsed.spec;
}

int CliContext::unusable(const QString &reason)
{
    err << "scalelab: " << reason << "\n";
    err.flush();
    return int(ExitCode::Unusable);
}

void CliContext::printJson(const QByteArray &json)
{
    out << QString::fromUtf8(json);
    if (!json.endsWith('\n'))
        out << "\n";
    out.flush();
}

bool CliArgs::flag(const QString &name)
{
    const qsizetype i = m_args.indexOf(name);
    if (i < 0)
        return false;
    m_args.removeAt(i);
    return true;
}

std::optional<QString> CliArgs::value(const QString &name)
{
    for (qsizetype i = 0; i < m_args.size(); ++i) {
        if (m_args[i] == name && i + 1 < m_args.size()) {
            const QString v = m_args[i + 1];
            m_args.remove(i, 2);
            return v;
        }
        if (m_args[i].startsWith(name + QLatin1Char('='))) {
            const QString v = m_args[i].mid(name.size() + 1);
            m_args.removeAt(i);
            return v;
        }
    }
    return std::nullopt;
}

QStringList CliArgs::positional() const
{
    QStringList out;
    for (const auto &a : m_args)
        if (!a.startsWith(QLatin1String("--")) || a == QLatin1String("--"))
            out << a;
    return out;
}

QStringList CliArgs::unknownOptions() const
{
    QStringList out;
    for (const auto &a : m_args)
        if (a.startsWith(QLatin1String("--")) && a != QLatin1String("--"))
            out << a;
    return out;
}

} // namespace scalelab
