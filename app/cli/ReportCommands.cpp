#include "app/cli/ReportCommands.h"

#include "core/store/RunStore.h"
#include "ui/results/ScalingReport.h"

namespace scalelab {

int ReportCommands::report(CliContext &ctx, const QStringList &args)
{
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        ctx.out << "Usage: scalelab report STUDY -o FILE.pdf\n\n"
                   "Writes the scaling report of a study (charts, table, advisor, job scripts,\n"
                   "cluster, Slurm version and dates) as PDF. STUDY is a study id (see `scalelab runs`).\n";
        return 0;
    }
    CliArgs a(args);
    const auto out = a.value(QStringLiteral("-o")).value_or(a.value(QStringLiteral("--output")).value_or(QString()));
    if (!a.unknownOptions().isEmpty())
        return ctx.unusable(QStringLiteral("report: unknown option %1").arg(a.unknownOptions().front()));
    const QStringList pos = a.positional();
    bool ok = false;
    const qint64 study = pos.size() == 1 ? pos.front().toLongLong(&ok) : 0;
    if (!ok || study <= 0 || out.isEmpty())
        return ctx.unusable(QStringLiteral("report needs STUDY and -o FILE.pdf (see `scalelab report --help`)"));
    RunStore store;
    if (const QString e = store.open().errorText(); !e.isEmpty())
        return ctx.unusable(QStringLiteral("cannot open the run store: %1").arg(e));
    if (!store.study(study).ok())
        return ctx.unusable(QStringLiteral("no study %1 (see `scalelab runs`)").arg(study));
    const QString error = writeScalingReport(store, study, out);
    if (!error.isEmpty()) {
        ctx.err << "scalelab: " << error << "\n";
        ctx.err.flush();
        return int(ExitCode::Errors);
    }
    ctx.out << out << "\n";
    ctx.out.flush();
    return 0;
}

} // namespace scalelab
