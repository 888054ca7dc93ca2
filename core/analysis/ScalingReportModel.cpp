// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/ScalingReportModel.h"

#include "core/analysis/ScalingReportTables.h"

#include <algorithm>

namespace scalelab {

namespace {

QString joinSet(const QStringList &values)
{
    QStringList unique;
    for (const QString &v : values)
        if (!v.isEmpty() && !unique.contains(v))
            unique << v;
    return unique.isEmpty() ? QStringLiteral("–") : unique.join(QStringLiteral(", "));
}

// "4 stored, 4 submitted; 3 completed and used in the analysis; 1 did not complete (CANCELLED) and is left out".
QString runCounts(const ScalingAnalysis &analysis, const StudyScalingInput &input, qsizetype stored)
{
    QStringList notDone;
    for (const ScalingRun &r : input.runs)
        if (r.failed)
            notDone << r.state.section(u' ', 0, 0);
    QString text = QStringLiteral("%1 stored, %2 submitted; %3 completed and used in the analysis")
                       .arg(stored)
                       .arg(input.runs.size())
                       .arg(analysis.usedRuns());
    if (!notDone.isEmpty())
        text += QStringLiteral("; %1 did not complete (%2) and %3 left out")
                    .arg(notDone.size())
                    .arg(joinSet(notDone), notDone.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"));
    return text;
}

// "gres/gpu:a100=4" in AllocTRES names the GPU type Slurm gave the job.
QString allocatedGpuType(const RunMetricsRow &r)
{
    if (!r.accounting)
        return {};
    for (const QString &item : r.accounting->allocTres.split(u',')) {
        if (!item.startsWith(QLatin1String("gres/gpu:")))
            continue;
        return item.mid(9).section(u'=', 0, 0);
    }
    return {};
}

// The conditions the numbers were measured under.
ReportTable conditionsTable(const StudyRecord &study, const RunMetricsTable &table, const StudyChartData &data,
                            const DocumentedFactsOf &documented, const QDateTime &written)
{
    QStringList clusters, profiles, partitions, gpuTypes, slurm, frameworks, submits, ends;
    for (const RunMetricsRow &r : table.rows) {
        const DocumentedFacts doc = documented ? documented(r.run) : DocumentedFacts{};
        clusters << r.run.clusterAlias;
        profiles << r.run.profile;
        partitions << r.run.partition;
        frameworks << r.run.framework;
        const QString allocated = allocatedGpuType(r);
        gpuTypes << (!allocated.isEmpty() ? QStringLiteral("%1 (allocated, sacct AllocTRES)").arg(allocated)
                     : !doc.gpuType.isEmpty()
                         ? QStringLiteral("%1 (documented by the %2 profile)").arg(doc.gpuType, r.run.profile)
                         : QString());
        // The version that ran the job (probed over the connection) beats the one the profile documents.
        slurm << (!r.run.slurmVersion.isEmpty()
                      ? QStringLiteral("%1 (reported by sbatch --version on the cluster)").arg(r.run.slurmVersion)
                  : !doc.slurmVersion.isEmpty()
                      ? QStringLiteral("%1 (documented by the %2 profile)").arg(doc.slurmVersion, r.run.profile)
                      : QString());
        if (r.accounting) {
            submits << r.accounting->submit;
            ends << r.accounting->end;
        }
    }
    submits.removeAll(QStringLiteral("Unknown"));
    ends.removeAll(QStringLiteral("Unknown"));
    std::sort(submits.begin(), submits.end());
    std::sort(ends.begin(), ends.end());
    ReportTable t;
    t.id = QStringLiteral("conditions");
    t.title = QStringLiteral("Conditions");
    t.columns = {{QStringLiteral("What")}, {QStringLiteral("Value")}};
    auto row = [&t](const QString &k, const QString &v) {
        t.rows << ReportRow{{ReportCell::words(k), ReportCell::words(v)}, {}};
    };
    row(QStringLiteral("Cluster"), joinSet(clusters));
    row(QStringLiteral("Profile"), joinSet(profiles));
    row(QStringLiteral("Partition"), joinSet(partitions));
    row(QStringLiteral("GPU type"),
        gpuTypes.join(QString()).isEmpty() ? QStringLiteral("not recorded") : joinSet(gpuTypes));
    row(QStringLiteral("Slurm version"),
        slurm.join(QString()).isEmpty() ? QStringLiteral("not recorded (no run reached sbatch)") : joinSet(slurm));
    row(QStringLiteral("Framework"), joinSet(frameworks));
    row(QStringLiteral("Runs"), runCounts(data.analysis(), data.input(), table.rows.size()));
    row(QStringLiteral("Study created"), study.created.toString(Qt::ISODate));
    row(QStringLiteral("First submitted"), submits.isEmpty() ? QStringLiteral("–") : submits.first());
    row(QStringLiteral("Last ended"), ends.isEmpty() ? QStringLiteral("–") : ends.last());
    row(QStringLiteral("Report written"), written.toString(Qt::ISODate));
    return t;
}

QStringList adviceSentences(const ScalingAnalysis &analysis)
{
    QStringList out = analysis.warnings();
    if (const auto &fit = analysis.amdahl())
        out << QStringLiteral("Amdahl fit over %1 GPU counts: serial fraction %2 %, R² %3.")
                   .arg(fit->points)
                   .arg(NumberFormat::fixed(fit->serialFraction * 100.0, 1), NumberFormat::fixed(fit->r2, 3));
    return out;
}

QStringList overlapSentences(const ScalingAnalysis &analysis)
{
    if (analysis.overlaps().isEmpty())
        return {QStringLiteral("No two runs shared a node at the same time (sacct NodeList, Start and End).")};
    QStringList out;
    for (const RunOverlap &o : analysis.overlaps())
        out << QStringLiteral("%1 and %2 ran together on %3 for %4 s: their timings may be slower than either alone.")
                   .arg(o.first, o.second, o.nodes.join(QStringLiteral(", ")))
                   .arg(o.seconds);
    return out;
}

}   // namespace

ScalingReportModel ScalingReportModel::build(const StudyRecord &study, const RunMetricsTable &table,
                                             const StudyChartData &data, const DocumentedFactsOf &documented,
                                             const QDateTime &written)
{
    ScalingReportModel m;
    m.studyName = study.name;
    m.conditions = conditionsTable(study, table, data, documented, written);
    m.recommendation = data.analysis().summary();
    m.advice = adviceSentences(data.analysis());
    m.overlaps = overlapSentences(data.analysis());
    m.strongScaling = ScalingReportTables::strongScaling(data);
    m.runs = ScalingReportTables::runs(table.rows, data.input());
    m.resources = ScalingReportTables::resources(table.rows, data.input());
    m.scripts = ScriptVariants::group(table.rows);
    return m;
}

QString ScalingReportModel::markdown() const
{
    QString md = QStringLiteral("# Scaling report: %1\n\n").arg(studyName);
    for (const ReportRow &r : conditions.rows)
        md += QStringLiteral("- **%1**: %2\n").arg(r.cells[0].text, r.cells[1].text);
    md += QStringLiteral("\n## Recommendation\n\n%1\n").arg(recommendation);
    for (const QString &a : advice)
        md += QStringLiteral("\n%1\n").arg(a);
    md += QStringLiteral("\n") + strongScaling.markdown();
    md += QStringLiteral("\n## Timing conditions\n\n%1\n").arg(overlaps.join(QStringLiteral("\n\n")));
    md += QStringLiteral("\n%1\n%2").arg(runs.markdown(), resources.markdown());
    return md;
}

}   // namespace scalelab
