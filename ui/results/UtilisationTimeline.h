// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/GpuSampleParser.h"
#include "core/analysis/RunMetricsTable.h"
#include "ui/common/RunInBackground.h"
#include "ui/results/TimelineLod.h"

#include <QList>
#include <QString>
#include <QWidget>

#include <optional>
#include <utility>

class QComboBox;
class QCPItemStraightLine;
class QCPItemText;
class QCustomPlot;
class QLabel;
class QMouseEvent;
class QVBoxLayout;

namespace scalelab {

class RunStore;

// Per-GPU utilisation (or memory) over time, one chart per run, stacked.
// Time is seconds since the job started (sacct Start when the sampler's
// clock can be matched to it, else the first sample). The charts share one x
// range (drag/zoom one, all follow) and one tracker: a vertical line with the
// values of every GPU at the cursor. Each run keeps its colour (RunColours);
// its GPUs are shades of it. Runs without samples say "no GPU samples".
class UtilisationTimeline : public QWidget {
    Q_OBJECT
public:
    enum class Quantity { Util, Memory };

    struct Entry {
        qint64 runId = 0;
        QString label;   // e.g. "run 3 · job 120 · 4 GPUs"
        GpuSampleSummary samples;
        double offsetSeconds = 0;   // added to the sample times (job start alignment)
        // Level-of-detail pyramids per GPU (utilisation, memory); prepare()
        // builds them, in the loader's worker thread for fetched files.
        QList<TimelineLod> utilLods, memLods;
    };
    static void prepare(Entry &entry);

    explicit UtilisationTimeline(QWidget *parent = nullptr);
    ~UtilisationTimeline() override;

    // Reads the runs' fetched sampler files in the background, then shows them.
    void setRuns(const QList<RunMetricsRow> &rows, RunStore &store);
    // The live watch fetched new samples of `runIds` (issue 28): when one of
    // them is shown, its files are read again in the background and the
    // charts grow. A view that showed the end keeps following it; a range the
    // researcher zoomed into stays where it is.
    void refreshRuns(const QList<qint64> &runIds, RunStore &store);
    // Shows already parsed samples at once.
    void setEntries(const QList<Entry> &entries);
    void setQuantity(Quantity q);

    bool isLoading() const { return m_load.isLoading(); }
    const QList<QCustomPlot *> &plots() const { return m_plots; }
    // Moves the shared tracker to time x (as the mouse does) and returns the
    // text shown in chart `plot`.
    void setTrackerX(double x);
    QString trackerText(int plot) const;

    // The job start alignment: sample origin minus sacct Start (both read as
    // the cluster's local time), when it is plausible; else 0.
    static double alignmentOffset(const GpuSampleSummary &samples, const RunMetricsRow &row);

Q_SIGNALS:
    void loaded();

private:
    void rebuild();
    QLabel *noSamplesLabel(const Entry &e);
    QCustomPlot *buildPlot(const Entry &e, double &maxT);
    void addTracker(QCustomPlot *plot);
    void connectPlot(QCustomPlot *plot, const Entry &e);
    void onMouseMove(QCustomPlot *plot, QMouseEvent *event);
    void syncRange(QCustomPlot *from);
    void refill(int plot);   // the graphs' points for the visible range (level of detail)

    QComboBox *m_quantity = nullptr;
    QLabel *m_status = nullptr;
    QVBoxLayout *m_chartsLayout = nullptr;
    QList<Entry> m_entries;
    QList<QCustomPlot *> m_plots;
    QList<QWidget *> m_rowWidgets;   // plots and "no GPU samples" labels
    QList<QCPItemStraightLine *> m_lines;
    QList<QCPItemText *> m_texts;
    QList<QList<TimelineLod>> m_lods;   // per plot, per GPU graph (full resolution inside)
    Quantity m_q = Quantity::Util;
    BackgroundLoader m_load;   // the samples of the newest selection
    bool m_syncing = false;
    QByteArray m_key;   // the runs shown: setRuns with the same ones does nothing
    QList<RunMetricsRow> m_rows;   // the runs of the newest setRuns
    double m_maxT = 1;   // the end of the longest run shown (seconds)
    std::optional<std::pair<double, double>> m_keepRange;   // a zoomed range the next rebuild keeps
};

}   // namespace scalelab
