// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/StudyCharts.h"
#include "ui/results/AxisLabelFit.h"

#include "ui/results/ChartExporter.h"

#include "ui/results/QCustomPlotInclude.h"

#include <QGridLayout>
#include <QLabel>
#include <QMenu>
#include <QToolTip>
#include <QVBoxLayout>

namespace scalelab {

StudyCharts::StudyCharts(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_advice = new QLabel(this);
    m_advice->setObjectName(QStringLiteral("advice"));
    m_advice->setWordWrap(true);
    m_advice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont f = m_advice->font();
    f.setBold(true);
    m_advice->setFont(f);
    m_warnings = new QLabel(this);
    m_warnings->setObjectName(QStringLiteral("adviceWarnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warnings->setStyleSheet(QStringLiteral("color: #8a5a00;"));
    layout->addWidget(m_advice);
    layout->addWidget(m_warnings);

    auto *grid = new QGridLayout;
    grid->setSpacing(4);
    int i = 0;
    for (StudyChart c : StudyChartBuilder::all()) {
        auto *plot = new QCustomPlot(this);
        plot->setObjectName(StudyChartBuilder::id(c));
        AxisLabelFit::install(plot);
        plot->setMinimumSize(260, 190);
        plot->plotLayout()->insertRow(0);
        auto *title = new QCPTextElement(plot, StudyChartBuilder::title(c), QFont(font().family(), 10, QFont::Bold));
        plot->plotLayout()->addElement(0, 0, title);
        plot->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(plot, &QCustomPlot::mouseMove, this, [this, plot](QMouseEvent *e) { showTooltip(plot, e); });
        connect(plot, &QWidget::customContextMenuRequested, this, [this, plot, c](const QPoint &pos) {
            auto *menu = new QMenu(plot);
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->addAction(tr("Export chart…"), this, [this, plot, c] {
                ChartExporter::askAndSave(
                    plot, this,
                    QStringLiteral("%1-%2").arg(m_studyName.isEmpty() ? QStringLiteral("study") : m_studyName,
                                                StudyChartBuilder::id(c)));
            });
            menu->popup(plot->mapToGlobal(pos));
        });
        grid->addWidget(plot, i / 3, i % 3);
        m_plots << plot;
        ++i;
    }
    layout->addLayout(grid, 1);
    setRows({}, {});
}

QCustomPlot *StudyCharts::chart(StudyChart c) const
{
    return m_plots.value(int(StudyChartBuilder::all().indexOf(c)));
}

QString StudyCharts::adviceText() const
{
    return m_data.analysis().summary();
}

QStringList StudyCharts::warningTexts() const
{
    return m_data.analysis().warnings();
}

QByteArray StudyCharts::contentKey(const QList<RunMetricsRow> &rows, const QString &studyName)
{
    // Everything a chart or the header draws from: a reload that changed
    // none of it redraws nothing.
    QByteArray key = studyName.toUtf8();
    for (const RunMetricsRow &r : rows) {
        key += QByteArray::number(r.run.id) + ':' + r.run.jobId.toUtf8() + ':' + r.stateText().toUtf8() + ':'
               + QByteArray::number(r.run.gpus);
        if (r.accounting)
            key += r.accounting->stateText.toUtf8() + r.accounting->exitCode.toUtf8() + r.accounting->start.toUtf8()
                   + r.accounting->end.toUtf8() + r.accounting->nodeList.toUtf8();
        for (auto it = r.metrics.cbegin(); it != r.metrics.cend(); ++it)
            key += it.key().toUtf8() + '=' + QByteArray::number(it->value, 'g', 17) + ';';
        key += '|';
    }
    return key;
}

void StudyCharts::setRows(const QList<RunMetricsRow> &rows, const QString &studyName)
{
    QByteArray key = contentKey(rows, studyName);
    if (m_built && key == m_key)
        return;
    m_key = std::move(key);
    m_built = true;
    ++m_builds;
    m_studyName = studyName;
    m_data = StudyChartData::build(rows, m_threshold);
    const ScalingAnalysis &analysis = m_data.analysis();
    m_advice->setText(m_data.input().runs.isEmpty() ? tr("Select a study with submitted runs to see how it scales.")
                                                    : analysis.summary());
    m_warnings->setText(analysis.warnings().join(QLatin1Char(' ')));
    m_warnings->setVisible(!analysis.warnings().isEmpty());
    const QList<StudyChart> charts = StudyChartBuilder::all();
    for (int i = 0; i < charts.size(); ++i) {
        StudyChartBuilder::build(m_plots[i], m_data.panel(charts[i]));
        m_plots[i]->replot(QCustomPlot::rpQueuedReplot);
    }
}

void StudyCharts::showTooltip(QCustomPlot *plot, QMouseEvent *event)
{
    // The nearest drawn point within 12 px, with its graph and label.
    double best = 12.0 * 12.0;
    QString text;
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph *g = plot->graph(i);
        if (g->scatterStyle().isNone())
            continue;
        const QStringList labels = g->property("pointLabels").toStringList();
        int k = 0;
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it, ++k) {
            const QPointF p = g->coordsToPixels(it->key, it->value);
            const double dx = p.x() - event->position().x(), dy = p.y() - event->position().y();
            if (dx * dx + dy * dy < best) {
                best = dx * dx + dy * dy;
                text =
                    QStringLiteral("%1: %2 GPUs → %3%4")
                        .arg(g->name())
                        .arg(it->key)
                        .arg(QString::number(it->value, 'g', 5))
                        .arg(k < labels.size() && !labels[k].isEmpty() ? QStringLiteral("\n") + labels[k] : QString());
            }
        }
    }
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, plot);
}

}   // namespace scalelab
