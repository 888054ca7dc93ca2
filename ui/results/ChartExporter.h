// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QString>

#include <functional>

class QCustomPlot;
class QWidget;

namespace scalelab {

// Saves charts and tables. A failure names the file.
class ChartExporter {
public:
    static Result<void> savePng(QCustomPlot *plot, const QString &path, int width = 0, int height = 0);
    static Result<void> saveSvg(QCustomPlot *plot, const QString &path, int width = 0, int height = 0);
    static Result<void> savePdf(QCustomPlot *plot, const QString &path, int width = 0, int height = 0);
    // By the file's suffix: .png, .svg or .pdf.
    static Result<void> save(QCustomPlot *plot, const QString &path);
    static Result<void> saveText(const QString &path, const QByteArray &data);

    // Opens a non-modal save dialog for the chart (PNG/SVG/PDF) and reports
    // an error in a message box; returns at once.
    static void askAndSave(QCustomPlot *plot, QWidget *parent, const QString &baseName);
    // The same for a table: CSV or JSON produced by the callbacks.
    static void askAndSaveTable(QWidget *parent, const QString &baseName, const std::function<QByteArray()> &csv,
                                const std::function<QByteArray()> &json);
};

}   // namespace scalelab
