// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ReportCommands.h"

#include "app/cli/CliParser.h"
#include "app/cli/SlurmCommandSupport.h"

#include "core/base/AtomicFile.h"
#include "core/store/RunStore.h"
#include "ui/results/ScalingReport.h"

namespace scalelab {

int ReportCommands::report(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("report"), QStringLiteral("-o FILE.pdf [--json] STUDY"),
                QStringLiteral("Writes the scaling report of a study (charts, table, advisor, job scripts,\n"
                               "cluster, Slurm version and dates) as PDF. STUDY is a study id (see `scalelab runs`)."));
    a.value({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("FILE.pdf"),
            QStringLiteral("where to write the PDF"));
    a.examples({QStringLiteral("scalelab report 3 -o study3.pdf")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    ctx.setJsonMode(a.isSet(QStringLiteral("json")));
    const QString out = a.value(QStringLiteral("output")).value_or(QString());
    const QStringList pos = a.positional();
    bool ok = false;
    const qint64 study = pos.size() == 1 ? pos.front().toLongLong(&ok) : 0;
    if (!ok || study <= 0 || out.isEmpty())
        return ctx.unusable(QStringLiteral("report needs STUDY and -o FILE.pdf (see `scalelab report --help`)"));
    // Refused before the report is drawn: a folder, a missing folder.
    if (const QString problem = AtomicFile::targetProblem(out); !problem.isEmpty()) {
        ctx.err << "scalelab: " << problem << "\n";
        return int(ExitCode::Errors);
    }
    RunStore store;
    if (!cli::openStore(ctx, store))
        return int(ExitCode::Errors);   // as every command: the store, not the input, is unusable
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
    if (ctx.jsonMode())
        ctx.printJson("report", nlohmann::ordered_json{{"study", study}, {"file", out.toStdString()}});
    return 0;
}

}   // namespace scalelab
