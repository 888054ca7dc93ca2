// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/UtilisationTimeline.h"
#include "ui/results/AxisLabelFit.h"

#include "core/ingest/IngestService.h"
#include "core/store/RunStore.h"
#include "ui/common/RunInBackground.h"
#include "ui/results/ChartExporter.h"
#include "ui/results/QCustomPlotInclude.h"
#include "ui/results/RunColours.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QTimeZone>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace scalelab {

namespace {

struct LoadJob {
    qint64 runId = 0;
    QString label;
    QStringList files;
    QString logFile;
    RunMetricsRow row;
};

QList<UtilisationTimeline::Entry> loadAll(RunStore *store, QList<LoadJob> jobs)
{
    // The run's file list is read here too: nothing of it on the GUI thread.
    for (LoadJob &j : jobs) {
        const auto files = store->files(j.runId);
        if (files.ok()) {
            j.files = IngestService::gpuSampleFiles(files.value());
            j.logFile = IngestService::logFile(files.value(), j.row.run.jobId);
        }
    }
    store->closeThreadConnection();   // this pool thread may be reused by others
    QList<UtilisationTimeline::Entry> out;
    for (const LoadJob &j : std::as_const(jobs)) {
        UtilisationTimeline::Entry e;
        e.runId = j.runId;
        e.label = j.label;
        if (!j.files.isEmpty()) {
            e.samples = GpuSampleParser::parseFiles(j.files);
        } else {
            const QString marker = IngestService::noSamplesMarker(j.logFile);
            e.samples.noSamplesReason = marker.isEmpty() ? QObject::tr("no GPU sampler file was fetched") : marker;
        }
        e.offsetSeconds = UtilisationTimeline::alignmentOffset(e.samples, j.row);
        UtilisationTimeline::prepare(e);   // the costly part, off the GUI thread
        out << e;
    }
    return out;
}

}   // namespace

UtilisationTimeline::UtilisationTimeline(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *top = new QHBoxLayout;
    m_quantity = new QComboBox(this);
    m_quantity->addItem(tr("GPU utilisation [%]"));
    m_quantity->addItem(tr("GPU memory used [MiB]"));
    connect(m_quantity, &QComboBox::currentIndexChanged, this,
            [this](int i) { setQuantity(i == 1 ? Quantity::Memory : Quantity::Util); });
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("timelineStatus"));
    top->addWidget(m_quantity);
    top->addWidget(m_status, 1);
    layout->addLayout(top);

    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    auto *inner = new QWidget(scroll);
    m_chartsLayout = new QVBoxLayout(inner);
    m_chartsLayout->setContentsMargins(0, 0, 0, 0);
    m_chartsLayout->addStretch(1);
    scroll->setWidget(inner);
    layout->addWidget(scroll, 1);
    rebuild();
}

UtilisationTimeline::~UtilisationTimeline() = default;

double UtilisationTimeline::alignmentOffset(const GpuSampleSummary &samples, const RunMetricsRow &row)
{
    if (!samples.originEpochSeconds || !row.accounting)
        return 0;
    QDateTime start = QDateTime::fromString(row.accounting->start, Qt::ISODate);
    if (!start.isValid())
        return 0;
    start.setTimeZone(QTimeZone::utc());   // both clocks are the cluster's wall clock
    const double offset = *samples.originEpochSeconds - double(start.toSecsSinceEpoch());
    // The sampler starts a few seconds after the job; anything else means the
    // clocks do not match (zone, different host): do not shift.
    return offset >= 0 && offset < 600 ? offset : 0;
}

void UtilisationTimeline::prepare(Entry &e)
{
    if (e.utilLods.size() == e.samples.gpus.size() && e.memLods.size() == e.samples.gpus.size())
        return;
    e.utilLods.clear();
    e.memLods.clear();
    for (const GpuTimeline &g : e.samples.gpus) {
        e.utilLods << TimelineLod(g.seconds, g.utilPercent, e.offsetSeconds);
        e.memLods << TimelineLod(g.seconds, g.memUsedMiB, e.offsetSeconds);
    }
}

void UtilisationTimeline::setRuns(const QList<RunMetricsRow> &rows, RunStore &store)
{
    QList<LoadJob> jobs;
    QByteArray key;
    for (const RunMetricsRow &r : rows)
        key += QByteArray::number(r.run.id) + ':' + r.stateText().toUtf8() + ':' + QByteArray::number(r.metrics.size())
               + ';';
    if (key == m_key && (m_load.isLoading() || !m_entries.isEmpty() || rows.isEmpty()))
        return;   // the same runs as shown (or loading): a reload re-reads no sample file
    m_key = key;
    m_rows = rows;
    m_keepRange.reset();
    for (const RunMetricsRow &r : rows) {
        LoadJob j;
        j.runId = r.run.id;
        j.label = tr("run %1 · job %2 · %3 GPU(s) · %4")
                      .arg(r.run.id)
                      .arg(r.run.jobId.isEmpty() ? QStringLiteral("-") : r.run.jobId)
                      .arg(r.run.gpus)
                      .arg(r.stateText());
        j.row = r;   // files are looked up in the worker
        jobs << j;
    }
    m_status->setText(tr("Reading GPU samples of %n run(s)…", nullptr, int(jobs.size())));
    // A newer selection replaces this one: its samples are never drawn.
    m_load.run(
        this, [store = &store, jobs] { return loadAll(store, jobs); },
        [this](const QList<Entry> &entries) {
            setEntries(entries);
            Q_EMIT loaded();
        });
}

void UtilisationTimeline::refreshRuns(const QList<qint64> &runIds, RunStore &store)
{
    const bool shown = std::any_of(m_rows.cbegin(), m_rows.cend(),
                                   [&runIds](const RunMetricsRow &r) { return runIds.contains(r.run.id); });
    if (!shown)
        return;
    // Kept when the researcher zoomed away from the end (a live chart that
    // showed the end keeps following it).
    std::optional<std::pair<double, double>> keep;
    if (!m_plots.isEmpty() && m_plots.first()->xAxis->range().upper < m_maxT - 0.5)
        keep = std::pair(m_plots.first()->xAxis->range().lower, m_plots.first()->xAxis->range().upper);
    const QList<RunMetricsRow> rows = m_rows;
    m_key.clear();   // the same runs: read their files again
    setRuns(rows, store);
    m_keepRange = keep;
}

void UtilisationTimeline::setEntries(const QList<Entry> &entries)
{
    m_entries = entries;
    for (Entry &e : m_entries)
        prepare(e);   // no-op for entries the loader prepared
    rebuild();
}

void UtilisationTimeline::setQuantity(Quantity q)
{
    m_q = q;
    if (m_quantity->currentIndex() != (q == Quantity::Memory ? 1 : 0))
        m_quantity->setCurrentIndex(q == Quantity::Memory ? 1 : 0);
    rebuild();
}

void UtilisationTimeline::rebuild()
{
    for (QWidget *w : m_rowWidgets)
        w->deleteLater();
    m_rowWidgets.clear();
    m_plots.clear();
    m_lines.clear();
    m_texts.clear();
    m_lods.clear();
    if (!m_load.isLoading())
        m_status->setText(m_entries.isEmpty()
                              ? tr("Select runs in the table to see their GPU timelines.")
                              : tr("Drag or wheel to move/zoom time (all charts follow); hover for values."));
    double maxT = 1;
    int pos = 0;
    for (const Entry &e : m_entries) {
        if (e.samples.noSamples) {
            QLabel *label = noSamplesLabel(e);
            m_chartsLayout->insertWidget(pos++, label);
            m_rowWidgets << label;
            continue;
        }
        QCustomPlot *plot = buildPlot(e, maxT);
        addTracker(plot);
        connectPlot(plot, e);
        m_chartsLayout->insertWidget(pos++, plot);
        m_rowWidgets << plot;
        m_plots << plot;
        m_lods << (m_q == Quantity::Memory ? e.memLods : e.utilLods);
    }
    m_maxT = maxT;
    const auto [lower, upper] = m_keepRange.value_or(std::pair(0.0, maxT));
    const QCPRange range(lower, upper);
    m_keepRange.reset();
    m_syncing = true;
    for (int i = 0; i < m_plots.size(); ++i) {
        m_plots[i]->xAxis->setRange(range);
        refill(i);
        m_plots[i]->replot(QCustomPlot::rpQueuedReplot);
    }
    m_syncing = false;
}

// "run 3: no GPU samples — why".
QLabel *UtilisationTimeline::noSamplesLabel(const Entry &e)
{
    auto *label =
        new QLabel(QStringLiteral("<b>%1</b>: %2 — %3")
                       .arg(e.label.toHtmlEscaped(), tr("no GPU samples"), e.samples.noSamplesReason.toHtmlEscaped()),
                   this);
    label->setObjectName(QStringLiteral("noSamples"));
    label->setStyleSheet(QStringLiteral("color: %1;").arg(RunColours::forRun(e.runId).name()));
    return label;
}

// One run's chart: a graph per GPU, axes, drag and zoom in time; `maxT` grows
// to the run's last sample.
QCustomPlot *UtilisationTimeline::buildPlot(const Entry &e, double &maxT)
{
    auto *plot = new QCustomPlot(this);
    plot->setMinimumHeight(170);
    AxisLabelFit::install(plot);
    plot->setObjectName(QStringLiteral("timeline-run-%1").arg(e.runId));
    plot->plotLayout()->insertRow(0);
    const QColor colour = RunColours::forRun(e.runId);
    auto *title = new QCPTextElement(plot, e.label, QFont(font().family(), 9, QFont::Bold));
    title->setTextColor(colour);
    plot->plotLayout()->addElement(0, 0, title);
    const int n = int(e.samples.gpus.size());
    for (int i = 0; i < n; ++i) {
        const GpuTimeline &g = e.samples.gpus[i];
        QCPGraph *graph = plot->addGraph();
        graph->setName(QStringLiteral("GPU %1").arg(g.key));
        graph->setPen(QPen(RunColours::shade(colour, i, n), 1.2));
        graph->setAdaptiveSampling(true);
        if (!g.seconds.isEmpty())
            maxT = std::max(maxT, g.seconds.last() + e.offsetSeconds);
    }
    plot->xAxis->setLabel(tr("seconds since job start"));
    plot->yAxis->setLabel(m_q == Quantity::Memory ? tr("MiB") : tr("%"));
    double memTop = 0;
    for (const GpuTimeline &g : e.samples.gpus)
        memTop = std::max({memTop, g.memTotalMiB.value_or(0), g.peakMemUsedMiB.value_or(0)});
    plot->yAxis->setRange(0, m_q == Quantity::Memory ? std::max(1.0, memTop * 1.05) : 105);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->axisRect()->setRangeDrag(Qt::Horizontal);
    plot->axisRect()->setRangeZoom(Qt::Horizontal);
    return plot;
}

// The cursor's dashed line and the values box (hidden until the mouse moves).
void UtilisationTimeline::addTracker(QCustomPlot *plot)
{
    auto *line = new QCPItemStraightLine(plot);
    line->setPen(QPen(QColor(60, 60, 60), 1, Qt::DashLine));
    line->point1->setCoords(-1e9, 0);
    line->point2->setCoords(-1e9, 1);
    line->setVisible(false);
    auto *text = new QCPItemText(plot);
    text->position->setType(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(0.99, 0.02);   // top right: runs start at the left
    text->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    text->setTextAlignment(Qt::AlignLeft);
    text->setBrush(QColor(255, 255, 255, 220));
    text->setPen(QPen(QColor(180, 180, 180)));
    text->setPadding(QMargins(4, 2, 4, 2));
    text->setFont(QFont(font().family(), 8));
    text->setVisible(false);
    m_lines << line;
    m_texts << text;
}

void UtilisationTimeline::connectPlot(QCustomPlot *plot, const Entry &e)
{
    connect(plot, &QCustomPlot::mouseMove, this, [this, plot](QMouseEvent *ev) { onMouseMove(plot, ev); });
    connect(plot->xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
            [this, plot](const QCPRange &) { syncRange(plot); });
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot, &QWidget::customContextMenuRequested, this, [this, plot, e](const QPoint &p) {
        auto *menu = new QMenu(plot);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->addAction(tr("Export chart…"), this, [this, plot, e] {
            ChartExporter::askAndSave(plot, this, QStringLiteral("gpu-timeline-run-%1").arg(e.runId));
        });
        menu->popup(plot->mapToGlobal(p));
    });
}

void UtilisationTimeline::refill(int plot)
{
    QCustomPlot *p = m_plots[plot];
    const QCPRange r = p->xAxis->range();
    const int pixels = std::max(p->axisRect()->width(), 1000);
    for (int g = 0; g < p->graphCount() && g < m_lods[plot].size(); ++g)
        p->graph(g)->data()->set(m_lods[plot][g].points(r.lower, r.upper, pixels), true);   // one call, sorted
}

void UtilisationTimeline::syncRange(QCustomPlot *from)
{
    if (m_syncing)
        return;
    m_syncing = true;
    const QCPRange r = from->xAxis->range();
    for (int i = 0; i < m_plots.size(); ++i) {
        if (m_plots[i] != from)
            m_plots[i]->xAxis->setRange(r);
        refill(i);
        m_plots[i]->replot(QCustomPlot::rpQueuedReplot);
    }
    m_syncing = false;
}

void UtilisationTimeline::onMouseMove(QCustomPlot *plot, QMouseEvent *event)
{
    setTrackerX(plot->xAxis->pixelToCoord(event->position().x()));
}

void UtilisationTimeline::setTrackerX(double x)
{
    const QString unit = m_q == Quantity::Memory ? QStringLiteral(" MiB") : QStringLiteral(" %");
    for (int i = 0; i < m_plots.size(); ++i) {
        QCustomPlot *plot = m_plots[i];
        m_lines[i]->point1->setCoords(x, 0);
        m_lines[i]->point2->setCoords(x, 1);
        m_lines[i]->setVisible(true);
        QStringList lines{tr("t = %1 s").arg(x, 0, 'f', 1)};
        for (int g = 0; g < plot->graphCount() && g < m_lods[i].size(); ++g) {
            // Full resolution, not the drawn envelope.
            const double v = m_lods[i][g].valueAt(x);
            lines << (std::isnan(v)
                          ? tr("%1: –").arg(plot->graph(g)->name())
                          : QStringLiteral("%1: %2%3").arg(plot->graph(g)->name()).arg(v, 0, 'f', 0).arg(unit));
        }
        m_texts[i]->setText(lines.join(QLatin1Char('\n')));
        m_texts[i]->setVisible(true);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

QString UtilisationTimeline::trackerText(int plot) const
{
    return plot >= 0 && plot < m_texts.size() ? m_texts[plot]->text() : QString();
}

}   // namespace scalelab
