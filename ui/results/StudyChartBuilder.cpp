// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/StudyChartBuilder.h"

#include "core/model/MetricNames.h"

#include "ui/results/QCustomPlotInclude.h"

#include <QSet>

#include <algorithm>
#include <cmath>

namespace scalelab {

namespace {

const QColor kMeasured(0x1f, 0x77, 0xb4);
const QColor kIdeal(0x7f, 0x7f, 0x7f);
const QColor kFit(0xd6, 0x27, 0x28);
const QColor kSecond(0xff, 0x7f, 0x0e);

struct Point {
    double gpus;
    double value;
    QString label;
};

QCPGraph *addGraph(QCustomPlot *plot, const QString &name, const QColor &colour, bool points, bool dashed,
                   QList<Point> data, QCPAxis *valueAxis = nullptr)
{
    QCPGraph *g = plot->addGraph(plot->xAxis, valueAxis ? valueAxis : plot->yAxis);
    g->setName(name);
    QPen pen(colour, points ? 1.5 : 1.8);
    if (dashed)
        pen.setStyle(Qt::DashLine);
    g->setPen(pen);
    if (points) {
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, 8));
    }
    std::stable_sort(data.begin(), data.end(), [](const Point &a, const Point &b) { return a.gpus < b.gpus; });
    QVector<QCPGraphData> d;
    QStringList labels;
    d.reserve(data.size());
    for (const Point &p : data) {
        d.append(QCPGraphData(p.gpus, p.value));
        labels << p.label;
    }
    g->data()->set(d, true);
    g->setProperty("pointLabels", labels);   // for the hover tooltip
    return g;
}

// Geometric samples between lo and hi, for smooth curves on a log axis.
QList<double> span(double lo, double hi, int n = 48)
{
    QList<double> xs;
    for (int i = 0; i < n; ++i)
        xs << lo * std::pow(hi / lo, double(i) / double(n - 1));
    return xs;
}

void note(QCustomPlot *plot, const QString &text)
{
    auto *t = new QCPItemText(plot);
    t->position->setType(QCPItemPosition::ptAxisRectRatio);
    t->position->setCoords(0.5, 0.5);
    // The hint in brackets on its own line: charts are narrow in small windows.
    t->setText(QString(text).replace(QStringLiteral(" ("), QStringLiteral("\n(")));
    t->setTextAlignment(Qt::AlignCenter);
    t->setColor(Qt::darkGray);
    t->setObjectName(QStringLiteral("note"));
}

QString gpuLabel(int g)
{
    return g == 1 ? QStringLiteral("1 GPU") : QStringLiteral("%1 GPUs").arg(g);
}

} // namespace

QList<StudyChart> StudyChartBuilder::all()
{
    return {StudyChart::Runtime, StudyChart::Speedup, StudyChart::Efficiency,
            StudyChart::Throughput, StudyChart::Accuracy, StudyChart::Cost};
}

QString StudyChartBuilder::id(StudyChart c)
{
    switch (c) {
    case StudyChart::Runtime: return QStringLiteral("runtime");
    case StudyChart::Speedup: return QStringLiteral("speedup");
    case StudyChart::Efficiency: return QStringLiteral("efficiency");
    case StudyChart::Throughput: return QStringLiteral("throughput");
    case StudyChart::Accuracy: return QStringLiteral("accuracy");
    case StudyChart::Cost: return QStringLiteral("cost");
    }
    return {};
}

QString StudyChartBuilder::title(StudyChart c)
{
    switch (c) {
    case StudyChart::Runtime: return QObject::tr("Runtime");
    case StudyChart::Speedup: return QObject::tr("Speedup");
    case StudyChart::Efficiency: return QObject::tr("Parallel efficiency");
    case StudyChart::Throughput: return QObject::tr("Throughput");
    case StudyChart::Accuracy: return QObject::tr("Accuracy");
    case StudyChart::Cost: return QObject::tr("GPU-hours and billing");
    }
    return {};
}

void StudyChartBuilder::build(QCustomPlot *plot, StudyChart chart, const QList<RunMetricsRow> &rows,
                              const StudyScalingInput &in, const ScalingAnalysis &analysis, double threshold)
{
    plot->clearGraphs();
    plot->clearItems();
    plot->clearPlottables();
    plot->yAxis2->setVisible(false);
    plot->setObjectName(id(chart));

    // Per-run points of one metric: every run with a job, failed ones included
    // (they are shown, the analysis leaves them out).
    auto perRun = [&](const QString &name) {
        QList<Point> pts;
        if (name.isEmpty())
            return pts;
        for (const RunMetricsRow &r : rows) {
            if (!r.run.hasJob())
                continue;
            if (auto v = r.value(name))
                pts << Point{double(StudyScaling::gpusOf(r)), *v,
                             QStringLiteral("run %1 (job %2, %3)").arg(r.run.id).arg(r.run.jobId, r.stateText())};
        }
        return pts;
    };

    QSet<int> counts;
    for (const RunMetricsRow &r : rows)
        if (r.run.hasJob() && StudyScaling::gpusOf(r) > 0)
            counts.insert(StudyScaling::gpusOf(r));
    for (const ScalingPoint &p : analysis.predictions())
        if (chart == StudyChart::Speedup || chart == StudyChart::Efficiency)
            counts.insert(p.gpus);
    QList<int> sorted(counts.begin(), counts.end());
    std::sort(sorted.begin(), sorted.end());
    const double lo = sorted.isEmpty() ? 1 : sorted.first();
    const double hi = sorted.isEmpty() ? 8 : std::max<double>(sorted.last(), lo * 2);

    const QList<ScalingPoint> &pts = analysis.points();
    const ScalingPoint *base = pts.isEmpty() ? nullptr : &pts.first();
    QString yLabel;
    bool empty = false;
    QString emptyText;

    switch (chart) {
    case StudyChart::Runtime: {
        yLabel = QObject::tr("%1 [s]").arg(in.runtimeMetric.isEmpty() ? QStringLiteral("runtime") : in.runtimeMetric);
        const QList<Point> m = perRun(in.runtimeMetric);
        empty = m.isEmpty();
        emptyText = QObject::tr("No runtime stored (train_time_s or elapsed_s)");
        if (base && base->runtimeSeconds) {
            QList<Point> ideal;
            for (double x : span(lo, hi))
                ideal << Point{x, *base->runtimeSeconds * double(base->gpus) / x, {}};
            addGraph(plot, QObject::tr("ideal (1/N)"), kIdeal, false, true, ideal)->setObjectName(QStringLiteral("ideal"));
        }
        addGraph(plot, QObject::tr("measured"), kMeasured, true, false, m)->setObjectName(QStringLiteral("measured"));
        break;
    }
    case StudyChart::Speedup:
    case StudyChart::Efficiency: {
        const bool speedup = chart == StudyChart::Speedup;
        yLabel = speedup ? QObject::tr("speedup vs %1").arg(base ? gpuLabel(base->gpus) : QObject::tr("baseline"))
                         : QObject::tr("efficiency (speedup / GPUs)");
        QList<Point> m, pred;
        for (const ScalingPoint &p : pts)
            m << Point{double(p.gpus), speedup ? p.speedup : p.efficiency,
                       QStringLiteral("%1, mean of %2 run(s)").arg(gpuLabel(p.gpus)).arg(p.runs)};
        for (const ScalingPoint &p : analysis.predictions())
            pred << Point{double(p.gpus), speedup ? p.speedup : p.efficiency,
                          QStringLiteral("%1, predicted").arg(gpuLabel(p.gpus))};
        empty = m.isEmpty();
        emptyText = QObject::tr("No completed run (with a runtime or throughput)");
        const double b = base ? base->gpus : lo;
        if (empty) {
            // No reference lines without a measured point to compare them with.
        } else if (speedup) {
            QList<Point> ideal;
            for (double x : span(lo, hi))
                ideal << Point{x, x / b, {}};
            addGraph(plot, QObject::tr("ideal"), kIdeal, false, true, ideal)->setObjectName(QStringLiteral("ideal"));
        } else {
            addGraph(plot, QObject::tr("threshold %1").arg(threshold), kFit, false, true,
                     {Point{lo / 1.3, threshold, {}}, Point{hi * 1.3, threshold, {}}})
                ->setObjectName(QStringLiteral("threshold"));
        }
        if (const auto &fit = analysis.amdahl(); fit && fit->points >= 2 && base) {
            const double s = fit->serialFraction;
            auto rel = [s](double n) { return s + (1.0 - s) / n; };
            QList<Point> curve;
            for (double x : span(lo, hi))
                curve << Point{x, speedup ? rel(b) / rel(x) : (rel(b) / rel(x)) / (x / b), {}};
            addGraph(plot, QObject::tr("Amdahl fit (serial %1 %)").arg(s * 100.0, 0, 'f', 1), kFit, false, false, curve)
                ->setObjectName(QStringLiteral("amdahl"));
        }
        if (!pred.isEmpty()) {
            QCPGraph *g = addGraph(plot, QObject::tr("predicted"), kFit, true, false, pred);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kFit, Qt::white, 8));
            g->setObjectName(QStringLiteral("predicted"));
        }
        addGraph(plot, QObject::tr("measured"), kMeasured, true, false, m)->setObjectName(QStringLiteral("measured"));
        break;
    }
    case StudyChart::Throughput: {
        yLabel = QObject::tr("%1 [samples/s]").arg(in.throughputMetric.isEmpty() ? QStringLiteral("throughput")
                                                                                 : in.throughputMetric);
        const QList<Point> m = perRun(in.throughputMetric);
        empty = m.isEmpty();
        emptyText = QObject::tr("No throughput in the job output (samples_per_s or throughput)");
        if (base && base->throughput) {
            QList<Point> ideal;
            for (double x : span(lo, hi))
                ideal << Point{x, *base->throughput * x / double(base->gpus), {}};
            addGraph(plot, QObject::tr("ideal (linear)"), kIdeal, false, true, ideal)->setObjectName(QStringLiteral("ideal"));
        }
        addGraph(plot, QObject::tr("measured"), kMeasured, true, false, m)->setObjectName(QStringLiteral("measured"));
        break;
    }
    case StudyChart::Accuracy: {
        yLabel = in.accuracyMetric.isEmpty() ? QStringLiteral("accuracy") : in.accuracyMetric;
        const QList<Point> m = perRun(in.accuracyMetric);
        empty = m.isEmpty();
        emptyText = QObject::tr("No accuracy in the job output (test_accuracy or val_accuracy)");
        addGraph(plot, QObject::tr("measured"), kMeasured, true, false, m)->setObjectName(QStringLiteral("measured"));
        break;
    }
    case StudyChart::Cost: {
        yLabel = QObject::tr("GPU-hours");
        const QList<Point> m = perRun(metric::GpuHours);
        const QList<Point> bill = perRun(metric::BillingHours);
        empty = m.isEmpty() && bill.isEmpty();
        emptyText = QObject::tr("No accounting stored (GPU-hours, billing)");
        addGraph(plot, QObject::tr("GPU-hours"), kMeasured, true, false, m)->setObjectName(QStringLiteral("measured"));
        if (!bill.isEmpty()) {
            plot->yAxis2->setVisible(true);
            plot->yAxis2->setLabel(QObject::tr("billing × hours"));
            QCPGraph *g = addGraph(plot, QObject::tr("billing × hours"), kSecond, true, false, bill, plot->yAxis2);
            // Hollow and larger: billing is often proportional to GPUs, so
            // both points land on the same spot and the disc must stay visible.
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(kSecond, 1.8), Qt::NoBrush, 12));
            g->setObjectName(QStringLiteral("billing"));
        }
        break;
    }
    }

    // X: GPU count on a log-2 axis with a tick at every count used.
    plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int c : sorted)
        ticker->addTick(c, QString::number(c));
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(QObject::tr("GPUs"));
    plot->xAxis->setRange(lo / 1.4, hi * 1.4);
    plot->yAxis->setLabel(yLabel);
    plot->yAxis->setScaleType(QCPAxis::stLinear);

    // Y: from zero (ratios and times read honestly) to a little above the data.
    auto fitY = [](QCPAxis *axis, QCustomPlot *p, bool includeZero) {
        bool found = false;
        QCPRange r;
        for (int i = 0; i < p->graphCount(); ++i) {
            if (p->graph(i)->valueAxis() != axis)
                continue;
            bool ok = false;
            const QCPRange gr = p->graph(i)->getValueRange(ok);
            if (ok) {
                r = found ? QCPRange(std::min(r.lower, gr.lower), std::max(r.upper, gr.upper)) : gr;
                found = true;
            }
        }
        if (!found)
            r = QCPRange(0, 1);
        if (includeZero)
            r.lower = std::min(0.0, r.lower);
        const double pad = std::max((r.upper - r.lower) * 0.08, 1e-9);
        axis->setRange(r.lower, r.upper + pad);
    };
    fitY(plot->yAxis, plot, chart != StudyChart::Accuracy);
    if (chart == StudyChart::Accuracy) {   // room below the lowest point too
        const QCPRange r = plot->yAxis->range();
        plot->yAxis->setRange(r.lower - (r.upper - r.lower) * 0.08, r.upper);
    }
    if (plot->yAxis2->visible())
        fitY(plot->yAxis2, plot, true);

    if (empty)
        note(plot, emptyText);
    plot->legend->setVisible(!empty && plot->graphCount() > 1);
    plot->legend->setFont(QFont(plot->font().family(), 8));
    // The legend sits in a row under the chart, never on top of data: where
    // points fall depends on how the job scaled, which is what is unknown.
    if (plot->legend->layout() != plot->plotLayout()) {
        const int row = plot->plotLayout()->rowCount();
        plot->plotLayout()->addElement(row, 0, plot->legend);   // takes it out of the inset layout
        plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
        plot->legend->setWrap(2);   // two per row: fit, threshold and predictions fit a narrow chart
        plot->legend->setBorderPen(Qt::NoPen);
        plot->legend->setMargins(QMargins(4, 0, 4, 2));
        plot->plotLayout()->setRowStretchFactor(row, 0.001);
    }
}

} // namespace scalelab
