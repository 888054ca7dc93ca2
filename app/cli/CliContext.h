// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/ErrorTee.h"
#include "core/base/InputLimits.h"
#include "core/model/ClusterProfile.h"
#include "core/model/JobSpec.h"
#include "core/profiles/ProfileRegistry.h"

#include <QFile>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <optional>

namespace scalelab {

// Exit codes shared by every command.
enum class ExitCode : int { Ok = 0, Errors = 1, Unusable = 2 };

// What every headless command needs: output streams, the profiles, and the
// shared ways of reading an input file or failing with a one-line reason.
class CliContext {
    // Declared before the streams so that they outlive them.
    QFile m_stdout;
    QFile m_stderr;
    ErrorTee m_errors{&m_stderr};

public:
    CliContext();
    ~CliContext();
    CliContext(const CliContext &) = delete;
    CliContext &operator=(const CliContext &) = delete;

    // Human output. With --json (setJsonMode) it goes to stderr, so stdout
    // carries nothing but the one JSON document.
    QTextStream out;
    QTextStream err;

    const ProfileRegistry &profiles();
    // A file argument's bytes; "-" is stdin (read with a time cap). nullopt
    // (reason printed) when unreadable, not a regular file, too large or not `content`.
    std::optional<QByteArray> readInput(const QString &path, qint64 maxBytes = InputLimits::kMaxFileBytes,
                                        InputLimits::Content content = InputLimits::Content::Text);
    // How an input is named in messages: the path, or "<stdin>" for "-".
    static QString inputName(const QString &path);
    // Reads and parses a spec file ("-": stdin); prints the reason and
    // returns nullopt on unusable input (exit code 2).
    std::optional<JobSpec> readSpec(const QString &path);
    // The profile, or nullptr with the reason printed: the known ids and a
    // did-you-mean, or the broken file that replaces the profile of that id.
    const ClusterProfile *profileFor(const QString &id);
    int unusable(const QString &reason);

    void setJsonMode(bool on);
    bool jsonMode() const { return m_json; }
    // Prints `body` on stdout with "schema": "scalelab.<command>.v1" first.
    void printJson(const char *command, const nlohmann::ordered_json &body);
    // The one JSON object of a --json command that failed before printing
    // its own: {"schema", "error": {"exitCode", "message", "messages"}}, the
    // messages being what it said on stderr.
    void printJsonError(const char *command, int exitCode);
    bool printedJson() const { return m_printedJson; }
    static std::string schemaId(const char *command);

    // Flushes stdout and stderr; false (and the reason on stderr, when it
    // can be written) when either refused a write: a full disk, a closed
    // descriptor, a broken pipe. The command must then not exit 0.
    bool finishOutput();

private:
    static int streamIdleMs();
    bool m_json = false;
    bool m_printedJson = false;
    std::optional<ProfileRegistry> m_registry;
};

}   // namespace scalelab
