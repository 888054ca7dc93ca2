// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/ChartExportDialog.h"

#include "ui/results/ChartExporter.h"
#include "ui/results/QCustomPlotInclude.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

namespace scalelab {

ChartExportDialog::ChartExportDialog(const QList<QPair<QString, QCustomPlot *>> &charts, const QString &baseName,
                                     QWidget *parent)
    : QDialog(parent)
    , m_charts(charts)
    , m_baseName(baseName)
{
    setWindowTitle(tr("Export chart"));
    m_chart = new QComboBox(this);
    m_chart->setObjectName(QStringLiteral("exportChart"));
    for (const auto &c : charts)
        m_chart->addItem(c.first);
    m_format = new QComboBox(this);
    m_format->setObjectName(QStringLiteral("exportFormat"));
    m_format->addItem(tr("PNG image"), QStringLiteral("png"));
    m_format->addItem(tr("SVG drawing (scalable)"), QStringLiteral("svg"));
    m_format->addItem(tr("PDF document (scalable)"), QStringLiteral("pdf"));
    m_width = new QSpinBox(this);
    m_width->setRange(320, 8000);
    m_width->setValue(1600);
    m_width->setSuffix(tr(" px"));
    m_height = new QSpinBox(this);
    m_height->setRange(240, 6000);
    m_height->setValue(1000);
    m_height->setSuffix(tr(" px"));
    m_result = new QLabel(this);
    m_result->setWordWrap(true);
    auto *form = new QFormLayout;
    form->addRow(tr("Chart:"), m_chart);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Width:"), m_width);
    form->addRow(tr("Height:"), m_height);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close, this);
    auto *lay = new QVBoxLayout(this);
    lay->addLayout(form);
    lay->addWidget(m_result);
    lay->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(buttons->button(QDialogButtonBox::Save), &QPushButton::clicked, this, [this] {
        const QString suffix = m_format->currentData().toString();
        QString name = m_chart->currentText().toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
        auto *dlg = new QFileDialog(this, tr("Export chart"), QStringLiteral("%1-%2.%3").arg(m_baseName, name, suffix),
                                    tr("%1 (*.%2)").arg(m_format->currentText(), suffix));
        dlg->setAcceptMode(QFileDialog::AcceptSave);
        dlg->setAttribute(Qt::WA_DeleteOnClose);
        connect(dlg, &QFileDialog::fileSelected, this, [this](const QString &file) { (void)saveTo(file); });
        dlg->open();
    });
}

Result<void> ChartExportDialog::saveTo(const QString &file)
{
    QCustomPlot *plot = m_charts.value(m_chart->currentIndex()).second;
    if (!plot)
        return fail(ErrorCode::InvalidValue, tr("no chart to export"));
    const QString suffix = m_format->currentData().toString();
    QString path = file;
    if (QFileInfo(path).suffix().toLower() != suffix)
        path += QLatin1Char('.') + suffix;
    const int w = m_width->value(), h = m_height->value();
    const Result<void> done = suffix == QLatin1String("svg")   ? ChartExporter::saveSvg(plot, path, w, h)
                              : suffix == QLatin1String("pdf") ? ChartExporter::savePdf(plot, path, w, h)
                                                               : ChartExporter::savePng(plot, path, w, h);
    m_result->setText(done ? tr("Saved %1 (%2 × %3).").arg(path).arg(w).arg(h) : done.errorText());
    if (done)
        Q_EMIT saved(path);
    return done;
}

}   // namespace scalelab
