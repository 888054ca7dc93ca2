// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/MlflowRunReader.h"

#include "core/base/InputLimits.h"
#include "core/ingest/MetricFileCollector.h"
#include "core/model/MetricNames.h"

#include <QDir>
#include <QDirIterator>
#include <QtNumeric>

#include <charconv>

namespace scalelab {

namespace {

std::optional<double> mlflowNumber(QByteArrayView s)
{
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec == std::errc() && r.ptr == s.data() + s.size())
        return v;
    if (s == "nan" || s == "NaN")
        return qQNaN();
    return std::nullopt;
}

// The files under `dir` (recursively), relative names sorted; capped.
QStringList filesUnder(const QString &dir, int *dropped)
{
    QStringList out;
    *dropped = 0;
    QDirIterator it(dir, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString p = it.next();
        if (out.size() >= MlflowRunReader::kMaxFiles)
            ++*dropped;
        else
            out << QDir(dir).relativeFilePath(p);
    }
    out.sort();
    return out;
}

void readMetrics(const QString &runDir, MetricFileCollector &out)
{
    const QString dir = runDir + QStringLiteral("/metrics");
    int dropped = 0;
    for (const QString &name : filesUnder(dir, &dropped)) {
        const QString path = dir + u'/' + name;
        out.setFile(path);
        const auto f = InputLimits::readFile(path, QStringLiteral("MLflow metric file"));
        if (!f.ok) {
            out.note(Severity::Warning, f.problem.rule, name, 0, f.problem.message);
            continue;
        }
        MlflowRunReader::parseMetric(f.data, name, path, out);
    }
    if (dropped > 0)
        out.note(Severity::Warning, QStringLiteral("input-too-large"), QString(), 0,
                 QStringLiteral("%1 metric files beyond the first %2 were not read")
                     .arg(dropped)
                     .arg(MlflowRunReader::kMaxFiles));
}

void readParams(const QString &runDir, MetricFileCollector &out)
{
    const QString dir = runDir + QStringLiteral("/params");
    int dropped = 0;
    for (const QString &name : filesUnder(dir, &dropped)) {
        const QString path = dir + u'/' + name;
        out.setFile(path);
        const auto f = InputLimits::readFile(path, QStringLiteral("MLflow parameter file"), 64 * 1024);
        if (f.ok)
            out.parameter(name, QString::fromUtf8(f.data).trimmed(), 1);
        else
            out.note(Severity::Warning, f.problem.rule, name, 0, f.problem.message);
    }
}

}   // namespace

void MlflowRunReader::parseMetric(const QByteArray &data, const QString &name, const QString &path,
                                  MetricFileCollector &out)
{
    out.setFile(path);
    int line = 0;
    for (qsizetype at = 0; at < data.size();) {
        qsizetype end = data.indexOf('\n', at);
        if (end < 0)
            end = data.size();
        const QByteArrayView text = QByteArrayView(data).sliced(at, end - at).trimmed();
        at = end + 1;
        ++line;
        if (text.isEmpty())
            continue;
        const QList<QByteArray> f = text.toByteArray().split(' ');
        const std::optional<double> v = f.size() >= 2 ? mlflowNumber(f[1]) : std::nullopt;
        const std::optional<double> step = f.size() >= 3 ? mlflowNumber(f[2]) : std::nullopt;
        if ((f.size() != 2 && f.size() != 3) || !v || (f.size() == 3 && !step)) {
            out.note(Severity::Warning, QStringLiteral("metric-file-value"), name, line,
                     QStringLiteral("%1 is not \"timestamp value step\"; skipped")
                         .arg(InputLimits::quoted(QString::fromUtf8(text), 60)));
            continue;
        }
        out.add(name, step.value_or(qQNaN()), *v, line);
    }
}

MetricFileResult MlflowRunReader::read(const QString &runDir)
{
    MetricFileCollector out(QStringLiteral("mlflow"), metric::SourceMlflow);
    out.setFile(runDir);
    if (!QDir(runDir + QStringLiteral("/metrics")).exists())
        out.note(Severity::Warning, QStringLiteral("metric-file-shape"), QString(), 0,
                 QStringLiteral("no metrics/ folder: not an MLflow run folder (mlruns/<experiment>/<run>)"));
    readMetrics(runDir, out);
    readParams(runDir, out);
    return out.take();
}

}   // namespace scalelab
