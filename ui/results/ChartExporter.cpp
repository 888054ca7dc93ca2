// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/ChartExporter.h"

#include "ui/results/QCustomPlotInclude.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSaveFile>
#include <QSvgGenerator>

namespace scalelab {

namespace {

QSize sizeOf(QCustomPlot *plot, int width, int height)
{
    return {width > 0 ? width : std::max(plot->width(), 640), height > 0 ? height : std::max(plot->height(), 400)};
}

void reportError(QWidget *parent, const QString &error)
{
    if (error.isEmpty())
        return;
    auto *box = new QMessageBox(QMessageBox::Warning, QObject::tr("Export failed"), error, QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}   // namespace

QString ChartExporter::savePng(QCustomPlot *plot, const QString &path, int width, int height)
{
    const QSize s = sizeOf(plot, width, height);
    if (!plot->savePng(path, s.width(), s.height()))
        return QObject::tr("%1: cannot write the PNG image; check the folder exists and is writable").arg(path);
    return {};
}

QString ChartExporter::saveSvg(QCustomPlot *plot, const QString &path, int width, int height)
{
    const QSize s = sizeOf(plot, width, height);
    QSvgGenerator gen;
    gen.setFileName(path);
    gen.setSize(s);
    gen.setViewBox(QRect(QPoint(0, 0), s));
    gen.setTitle(plot->objectName());
    QCPPainter painter;
    if (!painter.begin(&gen))
        return QObject::tr("%1: cannot write the SVG file; check the folder exists and is writable").arg(path);
    plot->toPainter(&painter, s.width(), s.height());
    painter.end();
    if (QFileInfo(path).size() <= 0)
        return QObject::tr("%1: the SVG file is empty").arg(path);
    return {};
}

QString ChartExporter::savePdf(QCustomPlot *plot, const QString &path, int width, int height)
{
    const QSize s = sizeOf(plot, width, height);
    if (!plot->savePdf(path, s.width(), s.height(), QCP::epNoCosmetic, QStringLiteral("ScaleLab"), plot->objectName()))
        return QObject::tr("%1: cannot write the PDF file; check the folder exists and is writable").arg(path);
    return {};
}

QString ChartExporter::save(QCustomPlot *plot, const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return savePng(plot, path);
    if (suffix == QLatin1String("svg"))
        return saveSvg(plot, path);
    if (suffix == QLatin1String("pdf"))
        return savePdf(plot, path);
    return QObject::tr("%1: unknown image type '%2'; use .png, .svg or .pdf").arg(path, suffix);
}

QString ChartExporter::saveText(const QString &path, const QByteArray &data)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit())
        return QObject::tr("%1: cannot write: %2").arg(path, f.errorString());
    return {};
}

void ChartExporter::askAndSave(QCustomPlot *plot, QWidget *parent, const QString &baseName)
{
    auto *dlg = new QFileDialog(parent, QObject::tr("Export chart"), baseName + QStringLiteral(".png"),
                                QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    dlg->setAcceptMode(QFileDialog::AcceptSave);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dlg, &QFileDialog::fileSelected, parent, [plot, parent, dlg](const QString &file) {
        QString path = file;
        if (QFileInfo(path).suffix().isEmpty()) {
            const QString f = dlg->selectedNameFilter();
            path += f.contains(QLatin1String("svg"))   ? QStringLiteral(".svg")
                    : f.contains(QLatin1String("pdf")) ? QStringLiteral(".pdf")
                                                       : QStringLiteral(".png");
        }
        reportError(parent, save(plot, path));
    });
    dlg->open();
}

void ChartExporter::askAndSaveTable(QWidget *parent, const QString &baseName, const std::function<QByteArray()> &csv,
                                    const std::function<QByteArray()> &json)
{
    auto *dlg = new QFileDialog(parent, QObject::tr("Export table"), baseName + QStringLiteral(".csv"),
                                QObject::tr("CSV table (*.csv);;JSON (*.json)"));
    dlg->setAcceptMode(QFileDialog::AcceptSave);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dlg, &QFileDialog::fileSelected, parent, [parent, dlg, csv, json](const QString &file) {
        QString path = file;
        const bool asJson =
            QFileInfo(path).suffix().toLower() == QLatin1String("json")
            || (QFileInfo(path).suffix().isEmpty() && dlg->selectedNameFilter().contains(QLatin1String("json")));
        if (QFileInfo(path).suffix().isEmpty())
            path += asJson ? QStringLiteral(".json") : QStringLiteral(".csv");
        reportError(parent, saveText(path, asJson ? json() : csv()));
    });
    dlg->open();
}

}   // namespace scalelab
