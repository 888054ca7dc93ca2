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
nlohmann::ordered_json chartJson(const ReportInput &in, qint64 study, const QString &file)
{
    nlohmann::ordered_json j{
        {"study", study},
        {"name", in.study.name.toStdString()},
        {"file", file.isEmpty() ? nlohmann::ordered_json() : nlohmann::ordered_json(file.toStdString())}};
    const nlohmann::ordered_json charts = studyChartJson(StudyChartData::build(in.table.rows));
    for (auto it = charts.begin(); it != charts.end(); ++it)
        j[it.key()] = it.value();
    return j;
}

// The Markdown or CSV text of the report (no widgets needed).
QString tablesText(const ReportInput &in, const QString &format)
{
    const ScalingReportModel model = buildReportModel(in, StudyChartData::build(in.table.rows));
    return format == QLatin1String("md") ? model.markdown() : model.strongScaling.csv();
}

// Writes the report in `format` to `out` ("" = stdout for md and csv); "" or the error.
QString writeReport(CliContext &ctx, RunStore &store, qint64 study, const QString &format, const QString &out)
{
    if (format == QLatin1String("pdf"))
        return writeScalingReport(store, study, out).errorText();
    const auto in = loadReportInput(store, study);
    if (!in)
        return in.errorText();
    const QString text = tablesText(*in, format);
    if (out.isEmpty()) {
        ctx.out << text;
        ctx.out.flush();
        return {};
    }
    return AtomicFile::write(out, text.toUtf8()).errorText();
}

// The format asked for, or nullopt with the reason printed (exit 2).
std::optional<QString> formatOf(CliContext &ctx, const CliParser &a, const QString &out, int &rc)
{
    const QString format = a.value(QStringLiteral("format")).value_or(QStringLiteral("pdf"));
    if (format != QLatin1String("pdf") && format != QLatin1String("md") && format != QLatin1String("csv")) {
        rc = ctx.unusable(QStringLiteral("report: --format %1 is not a report format: use pdf, md or csv").arg(format));
        return std::nullopt;
    }
    if (format == QLatin1String("pdf") && out.isEmpty() && !ctx.jsonMode()) {
        rc =
            ctx.unusable(QStringLiteral("report needs STUDY and -o FILE.pdf or --json (see `scalelab report --help`)"));
        return std::nullopt;
    }
    if (format != QLatin1String("pdf") && out.isEmpty() && ctx.jsonMode()) {
        rc = ctx.unusable(
            QStringLiteral("report: --format %1 and --json would both print on stdout: give -o FILE.%1").arg(format));
        return std::nullopt;
    }
    return format;
}

}   // namespace

int ReportCommands::report(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("report"), QStringLiteral("[-o FILE] [--format pdf|md|csv] [--json] STUDY"),
                QStringLiteral("Writes the scaling report of a study. STUDY is a study id (see `scalelab runs`).\n"
                               "pdf (the default, needs -o): a one-page summary (conditions, recommendation,\n"
                               "strong-scaling table, speedup and efficiency charts), then the advice, all charts,\n"
                               "the runs and each distinct job script once, the others as diffs.\n"
                               "md: the conditions, recommendation and tables as Markdown; csv: the strong-scaling\n"
                               "table, one row per GPU count, ranges of repeats as min and max columns. Both print\n"
                               "on stdout unless -o is given. Numbers have their digits chosen per column, never\n"
                               "`e` notation; md separates thousands with commas, csv does not.\n"
                               "--json prints the numbers of its charts and scaling table (the same the PDF\n"
                               "draws: medians with ranges, incomplete runs, ideal and Amdahl lines, predictions,\n"
                               "threshold, axis ranges); -o is then optional."));
    a.value({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("FILE"),
            QStringLiteral("where to write the report"));
    a.value({QStringLiteral("format")}, QStringLiteral("pdf|md|csv"), QStringLiteral("what to write (default pdf)"));
    a.examples({QStringLiteral("scalelab report 3 -o study3.pdf"),
                QStringLiteral("scalelab report 3 --format md -o study3.md"),
                QStringLiteral("scalelab report 3 --format csv > study3.csv"),
                QStringLiteral("scalelab report 3 --json")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    ctx.setJsonMode(a.isSet(QStringLiteral("json")));
    const QString out = a.value(QStringLiteral("output")).value_or(QString());
    const QStringList pos = a.positional();
    bool ok = false;
    const qint64 study = pos.size() == 1 ? pos.front().toLongLong(&ok) : 0;
    if (!ok || study <= 0)
        return ctx.unusable(pos.size() == 1 ? QStringLiteral("report: STUDY %1 is not a study id (a number, see "
                                                             "`scalelab runs`)")
                                                  .arg(pos.front())
                                            : QStringLiteral("report needs one STUDY (see `scalelab report --help`)"));
    int rc = 0;
    const std::optional<QString> format = formatOf(ctx, a, out, rc);
    if (!format)
        return rc;
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
    QString error =
        out.isEmpty() && *format == QLatin1String("pdf") ? QString() : writeReport(ctx, store, study, *format, out);
    std::optional<nlohmann::ordered_json> json;
    if (error.isEmpty() && ctx.jsonMode()) {
        const auto in = loadReportInput(store, study);
        if (in)
            json = chartJson(*in, study, out);
        else
            error = in.errorText();
    }
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
