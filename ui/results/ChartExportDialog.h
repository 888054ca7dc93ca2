// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QDialog>
#include <QList>
#include <QPair>

class QComboBox;
class QCustomPlot;
class QLabel;
class QSpinBox;

namespace scalelab {

// Saves one of the place's charts as PNG (at a chosen pixel size), SVG or PDF,
// legend included. Non-modal; the file is chosen with a save dialog.
class ChartExportDialog : public QDialog {
    Q_OBJECT
public:
    ChartExportDialog(const QList<QPair<QString, QCustomPlot *>> &charts, const QString &baseName,
                      QWidget *parent = nullptr);

    QComboBox *chartCombo() const { return m_chart; }
    QComboBox *formatCombo() const { return m_format; }
    QSpinBox *widthBox() const { return m_width; }
    QSpinBox *heightBox() const { return m_height; }
    // Saves the chosen chart to `path` (suffix added from the format); a failure names the file.
    Result<void> saveTo(const QString &path);

Q_SIGNALS:
    void saved(const QString &path);

private:
    QList<QPair<QString, QCustomPlot *>> m_charts;
    QString m_baseName;
    QComboBox *m_chart = nullptr;
    QComboBox *m_format = nullptr;
    QSpinBox *m_width = nullptr;
    QSpinBox *m_height = nullptr;
    QLabel *m_result = nullptr;
};

}   // namespace scalelab
