// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/JobSpec.h"
#include "core/profiles/ProfileRegistry.h"

#include <QtTest>

namespace scalelab::test {

// The repo's own profiles, loaded exactly as the app loads them.
inline const ProfileRegistry &repoProfiles()
{
    static ProfileRegistry reg = [] {
        ProfileRegistry r;
        r.loadDirectory(QStringLiteral(SCALELAB_TESTS_DIR "/../profiles"), false);
        return r;
    }();
    return reg;
}

inline const ClusterProfile &repoProfile(const QString &id)
{
    const ClusterProfile *p = repoProfiles().find(id);
    if (!p)
        qFatal("profile %s missing from profiles/", qPrintable(id));
    return *p;
}

// A job for the loopback test cluster: srun-launched, no GPU sampling, the
// test account; callers change what their test is about.
inline JobSpec testbedSpec(const QString &jobName, int gpus, const QString &program, const QStringList &args = {})
{
    JobSpec s;
    s.profile = QStringLiteral("testbed");
    s.partition = QStringLiteral("gpu");
    s.gpus = gpus;
    s.framework = Framework::PytorchDdp;
    s.launcher = Launcher::Srun;
    s.time = QStringLiteral("00:05:00");
    s.account = QStringLiteral("project_2001234");
    s.jobName = jobName;
    s.program = program;
    s.args = args;
    s.cpusPerGpu = 1;
    s.memory = QStringLiteral("1000M");
    s.gpuSampleSeconds = 0;
    return s;
}

}   // namespace scalelab::test
