#pragma once

#include "core/model/ClusterProfile.h"
#include "core/model/JobSpec.h"
#include "core/profiles/ProfileRegistry.h"

#include <QString>
#include <QStringList>
#include <QTextStream>

#include <optional>

namespace scalelab {

// Exit codes shared by every command.
enum class ExitCode : int { Ok = 0, Errors = 1, Unusable = 2 };

// What every headless command needs: output streams, the profiles, and the
// shared ways of reading a spec or failing with a one-line reason.
class CliContext {
public:
    CliContext();

    QTextStream out;
    QTextStream err;

    const ProfileRegistry &profiles();
    // Reads and parses a spec file; prints the reason and returns nullopt on
    // unusable input (exit code 2).
    std::optional<JobSpec> readSpec(const QString &path);
    const ClusterProfile *profileFor(const QString &id);
    int unusable(const QString &reason);
    void printJson(const QByteArray &json);

private:
    std::optional<ProfileRegistry> m_registry;
};

// Minimal option scanning: "--flag", "--key value", "--key=value".
class CliArgs {
public:
    explicit CliArgs(const QStringList &args) : m_args(args) {}
    bool flag(const QString &name);
    std::optional<QString> value(const QString &name);
    QStringList positional() const;   // what is left after flags and values
    QStringList unknownOptions() const;

private:
    QStringList m_args;
};

} // namespace scalelab
