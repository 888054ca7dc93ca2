// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/client/SegmentChain.h"

#include "core/base/RemoteValidation.h"
#include "core/base/ShellQuote.h"
#include "core/compose/SegmentScript.h"
#include "core/model/JobSpecJson.h"

#include <algorithm>

namespace scalelab {

int SegmentChain::planned(const RunRecord &run)
{
    const JobSpecParseResult spec = parseJobSpec(run.specJson);
    return spec.spec && spec.spec->segments.enabled() ? spec.spec->segments.planned() : 0;
}

int SegmentChain::firstJobs(const RunRecord &run)
{
    const JobSpecParseResult spec = parseJobSpec(run.specJson);
    return spec.spec && spec.spec->segments.enabled() ? spec.spec->segments.firstJobs() : 0;
}

QString SegmentChain::submitBody(const QString &dir, const QString &token, const QString &dependency,
                                 const QString &scriptName, int segments, int jobs)
{
    // The first job, then each next one waiting for the one before, all in
    // this one command; every id is appended to jobid.tmp as soon as sbatch
    // printed it, so reconcile() finds each job that exists.
    const int n = std::min(segments, SegmentSpec::kMaxSegments);
    QStringList rest;
    for (int k = 2; k <= (jobs >= 1 ? std::min(jobs, n) : n); ++k)
        rest << QString::number(k);
    const QString tokenExport = jobs >= 1 && jobs < n ? QStringLiteral(",SCALELAB_TOKEN=") + token : QString();
    const QString each = QStringLiteral("sbatch --parsable --comment=%1 --chdir=%2").arg(token, dir);
    QString body = QStringLiteral("cd %1 || exit 97; %2%3 --export=ALL,SCALELAB_SEGMENT=1,SCALELAB_SEGMENTS=%4%5 %6 > "
                                  "jobid.tmp; rc=$?; if [ $rc -ne 0 ]; then exit $rc; fi; ")
                       .arg(dir, each, dependency)
                       .arg(n)
                       .arg(tokenExport, scriptName);
    if (!rest.isEmpty())
        body += QStringLiteral("p=$(head -n 1 jobid.tmp); p=${p%%;*}; for k in %1; do q=$(%2 "
                               "--dependency=afterany:$p --export=ALL,SCALELAB_SEGMENT=$k,SCALELAB_SEGMENTS=%3 %4) "
                               "|| break; p=${q%%;*}; echo $p >> jobid.tmp; done; ")
                    .arg(rest.join(QLatin1Char(' ')), each)
                    .arg(n)
                    .arg(scriptName);
    return body + QStringLiteral("mv -f jobid.tmp jobid && cat jobid");
}

QStringList SegmentChain::jobsToCancel(const RunRecord &run, const QList<SegmentRecord> &segments)
{
    QStringList jobs{run.jobId};
    bool after = false;
    for (const SegmentRecord &s : segments) {
        if (after && !s.ended() && RemoteValidation::isJobId(s.jobId))
            jobs << s.jobId;
        after = after || s.jobId == run.jobId;
    }
    return jobs;
}

QStringList SegmentChain::cancelArgv(const RunRecord &run, const QStringList &jobs)
{
    const QStringList argv = QStringList{QStringLiteral("scancel")} + jobs;
    if (firstJobs(run) >= planned(run) || run.remoteDir.isEmpty())
        return argv;
    return {QStringLiteral("sh"), QStringLiteral("-c"),
            QStringLiteral("echo cancelled > %1/%2; %3")
                .arg(ShellQuote::quote(run.remoteDir), SegmentScript::stopFileName(), ShellQuote::join(argv))};
}

}   // namespace scalelab
