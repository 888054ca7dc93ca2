// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CliContext.h"

#include "app/cli/CliParser.h"
#include "core/base/InputLimits.h"
#include "core/model/JobSpecJson.h"

#include <algorithm>
#include <string>
#include <vector>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace scalelab {

CliContext::CliContext()
{
    // Unbuffered QFiles over the C streams: every write reaches stdio at once,
    // and a failed one (EPIPE, ENOSPC) is seen by finishOutput().
    m_stdout.open(stdout, QIODevice::WriteOnly | QIODevice::Unbuffered, QFileDevice::DontCloseHandle);
    m_stderr.open(stderr, QIODevice::WriteOnly | QIODevice::Unbuffered, QFileDevice::DontCloseHandle);
    out.setDevice(&m_stdout);
    err.setDevice(&m_errors);
}

CliContext::~CliContext()
{
    out.flush();
    err.flush();
}

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
    if (const QString broken = profiles().brokenOverride(id); !p && !broken.isEmpty()) {
        // Never the profile it replaces: the researcher meant their own file.
        err << "scalelab: " << broken << "\n";
        err.flush();
    } else if (!p) {
        QStringList ids;
        for (const auto &prof : profiles().profiles())
            ids << prof.id;
        err << "scalelab: unknown profile \"" << id << "\"" << didYouMean(id, ids)
            << " (known: " << ids.join(QStringLiteral(", ")) << "); see `scalelab profiles`\n";
        for (const auto &d : profiles().problems())
            if (d.severity == Severity::Error && d.message.contains(id))
                err << "scalelab: " << d.message << "\n";
        err.flush();
    }
    return p;
}

QString CliContext::inputName(const QString &path)
{
    return path == QLatin1String("-") ? QStringLiteral("<stdin>") : path;
}

std::optional<QByteArray> CliContext::readInput(const QString &path, qint64 maxBytes, InputLimits::Content content)
{
    // Files: only regular ones, unreadable or too large is refused with the
    // limit named; stdin: the same cap and a time cap.
    const auto read =
        path == QLatin1String("-")
            ? InputLimits::readStream(0, inputName(path), QStringLiteral("input"), maxBytes, content, streamIdleMs())
            : InputLimits::readFile(path, QStringLiteral("input"), maxBytes, content);
    if (!read.ok) {
        unusable(read.problem.message);
        return std::nullopt;
    }
    return read.data;
}

int CliContext::streamIdleMs()
{
#ifdef SCALELAB_TEST_HOOKS
    // Tests of the idle cap set it short instead of waiting a minute.
    bool ok = false;
    const int ms = qEnvironmentVariableIntValue("SCALELAB_TEST_STREAM_IDLE_MS", &ok);
    if (ok && ms > 0)
        return ms;
#endif
    return InputLimits::kStreamIdleMs;
}

std::optional<JobSpec> CliContext::readSpec(const QString &path)
{
    const auto data = readInput(path);
    if (!data)
        return std::nullopt;
    auto parsed = parseJobSpec(*data, inputName(path));
    if (!parsed.spec) {
        // The first problem is the one-line reason; the rest help fix all at once.
        for (const auto &e : parsed.errors)
            err << "scalelab: " << e.message << "\n";
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

void CliContext::setJsonMode(bool on)
{
    m_json = on;
    out.flush();
    out.setDevice(on ? &m_stderr : &m_stdout);
}

std::string CliContext::schemaId(const char *command)
{
    return std::string("scalelab.") + command + ".v1";
}

void CliContext::printJson(const char *command, const nlohmann::ordered_json &body)
{
    nlohmann::ordered_json doc{{"schema", schemaId(command)}};
    for (auto it = body.begin(); it != body.end(); ++it)
        doc[it.key()] = it.value();
    QTextStream json(&m_stdout);
    // Names from a cluster may not be UTF-8: replaced, never a throw.
    json << QString::fromStdString(doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)) << "\n";
    json.flush();
    m_printedJson = true;
}

void CliContext::printJsonError(const char *command, int exitCode)
{
    err.flush();
    std::vector<std::string> messages;
    for (QString line : QString::fromUtf8(m_errors.kept()).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QLatin1String("scalelab: ")))
            line = line.mid(10);
        messages.push_back(line.toStdString());
    }
    if (messages.empty())
        messages.push_back("failed with exit code " + std::to_string(exitCode));
    printJson(command, nlohmann::ordered_json{
                           {"error", {{"exitCode", exitCode}, {"message", messages.front()}, {"messages", messages}}}});
}

bool CliContext::finishOutput()
{
    out.flush();
    err.flush();
    errno = 0;
    const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) || m_stdout.error() != QFileDevice::NoError
                        || out.status() != QTextStream::Ok;
    // stderr refusing a message is a failure too, though it cannot be said.
    const bool errFailed = m_errors.failed() || m_stderr.error() != QFileDevice::NoError || std::ferror(stderr);
    if (errFailed)
        return false;
    if (failed) {
        const int e = errno;
        std::fprintf(stderr, "scalelab: could not write the output: %s\n",
                     e ? std::strerror(e) : qPrintable(m_stdout.errorString()));
        std::fflush(stderr);
    }
    return !failed;
}

}   // namespace scalelab
