// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <functional>

class QCustomPlot;
class QWidget;

namespace scalelab {

// Saves charts and tables. Each call returns "" or an error naming the file.
class ChartExporter {
public:
    static QString savePng(QCustomPlot *plot, const QString &path, int width = 0, int height = 0);
    static QString saveSvg(QCustomPlot *plot, const QString &path, int width = 0, int height = 0);
    static QString savePdf(QCustomPlot *plot, const QString &path, int width = 0, int height = 0);
    // By the file's suffix: .png, .svg or .pdf.
    static QString save(QCustomPlot *plot, const QString &path);
    static QString saveText(const QString &path, const QByteArray &data);

    // Opens a non-modal save dialog for the chart (PNG/SVG/PDF) and reports
    // an error in a message box; returns at once.
    static void askAndSave(QCustomPlot *plot, QWidget *parent, const QString &baseName);
    // The same for a table: CSV or JSON produced by the callbacks.
    static void askAndSaveTable(QWidget *parent, const QString &baseName, const std::function<QByteArray()> &csv,
                                const std::function<QByteArray()> &json);
};

}   // namespace scalelab
