// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/EpochCurves.h"
#include "ui/results/AxisLabelFit.h"

#include "core/analysis/MetricGlossary.h"
#include "core/store/RunStore.h"
#include "ui/common/RunInBackground.h"
#include "ui/results/QCustomPlotInclude.h"
#include "ui/results/RunColours.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace scalelab {

namespace {

const MetricSeries *findSeries(const EpochCurves::RunSeries &r, const QStringList &names)
{
    for (const QString &n : names)
        for (const MetricSeries &s : r.series)
            if (s.name == n && !s.values.isEmpty())
                return &s;
    return nullptr;
}

QCustomPlot *newPlot(QWidget *parent, const QString &name, const QString &title)
{
    auto *plot = new QCustomPlot(parent);
    plot->setObjectName(name);
    AxisLabelFit::install(plot);
    plot->setMinimumSize(260, 190);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0,
                                   new QCPTextElement(plot, title, QFont(parent->font().family(), 10, QFont::Bold)));
    plot->legend->setVisible(true);
    plot->legend->setFont(QFont(parent->font().family(), 8));
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    return plot;
}

}   // namespace

QStringList EpochCurves::lossNames()
{
    return {QStringLiteral("train_loss"), QStringLiteral("loss"), QStringLiteral("eval_loss"),
            QStringLiteral("val_loss")};
}

QStringList EpochCurves::throughputNames()
{
    return {QStringLiteral("throughput"), QStringLiteral("samples_per_s"), QStringLiteral("throughput_per_gpu"),
            QStringLiteral("it_per_s")};
}

EpochCurves::EpochCurves(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    m_x = new QComboBox(this);
    m_x->setObjectName(QStringLiteral("epochXAxis"));
    m_x->addItems({tr("against the epoch"), tr("against training time (sum of epoch_time_s)")});
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("epochStatus"));
    m_status->setWordWrap(true);
    bar->addWidget(new QLabel(tr("Curves:"), this));
    bar->addWidget(m_x);
    bar->addWidget(m_status, 1);
    layout->addLayout(bar);
    auto *plots = new QHBoxLayout;
    m_loss = newPlot(this, QStringLiteral("epochLoss"), tr("Loss per epoch"));
    m_throughput = newPlot(this, QStringLiteral("epochThroughput"), tr("Throughput per epoch"));
    plots->addWidget(m_loss);
    plots->addWidget(m_throughput);
    layout->addLayout(plots, 1);
    connect(m_x, &QComboBox::currentIndexChanged, this, &EpochCurves::rebuild);
    rebuild();
}

void EpochCurves::setRuns(const QList<RunMetricsRow> &rows, RunStore &store)
{
    QByteArray key;
    QList<RunSeries> want;
    for (const RunMetricsRow &r : rows) {
        key += QByteArray::number(r.run.id) + ':' + r.stateText().toUtf8() + ':' + QByteArray::number(r.metrics.size())
               + ';';
        want.append({r.run.id,
                     tr("run %1 · %2 GPU(s)%3")
                         .arg(r.run.id)
                         .arg(r.run.gpus)
                         .arg(r.run.jobId.isEmpty() ? QString() : tr(" · job %1").arg(r.run.jobId)),
                     {}});
    }
    if (key == m_key)
        return;   // the same runs as drawn (or being read): a reload changes nothing here
    m_key = key;
    m_status->setText(tr("Reading the per-epoch values of %n run(s)…", nullptr, int(want.size())));
    RunStore *s = &store;
    // A newer set of runs replaces this one: its curves are never drawn.
    m_load.run(
        this,
        [s, want]() mutable {
            for (RunSeries &r : want)
                if (const auto got = s->series(r.runId); got.ok())
                    r.series = got.value();
            s->closeThreadConnection();   // this pool thread may be reused by others
            return want;
        },
        [this](QList<RunSeries> runs) {
            m_runs = std::move(runs);
            rebuild();
            Q_EMIT loaded();
        });
}

void EpochCurves::rebuild()
{
    const bool byTime = m_x->currentIndex() == 1;
    int drawn = 0, noTime = 0;
    QString lossName, tputName;
    for (QCustomPlot *plot : {m_loss, m_throughput}) {
        plot->clearGraphs();
        const bool loss = plot == m_loss;
        for (const RunSeries &r : std::as_const(m_runs)) {
            const MetricSeries *s = findSeries(r, loss ? lossNames() : throughputNames());
            if (!s)
                continue;
            (loss ? lossName : tputName) = s->name;
            const MetricSeries *times = byTime ? findSeries(r, {QStringLiteral("epoch_time_s")}) : nullptr;
            if (byTime && !times) {
                ++noTime;
                continue;
            }
            QVector<double> xs, ys;
            double t = 0;
            for (qsizetype i = 0; i < s->values.size(); ++i) {
                double x = i < s->steps.size() && !std::isnan(s->steps[i]) ? s->steps[i] : double(i + 1);
                if (byTime) {
                    if (i >= times->values.size())
                        break;
                    t += times->values[i];
                    x = t;
                }
                xs << x;
                ys << s->values[i];
            }
            QCPGraph *g = plot->addGraph();
            g->setName(r.label);
            g->setObjectName(QStringLiteral("run-%1").arg(r.runId));
            g->setPen(QPen(RunColours::forRun(r.runId), 1.8));
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
            g->setData(xs, ys);
            ++drawn;
        }
        plot->xAxis->setLabel(byTime ? tr("training time [s]") : tr("epoch"));
        const QString name = loss ? lossName : tputName;
        plot->yAxis->setLabel(name.isEmpty() ? (loss ? tr("loss") : tr("samples/s")) : name);
        plot->yAxis->setObjectName(name);
        plot->rescaleAxes();
        if (!loss)
            plot->yAxis->setRangeLower(0);   // throughput reads honestly from zero
        plot->legend->setVisible(plot->graphCount() > 0);
        plot->replot(QCustomPlot::rpQueuedReplot);
        // Where the numbers come from, for the researcher who hovers the chart.
        plot->setToolTip(name.isEmpty() ? QString() : metricDescription(name));
    }
    if (m_load.isLoading())
        return;
    if (m_runs.isEmpty())
        m_status->setText(tr("Select runs (or a study) to see their per-epoch curves."));
    else if (drawn == 0)
        m_status->setText(tr("No per-epoch values stored for these runs: the job output printed each metric once "
                             "(or not at all)."));
    else
        m_status->setText(
            noTime ? tr("%n run(s) printed no epoch_time_s and are left out of the time axis.", nullptr, noTime)
                   : tr("Each line is one run's values as its job output printed them per epoch."));
}

}   // namespace scalelab
