// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/RunMetricsTable.h"
#include "core/model/MetricRecord.h"
#include "ui/common/RunInBackground.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QCustomPlot;
class QLabel;

namespace scalelab {

class RunStore;

// Per-epoch curves of a few runs overlaid: loss and throughput against the
// epoch (or the training time, summed from epoch_time_s), one colour per run
// (RunColours). The series are the ones ingest stored (RunStore::series),
// read on a pool thread.
class EpochCurves : public QWidget {
    Q_OBJECT
public:
    explicit EpochCurves(QWidget *parent = nullptr);

    void setRuns(const QList<RunMetricsRow> &rows, RunStore &store);
    bool isLoading() const { return m_load.isLoading(); }
    QCustomPlot *lossPlot() const { return m_loss; }
    QCustomPlot *throughputPlot() const { return m_throughput; }
    QComboBox *xAxisCombo() const { return m_x; }

    struct RunSeries {
        qint64 runId = 0;
        QString label;
        QList<MetricSeries> series;
    };
    // Which stored series each chart draws, in order of preference.
    static QStringList lossNames();
    static QStringList throughputNames();

Q_SIGNALS:
    void loaded();

private:
    void rebuild();

    QComboBox *m_x = nullptr;
    QLabel *m_status = nullptr;
    QCustomPlot *m_loss = nullptr;
    QCustomPlot *m_throughput = nullptr;
    QList<RunSeries> m_runs;
    QByteArray m_key;
    BackgroundLoader m_load;   // the series of the newest set of runs
};

}   // namespace scalelab
