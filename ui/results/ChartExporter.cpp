// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/ChartExporter.h"

#include "core/base/AtomicFile.h"
#include "ui/results/QCustomPlotInclude.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSvgGenerator>

namespace scalelab {

namespace {

QSize sizeOf(QCustomPlot *plot, int width, int height)
{
    return {width > 0 ? width : std::max(plot->width(), 640), height > 0 ? height : std::max(plot->height(), 400)};
}

void reportError(QWidget *parent, const Result<void> &saved)
{
    if (saved)
        return;
    auto *box =
        new QMessageBox(QMessageBox::Warning, QObject::tr("Export failed"), saved.errorText(), QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}   // namespace

Result<void> ChartExporter::savePng(QCustomPlot *plot, const QString &path, int width, int height)
{
    const QSize s = sizeOf(plot, width, height);
    QImage image = plot->toPixmap(s.width(), s.height()).toImage();
    image.setDotsPerMeterX(3780);   // 96 dpi, as QCustomPlot::savePng marks it
    image.setDotsPerMeterY(3780);
    AtomicFile file(path);
    if (auto opened = file.open(); !opened)
        return opened;
    if (image.isNull() || !image.save(file.device(), "PNG"))
        return fail(ErrorCode::LocalFile, QObject::tr("%1: cannot draw the PNG image").arg(path));
    return file.commit();
}

Result<void> ChartExporter::saveSvg(QCustomPlot *plot, const QString &path, int width, int height)
{
    const QSize s = sizeOf(plot, width, height);
    AtomicFile file(path);
    if (auto opened = file.open(); !opened)
        return opened;
    {
        QSvgGenerator gen;
        gen.setOutputDevice(file.device());
        gen.setSize(s);
        gen.setViewBox(QRect(QPoint(0, 0), s));
        gen.setTitle(plot->objectName());
        QCPPainter painter;
        if (!painter.begin(&gen))
            return fail(ErrorCode::LocalFile, QObject::tr("%1: cannot draw the SVG file").arg(path));
        plot->toPainter(&painter, s.width(), s.height());
        painter.end();
    }
    if (file.written() == 0)
        return fail(ErrorCode::LocalFile, QObject::tr("%1: the SVG file is empty").arg(path));
    return file.commit();
}

Result<void> ChartExporter::savePdf(QCustomPlot *plot, const QString &path, int width, int height)
{
    const QSize s = sizeOf(plot, width, height);
    // QCustomPlot prints to a file name only: it prints the temporary.
    return AtomicFile::writeThrough(path, [&](const QString &temp) {
        return plot->savePdf(temp, s.width(), s.height(), QCP::epNoCosmetic, QStringLiteral("ScaleLab"),
                             plot->objectName());
    });
}

Result<void> ChartExporter::save(QCustomPlot *plot, const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return savePng(plot, path);
    if (suffix == QLatin1String("svg"))
        return saveSvg(plot, path);
    if (suffix == QLatin1String("pdf"))
        return savePdf(plot, path);
    return fail(ErrorCode::InvalidValue,
                QObject::tr("%1: unknown image type '%2'; use .png, .svg or .pdf").arg(path, suffix));
}

Result<void> ChartExporter::saveText(const QString &path, const QByteArray &data)
{
    return AtomicFile::write(path, data);
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
