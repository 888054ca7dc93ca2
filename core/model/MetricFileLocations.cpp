// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/MetricFileLocations.h"

#include "core/base/InputLimits.h"
#include "core/model/SpecFields.h"

namespace scalelab {

namespace {

// table: options that set where a framework writes its metric files, as
// their documentation names them. HF Trainer: output_dir (trainer_state.json
// in its checkpoint-* folders), logging_dir (TensorBoard); Lightning CLI:
// trainer.default_root_dir (lightning_logs/); Megatron-LM: tensorboard-dir;
// fairseq: tensorboard-logdir; common scripts: log_dir, logdir.
constexpr const char *kFolderOptions[] = {
    "--output_dir",
    "--output-dir",
    "--logging_dir",
    "--logging-dir",
    "--trainer.default_root_dir",
    "--default_root_dir",
    "--tensorboard-dir",
    "--tensorboard_dir",
    "--tensorboard-logdir",
    "--log_dir",
    "--log-dir",
    "--logdir",
};

// table: environment variables that move a framework's folder: W&B's
// WANDB_DIR (its wandb/ goes there), MLflow's file store URI.
constexpr const char *kFolderVariables[] = {"WANDB_DIR", "MLFLOW_TRACKING_URI"};

// An MLflow tracking URI names a folder only with the file: scheme or none.
QString folderOfVariable(const QString &name, const QString &value)
{
    if (name != QLatin1String("MLFLOW_TRACKING_URI"))
        return value;
    if (value.startsWith(QLatin1String("file://")))
        return value.mid(7);
    if (value.startsWith(QLatin1String("file:")))
        return value.mid(5);
    return value.contains(QLatin1String("://")) ? QString() : value;
}

QString optionValue(const QStringList &args, qsizetype i, const QString &option)
{
    const QString &a = args.at(i);
    if (a == option)
        return i + 1 < args.size() ? args.at(i + 1) : QString();
    if (a.startsWith(option + u'='))
        return a.mid(option.size() + 1);
    return {};
}

void add(QList<MetricFileLocation> &out, const QString &path, const QString &source)
{
    QString p = path;
    while (p.size() > 1 && p.endsWith(u'/'))
        p.chop(1);
    if (p.isEmpty() || p == QLatin1String(".") || !MetricFileLocations::isUsable(p))
        return;
    for (const MetricFileLocation &l : out)
        if (l.path == p)
            return;
    out << MetricFileLocation{p, source};
}

// The entry as a message may quote it: one line, cut.
QString shown(QString path)
{
    for (QChar &c : path)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            c = u'?';
    return InputLimits::quoted(path);
}

bool coversAFileSystem(const QString &path)
{
    static const QStringList kWide = {QStringLiteral("/"),       QStringLiteral("~"),     QStringLiteral("$HOME"),
                                      QStringLiteral("${HOME}"), QStringLiteral("/home"), QStringLiteral("/scratch")};
    return kWide.contains(path);
}

}   // namespace

bool MetricFileLocations::isUsable(const QString &path)
{
    if (path.trimmed().isEmpty() || path.contains(QLatin1String("$(")) || path.contains(u'`'))
        return false;
    for (const QChar c : path)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return false;
    return true;
}

QList<MetricFileLocation> MetricFileLocations::of(const JobSpec &spec)
{
    QList<MetricFileLocation> out{{QStringLiteral("."), QStringLiteral("the run folder")}};
    for (const QString &d : spec.metricDirs)
        add(out, d, QString::fromLatin1(SpecField::metricDirs));
    for (qsizetype i = 0; i < spec.args.size(); ++i)
        for (const char *o : kFolderOptions) {
            const QString option = QLatin1String(o);
            if (const QString v = optionValue(spec.args, i, option); !v.isEmpty())
                add(out, v, option);
        }
    for (const auto &[name, value] : spec.environment.variables)
        for (const char *v : kFolderVariables)
            if (name == QLatin1String(v))
                add(out, folderOfVariable(name, value), name);
    return out;
}

Diagnostics MetricFileLocations::check(const JobSpec &spec)
{
    Diagnostics out;
    const QString field = QString::fromLatin1(SpecField::metricDirs);
    for (const QString &d : spec.metricDirs) {
        if (!isUsable(d))
            out << finding(Severity::Error, QStringLiteral("metric-dir-invalid"), field, 0,
                           QStringLiteral("'%1' is not a folder name ScaleLab can look in: write a path, absolute or "
                                          "relative to the run folder; $NAME is expanded on the cluster, "
                                          "command substitution and control characters are not allowed")
                               .arg(shown(d)));
        else if (coversAFileSystem(d.trimmed()))
            out << finding(Severity::Warning, QStringLiteral("metric-dir-wide"), field, 0,
                           QStringLiteral("'%1' is a whole file system; ScaleLab walks 6 levels and takes 500 files: "
                                          "name the folder the job writes its metrics to")
                               .arg(shown(d)));
    }
    return out;
}

}   // namespace scalelab
