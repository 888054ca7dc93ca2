// SPDX-License-Identifier: GPL-3.0-or-later
// Drawing a StudyChartPanel: lines, measured points with their ranges,
// incomplete runs, the second axis of the cost chart, axes, notes, legend.
#include "ui/results/StudyChartBuilder.h"

#include "ui/results/QCustomPlotInclude.h"

#include <algorithm>
#include <numeric>

namespace scalelab {

namespace {

const QColor kMeasured(0x1f, 0x77, 0xb4);
const QColor kIdeal(0x7f, 0x7f, 0x7f);
const QColor kFit(0xd6, 0x27, 0x28);
const QColor kSecond(0xff, 0x7f, 0x0e);
const QColor kIncomplete(0xb0, 0x3a, 0x2e);
const QColor kWarn(0x8a, 0x5a, 0x00);

enum class Look { Line, Dashed, Points };

bool isScaling(StudyChart c)
{
    return c == StudyChart::Speedup || c == StudyChart::Efficiency;
}

QString gpuLabel(double g)
{
    return g == 1 ? QStringLiteral("1 GPU") : QStringLiteral("%1 GPUs").arg(g);
}

// A graph named `objectName` with the points (by GPU count) and their hover labels.
QCPGraph *addGraph(QCustomPlot *plot, const QString &objectName, const QString &name, const QColor &colour, Look look,
                   QList<ChartPoint> data, const QStringList &labels = {}, QCPAxis *valueAxis = nullptr)
{
    QCPGraph *g = plot->addGraph(plot->xAxis, valueAxis ? valueAxis : plot->yAxis);
    g->setObjectName(objectName);
    g->setName(name);
    QPen pen(colour, look == Look::Points ? 1.5 : 1.8);
    if (look == Look::Dashed)
        pen.setStyle(Qt::DashLine);
    g->setPen(pen);
    if (look == Look::Points) {
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, 8));
    }
    QList<int> order(data.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&data](int a, int b) { return data[a].gpus < data[b].gpus; });
    QVector<QCPGraphData> d;
    QStringList sortedLabels;
    for (int i : order) {
        d.append(QCPGraphData(data[i].gpus, data[i].value));
        sortedLabels << labels.value(i);
    }
    g->data()->set(d, true);
    g->setProperty("pointLabels", sortedLabels);   // for the hover tooltip
    return g;
}

// Min–max bars of repeats around the points of `g` (sorted by GPU count as `g`).
void addRange(QCustomPlot *plot, QCPGraph *g, QList<ChartPoint> points)
{
    std::stable_sort(points.begin(), points.end(),
                     [](const ChartPoint &a, const ChartPoint &b) { return a.gpus < b.gpus; });
    QVector<double> minus, plus;
    for (const ChartPoint &p : points) {
        minus << p.value - p.low;
        plus << p.high - p.value;
    }
    auto *bars = new QCPErrorBars(plot->xAxis, g->valueAxis());
    bars->setName(QObject::tr("min–max of repeats"));
    bars->setObjectName(QStringLiteral("range"));
    bars->setDataPlottable(g);
    bars->setData(minus, plus);
    bars->setPen(QPen(g->pen().color(), 1.2));
    bars->setWhiskerWidth(8);
}

// Hover text of a measured point: its runs, or its runs' median and range.
QString measuredLabel(StudyChart chart, const ChartPoint &p)
{
    if (isScaling(chart))
        return p.runs == 1 ? QObject::tr("%1, 1 completed run").arg(gpuLabel(p.gpus))
                           : QObject::tr("%1, median of %2 completed runs, range %3–%4")
                                 .arg(gpuLabel(p.gpus))
                                 .arg(p.runs)
                                 .arg(p.low, 0, 'f', 2)
                                 .arg(p.high, 0, 'f', 2);
    QStringList ids;
    for (qint64 id : p.runIds)
        ids << QString::number(id);
    return p.runs == 1 ? QObject::tr("run %1, completed").arg(ids.join(QString()))
                       : QObject::tr("median of %1 completed runs (%2), range %3–%4")
                             .arg(p.runs)
                             .arg(ids.join(QStringLiteral(", ")))
                             .arg(QString::number(p.low, 'g', 4), QString::number(p.high, 'g', 4));
}

// Completed runs: one disc per GPU count, with min–max bars when one was repeated.
QCPGraph *drawMeasured(QCustomPlot *plot, StudyChart chart, const QString &objectName, const QString &name,
                       const QColor &colour, const QList<ChartPoint> &points, QCPAxis *axis = nullptr)
{
    QStringList labels;
    bool repeats = false;
    for (const ChartPoint &p : points) {
        labels << measuredLabel(chart, p);
        repeats = repeats || p.runs > 1;
    }
    QCPGraph *g = addGraph(plot, objectName, repeats ? QObject::tr("%1 (median)").arg(name) : name, colour,
                           Look::Points, points, labels, axis);
    if (repeats)
        addRange(plot, g, points);
    return g;
}

QString idealName(StudyChart chart)
{
    switch (chart) {
    case StudyChart::Runtime:
        return QObject::tr("ideal (1/N)");
    case StudyChart::Throughput:
        return QObject::tr("ideal (linear)");
    default:
        return QObject::tr("ideal");
    }
}

// Reference lines drawn under the points: ideal, threshold, Amdahl fit, predictions.
void drawLines(QCustomPlot *plot, const StudyChartPanel &p)
{
    if (!p.ideal.isEmpty())
        addGraph(plot, QStringLiteral("ideal"), idealName(p.chart), kIdeal, Look::Dashed, p.ideal);
    if (!p.threshold.isEmpty())
        addGraph(plot, QStringLiteral("threshold"), QObject::tr("threshold %1").arg(p.threshold.first().value), kFit,
                 Look::Dashed, p.threshold);
    if (!p.amdahl.isEmpty())
        addGraph(plot, QStringLiteral("amdahl"),
                 QObject::tr("Amdahl fit (serial %1 %)").arg(p.serialFraction.value_or(0) * 100.0, 0, 'f', 1), kFit,
                 Look::Line, p.amdahl);
    if (!p.predicted.isEmpty()) {
        QStringList labels;
        for (const ChartPoint &pt : p.predicted)
            labels << QStringLiteral("%1, predicted").arg(gpuLabel(pt.gpus));
        QCPGraph *g = addGraph(plot, QStringLiteral("predicted"), QObject::tr("predicted"), kFit, Look::Points,
                               p.predicted, labels);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kFit, Qt::white, 8));
    }
}

// Runs that did not complete: hollow, in another colour, labelled with their
// state; never part of the measured line or the analysis.
void drawIncomplete(QCustomPlot *plot, const QList<ChartPoint> &points)
{
    if (points.isEmpty())
        return;
    QStringList labels;
    for (const ChartPoint &v : points)
        labels << QObject::tr("run %1 (job %2) ended %3: not measured, left out")
                      .arg(v.runIds.value(0))
                      .arg(v.jobId, v.state);
    QCPGraph *g = addGraph(plot, QStringLiteral("incomplete"), QObject::tr("did not complete (left out)"), kIncomplete,
                           Look::Points, points, labels);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kIncomplete, 1.6), Qt::NoBrush, 9));
    for (const ChartPoint &v : points) {
        auto *t = new QCPItemText(plot);
        t->setClipToAxisRect(false);
        t->position->setAxes(plot->xAxis, plot->yAxis);
        t->position->setCoords(v.gpus, v.value);
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        t->setPadding(QMargins(6, 0, 0, 4));
        t->setText(v.state.section(u' ', 0, 0));   // "CANCELLED by 1001" -> "CANCELLED"
        t->setColor(kIncomplete);
        t->setFont(QFont(plot->font().family(), 7));
        t->setObjectName(QStringLiteral("incompleteLabel"));
    }
}

// Billing × hours on the right axis. Hollow and larger: billing is often
// proportional to GPUs, so both points land on the same spot and the disc must stay visible.
void drawBilling(QCustomPlot *plot, const StudyChartPanel &p)
{
    if (p.billing.isEmpty())
        return;
    plot->yAxis2->setVisible(true);
    plot->yAxis2->setLabel(QObject::tr("billing × hours"));
    QCPGraph *g = drawMeasured(plot, p.chart, QStringLiteral("billing"), QObject::tr("billing × hours"), kSecond,
                               p.billing, plot->yAxis2);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(kSecond, 1.8), Qt::NoBrush, 12));
}

QString valueLabel(const StudyChartPanel &p)
{
    const QString metric = p.metric;
    switch (p.chart) {
    case StudyChart::Runtime:
        return QObject::tr("%1 [s]").arg(metric.isEmpty() ? QStringLiteral("runtime") : metric);
    case StudyChart::Speedup:
        return QObject::tr("speedup vs %1")
            .arg(p.baselineGpus > 0 ? gpuLabel(p.baselineGpus) : QObject::tr("baseline"));
    case StudyChart::Efficiency:
        return QObject::tr("efficiency (speedup / GPUs)");
    case StudyChart::Throughput:
        return QObject::tr("%1 [samples/s]").arg(metric.isEmpty() ? QStringLiteral("throughput") : metric);
    case StudyChart::Accuracy:
        return metric.isEmpty() ? QStringLiteral("accuracy") : metric;
    case StudyChart::Cost:
        return QObject::tr("GPU-hours");
    case StudyChart::Energy:
        return QObject::tr("energy [Wh]");
    }
    return {};
}

QString emptyText(StudyChart chart)
{
    switch (chart) {
    case StudyChart::Runtime:
        return QObject::tr("No runtime stored (train_time_s or elapsed_s)");
    case StudyChart::Speedup:
    case StudyChart::Efficiency:
        return QObject::tr("No completed run (with a runtime or throughput)");
    case StudyChart::Throughput:
        return QObject::tr("No throughput in the job output (samples_per_s or throughput)");
    case StudyChart::Accuracy:
        return QObject::tr("No accuracy in the job output (test_accuracy or val_accuracy)");
    case StudyChart::Cost:
        return QObject::tr("No accounting stored (GPU-hours, billing)");
    case StudyChart::Energy:
        return QObject::tr("No energy stored (sacct ConsumedEnergy or GPU power samples)");
    }
    return {};
}

// X: GPU count on a log-2 axis with a tick at every count used; Y as computed.
void setAxes(QCustomPlot *plot, const StudyChartPanel &p)
{
    plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int c : p.x.ticks)
        ticker->addTick(c, QString::number(c));
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(QObject::tr("GPUs"));
    plot->xAxis->setRange(p.x.lower, p.x.upper);
    plot->yAxis->setLabel(valueLabel(p));
    plot->yAxis->setScaleType(QCPAxis::stLinear);
    plot->yAxis->setRange(p.y.lower, p.y.upper);
    if (p.y2)
        plot->yAxis2->setRange(p.y2->lower, p.y2->upper);
}

// A grey sentence in the middle of the chart; the hint in brackets on its own
// line: charts are narrow in small windows.
void drawEmptyNote(QCustomPlot *plot, StudyChart chart)
{
    auto *t = new QCPItemText(plot);
    t->position->setType(QCPItemPosition::ptAxisRectRatio);
    t->position->setCoords(0.5, 0.5);
    t->setText(emptyText(chart).replace(QStringLiteral(" ("), QStringLiteral("\n(")));
    t->setTextAlignment(Qt::AlignCenter);
    t->setColor(Qt::darkGray);
    t->setObjectName(QStringLiteral("note"));
}

void drawOverlapNote(QCustomPlot *plot)
{
    auto *t = new QCPItemText(plot);
    t->position->setType(QCPItemPosition::ptAxisRectRatio);
    t->position->setCoords(0.02, 0.02);
    t->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    t->setText(QObject::tr("⚠ runs overlapped on shared nodes"));
    t->setColor(kWarn);
    t->setFont(QFont(plot->font().family(), 7));
    t->setObjectName(QStringLiteral("overlapNote"));
}

// The legend sits in a row under the chart, never on top of data: where
// points fall depends on how the job scaled, which is what is unknown.
void placeLegend(QCustomPlot *plot, bool empty)
{
    plot->legend->setVisible(!empty && plot->graphCount() > 1);
    plot->legend->setFont(QFont(plot->font().family(), 8));
    if (plot->legend->layout() == plot->plotLayout())
        return;
    const int row = plot->plotLayout()->rowCount();
    plot->plotLayout()->addElement(row, 0, plot->legend);   // takes it out of the inset layout
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setWrap(2);   // two per row: fit, threshold and predictions fit a narrow chart
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setMargins(QMargins(4, 0, 4, 2));
    plot->plotLayout()->setRowStretchFactor(row, 0.001);
}

}   // namespace

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
    case StudyChart::Energy:
        return QObject::tr("Energy to solution");
    }
    return {};
}

void StudyChartBuilder::build(QCustomPlot *plot, const StudyChartPanel &p)
{
    plot->clearGraphs();
    plot->clearItems();
    plot->clearPlottables();
    plot->yAxis2->setVisible(false);
    plot->setObjectName(id(p.chart));
    drawLines(plot, p);
    const bool cost = p.chart == StudyChart::Cost;
    drawMeasured(plot, p.chart, QStringLiteral("measured"), cost ? QObject::tr("GPU-hours") : QObject::tr("measured"),
                 kMeasured, p.measured);
    drawIncomplete(plot, p.incomplete);
    drawBilling(plot, p);
    setAxes(plot, p);
    if (p.overlapNote)
        drawOverlapNote(plot);
    if (p.empty)
        drawEmptyNote(plot, p.chart);
    placeLegend(plot, p.empty);
}

}   // namespace scalelab
