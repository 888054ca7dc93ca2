// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/RunMetricsTable.h"
#include "core/base/TextDiff.h"

#include <QList>
#include <QStringList>
#include <QWidget>

class QComboBox;
class QLabel;
class QTableWidget;
class QTextBrowser;

namespace scalelab {

// Two or more runs side by side: every metric and accounting field with the
// difference to the first (base) run, the job script diff and the
// environment diff (modules, variables, container, setup lines from the
// runs' spec JSON) between the base and a chosen other run.
class RunComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit RunComparisonView(QWidget *parent = nullptr);

    void setRows(const QList<RunMetricsRow> &rows);
    int runCount() const { return int(m_rows.size()); }

    QTableWidget *metricsTable() const { return m_table; }
    // Base vs the run chosen in the combo ("  same", "- base", "+ other").
    TextDiffResult scriptDiff() const;
    TextDiffResult environmentDiff() const;
    void setOtherRun(int index);   // index into the rows (1 = second run)

    // "module load X", "export K=V", "container: ...", "setup: ..." lines.
    static QStringList environmentLines(const RunRecord &run);
    static QString delta(double base, double value);   // "+1.5 (+12 %)"

private:
    void refreshDiffs();
    static QString diffHtml(const TextDiffResult &d);

    QList<RunMetricsRow> m_rows;
    QLabel *m_hint = nullptr;
    QTableWidget *m_table = nullptr;
    QComboBox *m_other = nullptr;
    QTextBrowser *m_script = nullptr;
    QTextBrowser *m_env = nullptr;
};

}   // namespace scalelab
