// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the script import tests: cluster profiles built in code (so the
// tests do not depend on profiles/*.json), script loading and finding checks.

#include "core/scriptimport/ScriptImporter.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QtTest>

namespace scalelab::testing {

inline Partition part(const char *name, const char *gpuType, int gpus, int cpus, qint64 memMB, int maxNodes,
                      qint64 maxTime, bool isDefault = false)
{
    Partition p;
    p.name = QString::fromLatin1(name);
    p.gpuType = QString::fromLatin1(gpuType);
    p.gpusPerNode = gpus;
    p.cpusPerNode = cpus;
    p.memoryPerNodeMB = memMB;
    p.maxNodes = maxNodes;
    p.maxTimeSeconds = maxTime;
    p.isDefault = isDefault;
    return p;
}

inline GpuType gpu(const char *id, GpuVendor vendor = GpuVendor::Nvidia)
{
    GpuType g;
    g.id = QString::fromLatin1(id);
    g.vendor = vendor;
    return g;
}

constexpr qint64 kHour = 3600;

// Profiles built in code so these tests do not depend on profiles/*.json.
inline ClusterProfile fixtureProfile(const QString &id)
{
    ClusterProfile c;
    c.id = id;
    c.name = id;
    if (id == QLatin1String("puhti")) {
        c.name = QStringLiteral("Puhti");
        c.accountRequired = true;
        c.accountPattern = QStringLiteral("^project_[0-9]{7}$");
        c.gpuTypes = {gpu("v100")};
        c.partitions = {part("gpu", "v100", 4, 40, 373 * 1024, 20, 72 * kHour, true),
                        part("gputest", "v100", 4, 40, 373 * 1024, 2, kHour / 4)};
    } else if (id == QLatin1String("mahti")) {
        c.name = QStringLiteral("Mahti");
        c.accountRequired = true;
        c.gpuTypes = {gpu("a100")};
        Partition small = part("gpusmall", "a100", 4, 128, 490 * 1024, 1, 36 * kHour, true);
        small.maxGpusPerJob = 2;
        Partition medium = part("gpumedium", "a100", 4, 128, 490 * 1024, 6, 36 * kHour);
        medium.exclusive = true;
        c.partitions = {small, medium};
    } else if (id == QLatin1String("lumi")) {
        c.name = QStringLiteral("LUMI");
        c.accountRequired = true;
        c.cpusPerGpuBroken = true;
        c.gpuRequest = GpuRequestStyle::GpusPerNode;
        c.gpuTypes = {gpu("mi250", GpuVendor::Amd)};
        Partition standard = part("standard-g", "mi250", 8, 56, 480 * 1024, 1024, 48 * kHour);
        standard.exclusive = true;
        c.partitions = {part("small-g", "mi250", 8, 56, 480 * 1024, 4, 72 * kHour, true), standard,
                        part("eap", "mi250", 8, 128, 480 * 1024, 16, 24 * kHour)};
        c.notes = {ProfileNote{QStringLiteral("site-cpus-per-gpu"),
                               QStringLiteral("Slurm binds GPUs to tasks with cgroups, which breaks GPU peer access."),
                               QString()}};
    } else if (id == QLatin1String("m3")) {
        c.name = QStringLiteral("MASSIVE M3");
        c.accountRequired = true;
        c.gpuTypes = {gpu("p100"), gpu("v100")};
        c.partitions = {part("m3h", "p100", 2, 28, 240 * 1024, 10, 168 * kHour, true),
                        part("m3g", "v100", 3, 36, 360 * 1024, 10, 168 * kHour)};
    } else if (id == QLatin1String("aau")) {
        c.name = QStringLiteral("AAU AI Cloud");
        c.gpuTypes = {gpu("v100")};
        c.partitions = {part("batch", "v100", 16, 96, 1400 * 1024, 1, 12 * kHour, true)};
    } else if (id == QLatin1String("workshop")) {
        c.name = QStringLiteral("GUJCOST workshop cluster");
        c.partitions = {part("gpu", "", 4, 40, 180 * 1024, 2, 24 * kHour, true)};
    } else if (id == QLatin1String("testbed")) {
        c.name = QStringLiteral("testbed");
        c.accountRequired = true;
        c.gpuTypes = {gpu("v100")};
        Partition small = part("gpusmall", "v100", 4, 8, 16000, 1, 72 * kHour);
        small.maxGpusPerJob = 2;
        Partition medium = part("gpumedium", "v100", 4, 8, 16000, 2, 72 * kHour);
        medium.exclusive = true;
        c.partitions = {part("gpu", "v100", 4, 8, 16000, 2, 72 * kHour, true),
                        part("gputest", "v100", 4, 8, 16000, 2, kHour / 4), small, medium};
    }
    return c;
}

inline QString readScript(const QString &name)
{
    QFile f(QStringLiteral(SCALELAB_TEST_DATA_DIR "/scripts/") + name);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

inline QString describe(const Diagnostics &diags)
{
    QStringList out;
    for (const auto &d : diags)
        out << QStringLiteral("%1 %2@%3 [%4] %5")
                   .arg(severityName(d.severity), d.rule)
                   .arg(d.line)
                   .arg(d.field, d.message);
    return out.join(QLatin1Char('\n'));
}

// Rules the importer itself raises (validator rules are checked separately):
// for these, a script's warnings and errors must be exactly the expected ones.
inline const QSet<QString> &importerRules()
{
    static const QSet<QString> s = {"cannot-parse",
                                    "dos-line-breaks",
                                    "missing-shebang",
                                    "byte-order-mark",
                                    "shebang-non-ascii",
                                    "unknown-interpreter",
                                    "tasks-per-gpu",
                                    "site-plugin-option",
                                    "unknown-option",
                                    "invalid-value",
                                    "placeholder-value",
                                    "sbatch-directive-ignored",
                                    "sbatch-after-command",
                                    "conflicting-options",
                                    "nodes-unspecified",
                                    "no-launch-line",
                                    "unresolved-variable",
                                    "torchrun-without-srun-multinode",
                                    "torchrun-standalone-multinode",
                                    "torchrun-nnodes-mismatch",
                                    "launcher-too-many-processes",
                                    "launcher-too-few-processes",
                                    "first-node-only",
                                    "tasks-never-started",
                                    "site-cpus-per-gpu",
                                    "geometry-partition-mismatch",
                                    "time-reads-as-minutes",
                                    "variable-never-set",
                                    "output-directory-missing",
                                    "fixed-port-shared-node",
                                    "torchrun-no-rendezvous",
                                    "node-rank-procid",
                                    "option-removed"};
    return s;
}

inline QStringList findingKeys(const Diagnostics &diags, bool warningsAndErrorsOfImporterOnly)
{
    QStringList out;
    for (const auto &d : diags) {
        if (warningsAndErrorsOfImporterOnly && (d.severity == Severity::Info || !importerRules().contains(d.rule)))
            continue;
        out << QStringLiteral("%1@%2").arg(d.rule).arg(d.line);
    }
    return out;
}

// Expected findings: every listed one must be there; and the importer's own
// warnings/errors must be exactly the listed ones (infos may be listed or not).
inline void checkFindings(const Diagnostics &actual, const QStringList &expected)
{
    const QStringList all = findingKeys(actual, false);
    for (const auto &e : expected)
        QVERIFY2(all.contains(e), qPrintable(QStringLiteral("missing %1 in\n%2").arg(e, describe(actual))));
    for (const auto &k : findingKeys(actual, true))
        QVERIFY2(expected.contains(k), qPrintable(QStringLiteral("unexpected %1 in\n%2").arg(k, describe(actual))));
}

inline QString sh(std::initializer_list<const char *> lines)
{
    QStringList out;
    for (const char *l : lines)
        out << QString::fromUtf8(l);
    return out.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

}   // namespace scalelab::testing
