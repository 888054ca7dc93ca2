// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ReportCommands.h"

#include "app/cli/CliParser.h"
#include "app/cli/SlurmCommandSupport.h"

#include "core/analysis/StudyChartJson.h"
#include "core/base/AtomicFile.h"
#include "core/store/RunStore.h"
#include "ui/results/ScalingReport.h"

#include <optional>

namespace scalelab {

namespace {

// The study's chart numbers, read as the PDF's charts read them (StudyChartData).
std::optional<nlohmann::ordered_json> chartJson(RunStore &store, qint64 study, const QString &pdf, QString &error)
{
    const auto in = loadReportInput(store, study);
    if (!in) {
        error = in.errorText();
        return std::nullopt;
    }
    nlohmann::ordered_json j{
        {"study", study},
        {"name", in->study.name.toStdString()},
        {"file", pdf.isEmpty() ? nlohmann::ordered_json() : nlohmann::ordered_json(pdf.toStdString())}};
    const nlohmann::ordered_json charts = studyChartJson(StudyChartData::build(in->table.rows));
    for (auto it = charts.begin(); it != charts.end(); ++it)
        j[it.key()] = it.value();
    return j;
}

}   // namespace

int ReportCommands::report(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("report"), QStringLiteral("[-o FILE.pdf] [--json] STUDY"),
                QStringLiteral("Writes the scaling report of a study (charts, table, advisor, job scripts,\n"
                               "cluster, Slurm version and dates) as PDF. STUDY is a study id (see `scalelab runs`).\n"
                               "--json prints the numbers of its charts and scaling table (the same the PDF\n"
                               "draws: medians with ranges, incomplete runs, ideal and Amdahl lines, predictions,\n"
                               "threshold, axis ranges); -o is then optional."));
    a.value({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("FILE.pdf"),
            QStringLiteral("where to write the PDF"));
    a.examples({QStringLiteral("scalelab report 3 -o study3.pdf"), QStringLiteral("scalelab report 3 --json")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    ctx.setJsonMode(a.isSet(QStringLiteral("json")));
    const QString out = a.value(QStringLiteral("output")).value_or(QString());
    const QStringList pos = a.positional();
    bool ok = false;
    const qint64 study = pos.size() == 1 ? pos.front().toLongLong(&ok) : 0;
    if (!ok || study <= 0 || (out.isEmpty() && !ctx.jsonMode()))
        return ctx.unusable(
            QStringLiteral("report needs STUDY and -o FILE.pdf or --json (see `scalelab report --help`)"));
    // Refused before the report is drawn: a folder, a missing folder.
    if (!out.isEmpty())
        if (const auto target = AtomicFile::checkTarget(out); !target) {
            ctx.err << "scalelab: " << target.errorText() << "\n";
            return int(ExitCode::Errors);
        }
    RunStore store;
    if (!cli::openStore(ctx, store))
        return int(ExitCode::Errors);   // as every command: the store, not the input, is unusable
    if (!store.study(study).ok())
        return ctx.unusable(QStringLiteral("no study %1 (see `scalelab runs`)").arg(study));
    QString error = out.isEmpty() ? QString() : writeScalingReport(store, study, out).errorText();
    std::optional<nlohmann::ordered_json> json;
    if (error.isEmpty() && ctx.jsonMode())
        json = chartJson(store, study, out, error);
    if (!error.isEmpty()) {
        ctx.err << "scalelab: " << error << "\n";
        ctx.err.flush();
        return int(ExitCode::Errors);
    }
    if (!out.isEmpty()) {
        ctx.out << out << "\n";
        ctx.out.flush();
    }
    if (json)
        ctx.printJson("report", *json);
    return 0;
}

}   // namespace scalelab
