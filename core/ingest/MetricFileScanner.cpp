// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/MetricFileScanner.h"

#include "core/ingest/HparamsYamlReader.h"
#include "core/ingest/LightningCsvReader.h"
#include "core/ingest/MetricFileCollector.h"
#include "core/ingest/MlflowRunReader.h"
#include "core/ingest/TensorBoardEventReader.h"
#include "core/ingest/TrainerStateReader.h"
#include "core/ingest/WandbRunReader.h"
#include "core/model/MetricNames.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QMap>

#include <algorithm>

namespace scalelab {

namespace {

enum class Format { TrainerState, Lightning, TensorBoard, Mlflow, Wandb };

// Each run found: its format, the folder (or file) that is the run, its files.
struct Found {
    QMap<QString, QStringList> runs[5];   // per Format: run key -> files
};

bool isTfEvents(const QString &name)
{
    return name.startsWith(QLatin1String("events.out.tfevents."));
}

// Keras writes logs/train/events… and logs/validation/events…: one run.
QString tensorBoardRun(const QFileInfo &f)
{
    const QString parent = f.dir().dirName();
    if (parent == QLatin1String("train") || parent == QLatin1String("validation"))
        return QFileInfo(f.absolutePath()).absolutePath();
    return f.absolutePath();
}

void classify(const QFileInfo &f, Found &found)
{
    const QString name = f.fileName();
    if (name == QLatin1String("trainer_state.json"))
        found.runs[int(Format::TrainerState)][f.absoluteFilePath()] << f.absoluteFilePath();
    else if (name == QLatin1String("metrics.csv"))
        found.runs[int(Format::Lightning)][f.absolutePath()] << f.absoluteFilePath();
    else if (isTfEvents(name))
        found.runs[int(Format::TensorBoard)][tensorBoardRun(f)] << f.absoluteFilePath();
    else if (name == QLatin1String("meta.yaml") && QFileInfo(f.absolutePath() + QStringLiteral("/metrics")).isDir())
        found.runs[int(Format::Mlflow)][f.absolutePath()] << f.absoluteFilePath();
    else if ((name == QLatin1String("wandb-summary.json") || name == QLatin1String("wandb-history.jsonl"))
             && f.dir().dirName() == QLatin1String("files"))
        found.runs[int(Format::Wandb)][QFileInfo(f.absolutePath()).absolutePath()] << f.absoluteFilePath();
}

qint64 newestWrite(const QStringList &files)
{
    qint64 t = 0;
    for (const QString &p : files)
        t = std::max(t, QFileInfo(p).lastModified().toMSecsSinceEpoch());
    return t;
}

MetricFileResult readTensorBoard(const QStringList &files)
{
    MetricFileCollector out(QStringLiteral("tensorboard"), metric::SourceTensorBoard);
    QStringList sorted = files;
    sorted.sort();
    for (const QString &p : sorted) {
        const QString parent = QFileInfo(p).dir().dirName();
        const bool split = parent == QLatin1String("train") || parent == QLatin1String("validation");
        TensorBoardEventReader::readInto(p, split ? parent + u'/' : QString(), out);
    }
    return out.take();
}

MetricFileResult readLightning(const QString &dir, const QStringList &files)
{
    MetricFileResult r = LightningCsvReader::read(files.front());
    const QString hparams = dir + QStringLiteral("/hparams.yaml");
    if (QFileInfo::exists(hparams))
        r.append(HparamsYamlReader::read(hparams));
    return r;
}

MetricFileResult readRun(Format format, const QString &run, const QStringList &files)
{
    switch (format) {
    case Format::TrainerState:
        return TrainerStateReader::read(files.front());
    case Format::Lightning:
        return readLightning(run, files);
    case Format::TensorBoard:
        return readTensorBoard(files);
    case Format::Mlflow:
        return MlflowRunReader::read(run);
    case Format::Wandb:
        return WandbRunReader::read(run);
    }
    return {};
}

// The newest run of each format; the others named in one note.
MetricFileResult readFound(const Found &found)
{
    MetricFileResult out;
    for (int f = 0; f < 5; ++f) {
        const QMap<QString, QStringList> &runs = found.runs[f];
        if (runs.isEmpty())
            continue;
        QString newest;
        qint64 newestTime = -1;
        for (auto it = runs.begin(); it != runs.end(); ++it)
            if (const qint64 t = newestWrite(it.value()); t > newestTime) {
                newest = it.key();
                newestTime = t;
            }
        out.append(readRun(Format(f), newest, runs.value(newest)));
        if (runs.size() > 1) {
            QStringList others = runs.keys();
            others.removeAll(newest);
            out.diagnostics << finding(Severity::Info, QStringLiteral("metric-file-runs"), QString(), 0,
                                       QStringLiteral("%1 runs of this format were found; the newest, %2, was read "
                                                      "(values of different runs are never merged). Not read: %3")
                                           .arg(runs.size())
                                           .arg(newest, others.mid(0, 5).join(QStringLiteral(", "))
                                                            + (others.size() > 5 ? QStringLiteral(", …") : QString())));
        }
    }
    return out;
}

}   // namespace

bool MetricFileScanner::isMetricFile(const QString &path)
{
    Found found;
    classify(QFileInfo(path), found);
    for (const auto &runs : found.runs)
        if (!runs.isEmpty())
            return true;
    const QString name = QFileInfo(path).fileName();
    return name == QLatin1String("hparams.yaml");
}

bool MetricFileScanner::isMetricFileName(const QString &path)
{
    const QStringList parts = path.split(u'/', Qt::SkipEmptyParts);
    if (parts.isEmpty())
        return false;
    const QString &name = parts.back();
    const QString parent = parts.size() >= 2 ? parts[parts.size() - 2] : QString();
    if (name == QLatin1String("trainer_state.json") || name == QLatin1String("metrics.csv")
        || name == QLatin1String("hparams.yaml") || isTfEvents(name))
        return true;
    if (parent == QLatin1String("files")
        && (name == QLatin1String("wandb-summary.json") || name == QLatin1String("wandb-history.jsonl")))
        return true;
    // mlruns/<experiment>/<run>/{meta.yaml, metrics/…, params/…}
    const qsizetype mlruns = parts.lastIndexOf(QStringLiteral("mlruns"));
    if (mlruns < 0 || parts.size() - mlruns < 4)
        return false;
    const QString &inRun = parts[mlruns + 3];
    return (inRun == QLatin1String("meta.yaml") && parts.size() - mlruns == 4)
           || (parts.size() - mlruns >= 5 && (inRun == QLatin1String("metrics") || inRun == QLatin1String("params")));
}

QString MetricFileScanner::lookedFor()
{
    return QStringLiteral("trainer_state.json, metrics.csv (Lightning), events.out.tfevents.* (TensorBoard), an "
                          "MLflow run folder (meta.yaml + metrics/), W&B files/wandb-summary.json or "
                          "files/wandb-history.jsonl");
}

MetricFileResult MetricFileScanner::readFiles(const QStringList &paths)
{
    Found found;
    for (const QString &p : paths)
        classify(QFileInfo(p), found);
    return readFound(found);
}

MetricFileResult MetricFileScanner::scan(const QString &path)
{
    const QFileInfo info(path);
    if (!info.isDir()) {
        if (info.fileName() == QLatin1String("hparams.yaml"))
            return HparamsYamlReader::read(path);
        return readFiles({path});
    }
    Found found;
    int entries = 0;
    QDirIterator it(path, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        if (++entries > kMaxEntries)
            break;
        const QFileInfo f = it.fileInfo();
        if (f.isFile() && !f.isSymLink())
            classify(f, found);
    }
    MetricFileResult r = readFound(found);
    if (entries > kMaxEntries)
        r.diagnostics << finding(Severity::Warning, QStringLiteral("input-too-large"), QString(), 0,
                                 QStringLiteral("%1: more than %2 files and folders; the rest were not looked at (give "
                                                "the run's own folder)")
                                     .arg(path)
                                     .arg(kMaxEntries));
    return r;
}

}   // namespace scalelab
