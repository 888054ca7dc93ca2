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
const QColor kIncomplete(0xb0, 0x3a, 0x2e);
const QColor kWarn(0x8a, 0x5a, 0x00);

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

// Min–max bars of repeats around the medians of `g` (same order as its data).
void addRange(QCustomPlot *plot, QCPGraph *g, const QList<double> &minus, const QList<double> &plus)
{
    auto *bars = new QCPErrorBars(plot->xAxis, g->valueAxis());
    bars->setName(QObject::tr("min–max of repeats"));
    bars->setObjectName(QStringLiteral("range"));
    bars->setDataPlottable(g);
    bars->setData(QVector<double>(minus.begin(), minus.end()), QVector<double>(plus.begin(), plus.end()));
    bars->setPen(QPen(g->pen().color(), 1.2));
    bars->setWhiskerWidth(8);
}

// Completed runs of `metric`: one point per GPU count at the median, with
// min–max bars when a GPU count was run more than once.
QCPGraph *addMeasured(QCustomPlot *plot, const QList<RunMetricsRow> &rows, const QString &metric, const QString &name,
                      const QColor &colour, QCPAxis *axis = nullptr)
{
    const QList<MetricAtGpus> sum = StudyScaling::summarize(rows, metric);
    QList<Point> pts;
    QList<double> minus, plus;
    bool repeats = false;
    for (const MetricAtGpus &m : sum) {
        QStringList ids;
        for (qint64 id : m.runIds)
            ids << QString::number(id);
        pts << Point{double(m.gpus), m.median,
                     m.runs == 1 ? QObject::tr("run %1, completed").arg(ids.join(QString()))
                                 : QObject::tr("median of %1 completed runs (%2), range %3–%4")
                                       .arg(m.runs)
                                       .arg(ids.join(QStringLiteral(", ")))
                                       .arg(QString::number(m.min, 'g', 4), QString::number(m.max, 'g', 4))};
        minus << m.median - m.min;
        plus << m.max - m.median;
        repeats = repeats || m.runs > 1;
    }
    QCPGraph *g = addGraph(plot, name, colour, true, false, pts, axis);
    if (repeats) {
        g->setName(QObject::tr("%1 (median)").arg(name));
        addRange(plot, g, minus, plus);
    }
    return g;
}

// Runs that did not complete: hollow, in another colour, labelled with their
// state; never part of the measured line or the analysis.
void addIncomplete(QCustomPlot *plot, const QList<RunMetricsRow> &rows, const QString &metric, QCPAxis *axis = nullptr)
{
    const QList<IncompleteValue> inc = StudyScaling::incomplete(rows, metric);
    if (inc.isEmpty())
        return;
    QList<Point> pts;
    for (const IncompleteValue &v : inc)
        pts << Point{
            double(v.gpus), v.value,
            QObject::tr("run %1 (job %2) ended %3: not measured, left out").arg(v.runId).arg(v.jobId, v.state)};
    QCPGraph *g = addGraph(plot, QObject::tr("did not complete (left out)"), kIncomplete, true, false, pts, axis);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kIncomplete, 1.6), Qt::NoBrush, 9));
    g->setObjectName(QStringLiteral("incomplete"));
    for (const IncompleteValue &v : inc) {
        auto *t = new QCPItemText(plot);
        t->setClipToAxisRect(false);
        t->position->setAxes(plot->xAxis, axis ? axis : plot->yAxis);
        t->position->setCoords(v.gpus, v.value);
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        t->setPadding(QMargins(6, 0, 0, 4));
        t->setText(v.state.section(u' ', 0, 0));   // "CANCELLED by 1001" -> "CANCELLED"
        t->setColor(kIncomplete);
        t->setFont(QFont(plot->font().family(), 7));
        t->setObjectName(QStringLiteral("incompleteLabel"));
    }
}

}   // namespace

QList<StudyChart> StudyChartBuilder::all()
{
    return {StudyChart::Runtime,    StudyChart::Speedup,  StudyChart::Efficiency,
            StudyChart::Throughput, StudyChart::Accuracy, StudyChart::Cost};
}

QString StudyChartBuilder::id(StudyChart c)
{
    switch (c) {
    case StudyChart::Runtime:
        return QStringLiteral("runtime");
    case StudyChart::Speedup:
        return QStringLiteral("speedup");
    case StudyChart::Efficiency:
        return QStringLiteral("efficiency");
    case StudyChart::Throughput:
        return QStringLiteral("throughput");
    case StudyChart::Accuracy:
        return QStringLiteral("accuracy");
    case StudyChart::Cost:
        return QStringLiteral("cost");
    }
    return {};
}

QString StudyChartBuilder::title(StudyChart c)
{
    switch (c) {
    case StudyChart::Runtime:
        return QObject::tr("Runtime");
    case StudyChart::Speedup:
        return QObject::tr("Speedup");
    case StudyChart::Efficiency:
        return QObject::tr("Parallel efficiency");
    case StudyChart::Throughput:
        return QObject::tr("Throughput");
    case StudyChart::Accuracy:
        return QObject::tr("Accuracy");
    case StudyChart::Cost:
        return QObject::tr("GPU-hours and billing");
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
        const bool m = !StudyScaling::summarize(rows, in.runtimeMetric).isEmpty();
        empty = !m && StudyScaling::incomplete(rows, in.runtimeMetric).isEmpty();
        emptyText = QObject::tr("No runtime stored (train_time_s or elapsed_s)");
        if (base && base->runtimeSeconds) {
            QList<Point> ideal;
            for (double x : span(lo, hi))
                ideal << Point{x, *base->runtimeSeconds * double(base->gpus) / x, {}};
            addGraph(plot, QObject::tr("ideal (1/N)"), kIdeal, false, true, ideal)
                ->setObjectName(QStringLiteral("ideal"));
        }
        addMeasured(plot, rows, in.runtimeMetric, QObject::tr("measured"), kMeasured)
            ->setObjectName(QStringLiteral("measured"));
        addIncomplete(plot, rows, in.runtimeMetric);
        break;
    }
    case StudyChart::Speedup:
    case StudyChart::Efficiency: {
        const bool speedup = chart == StudyChart::Speedup;
        yLabel = speedup ? QObject::tr("speedup vs %1").arg(base ? gpuLabel(base->gpus) : QObject::tr("baseline"))
                         : QObject::tr("efficiency (speedup / GPUs)");
        QList<Point> m, pred;
        QList<double> minus, plus;
        bool repeats = false;
        for (const ScalingPoint &p : pts) {
            const double scale = speedup ? 1.0 : double(pts.first().gpus) / p.gpus;
            m << Point{double(p.gpus), speedup ? p.speedup : p.efficiency,
                       p.runs == 1 ? QObject::tr("%1, 1 completed run").arg(gpuLabel(p.gpus))
                                   : QObject::tr("%1, median of %2 completed runs, range %3–%4")
                                         .arg(gpuLabel(p.gpus))
                                         .arg(p.runs)
                                         .arg(p.speedupMin * scale, 0, 'f', 2)
                                         .arg(p.speedupMax * scale, 0, 'f', 2)};
            minus << (p.speedup - p.speedupMin) * scale;
            plus << (p.speedupMax - p.speedup) * scale;
            repeats = repeats || p.runs > 1;
        }
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
        QCPGraph *g = addGraph(plot, repeats ? QObject::tr("measured (median)") : QObject::tr("measured"), kMeasured,
                               true, false, m);
        g->setObjectName(QStringLiteral("measured"));
        if (repeats)
            addRange(plot, g, minus, plus);
        break;
    }
    case StudyChart::Throughput: {
        yLabel = QObject::tr("%1 [samples/s]")
                     .arg(in.throughputMetric.isEmpty() ? QStringLiteral("throughput") : in.throughputMetric);
        empty = StudyScaling::summarize(rows, in.throughputMetric).isEmpty()
                && StudyScaling::incomplete(rows, in.throughputMetric).isEmpty();
        emptyText = QObject::tr("No throughput in the job output (samples_per_s or throughput)");
        if (base && base->throughput) {
            QList<Point> ideal;
            for (double x : span(lo, hi))
                ideal << Point{x, *base->throughput * x / double(base->gpus), {}};
            addGraph(plot, QObject::tr("ideal (linear)"), kIdeal, false, true, ideal)
                ->setObjectName(QStringLiteral("ideal"));
        }
        addMeasured(plot, rows, in.throughputMetric, QObject::tr("measured"), kMeasured)
            ->setObjectName(QStringLiteral("measured"));
        addIncomplete(plot, rows, in.throughputMetric);
        break;
    }
    case StudyChart::Accuracy: {
        yLabel = in.accuracyMetric.isEmpty() ? QStringLiteral("accuracy") : in.accuracyMetric;
        empty = StudyScaling::summarize(rows, in.accuracyMetric).isEmpty()
                && StudyScaling::incomplete(rows, in.accuracyMetric).isEmpty();
        emptyText = QObject::tr("No accuracy in the job output (test_accuracy or val_accuracy)");
        addMeasured(plot, rows, in.accuracyMetric, QObject::tr("measured"), kMeasured)
            ->setObjectName(QStringLiteral("measured"));
        addIncomplete(plot, rows, in.accuracyMetric);
        break;
    }
    case StudyChart::Cost: {
        yLabel = QObject::tr("GPU-hours");
        const bool bill = !StudyScaling::summarize(rows, metric::BillingHours).isEmpty();
        empty = StudyScaling::summarize(rows, metric::GpuHours).isEmpty() && !bill
                && StudyScaling::incomplete(rows, metric::GpuHours).isEmpty();
        emptyText = QObject::tr("No accounting stored (GPU-hours, billing)");
        addMeasured(plot, rows, metric::GpuHours, QObject::tr("GPU-hours"), kMeasured)
            ->setObjectName(QStringLiteral("measured"));
        addIncomplete(plot, rows, metric::GpuHours);
        if (bill) {
            plot->yAxis2->setVisible(true);
            plot->yAxis2->setLabel(QObject::tr("billing × hours"));
            QCPGraph *g =
                addMeasured(plot, rows, metric::BillingHours, QObject::tr("billing × hours"), kSecond, plot->yAxis2);
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
        for (int i = 0; i < p->plottableCount(); ++i) {   // graphs and min–max bars
            if (p->plottable(i)->valueAxis() != axis)
                continue;
            bool ok = false;
            const QCPRange gr = p->plottable(i)->getValueRange(ok);
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
    if (chart == StudyChart::Accuracy) {
        // At least a tenth of the scale (0.1 of a fraction, 10 points of a
        // percentage) is shown: a difference of 1/360 must not look like a collapse.
        const QCPRange r = plot->yAxis->range();
        const bool fraction = r.upper <= 1.2;   // data up to 1 plus the 8 % headroom
        const double top = fraction ? 1.0 : 100.0, minSpan = top / 10.0;
        double lo = r.lower - (r.upper - r.lower) * 0.08, hi = r.upper;
        if (hi - lo < minSpan) {
            const double mid = (hi + lo) / 2.0;
            lo = mid - minSpan / 2.0;
            hi = mid + minSpan / 2.0;
            if (hi > top) {
                lo -= hi - top;
                hi = top;
            }
            if (lo < 0) {
                hi -= lo;
                lo = 0;
            }
        }
        plot->yAxis->setRange(std::max(lo, 0.0), std::min(hi, top));   // never beyond 0..1 (or 0..100 %)
    }
    const bool timing = chart != StudyChart::Accuracy && chart != StudyChart::Cost;
    if (timing && !analysis.overlaps().isEmpty()) {
        auto *t = new QCPItemText(plot);
        t->position->setType(QCPItemPosition::ptAxisRectRatio);
        t->position->setCoords(0.02, 0.02);
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        t->setText(QObject::tr("⚠ runs overlapped on shared nodes"));
        t->setColor(kWarn);
        t->setFont(QFont(plot->font().family(), 7));
        t->setObjectName(QStringLiteral("overlapNote"));
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

}   // namespace scalelab
