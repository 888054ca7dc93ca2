// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/AxisLabelFit.h"

#include "ui/results/QCustomPlotInclude.h"

#include <QFontMetrics>
#include <QRegularExpression>

namespace scalelab {

namespace {

constexpr char kFull[] = "fullLabel";
constexpr char kShown[] = "shownLabel";
constexpr char kRoom[] = "labelRoom";

void fitAxis(QCPAxis *axis)
{
    const QString current = axis->label();
    QString full = axis->property(kFull).toString();
    // A label set since the last fit (the chart was rebuilt) is the new full one.
    if (full.isEmpty() || current != axis->property(kShown).toString())
        full = current;
    if (full.isEmpty())
        return;
    const QRect rect = axis->axisRect()->rect();
    const bool vertical = axis->orientation() == Qt::Vertical;
    const int room = (vertical ? rect.height() : rect.width()) - 4;
    // Every replot lays out again; text is measured (shaped) only when the
    // label or the room changed since the last fit.
    if (current == axis->property(kShown).toString() && full == axis->property(kFull).toString()
        && room == axis->property(kRoom).toInt())
        return;
    const QString shown = AxisLabelFit::fitted(full, QFontMetrics(axis->labelFont()), room);
    axis->setProperty(kFull, full);
    axis->setProperty(kShown, shown);
    axis->setProperty(kRoom, room);
    if (shown != current)
        axis->setLabel(shown);
}

}   // namespace

QString AxisLabelFit::fitted(const QString &full, const QFontMetrics &metrics, int room)
{
    auto fits = [&](const QString &s) { return metrics.horizontalAdvance(s) <= room; };
    // A plot not laid out yet (hidden, zero-sized) has no room to speak of:
    // the label stays as set until a real layout measures it.
    if (fits(full) || room < 2 * metrics.height())
        return full;
    // "efficiency (speedup / GPUs)" -> "efficiency"; "samples_per_s [samples/s]" -> "samples_per_s".
    static const QRegularExpression bracketed(QStringLiteral("\\s*(\\[[^\\]]*\\]|\\([^)]*\\))"));
    const QString bare = QString(full).remove(bracketed).simplified();
    if (!bare.isEmpty() && fits(bare))
        return bare;
    // The unit alone says more than a cut name: "samples/s".
    static const QRegularExpression unit(QStringLiteral("\\[([^\\]]+)\\]"));
    const QString unitOnly = unit.match(full).captured(1).simplified();
    if (!unitOnly.isEmpty() && fits(unitOnly))
        return unitOnly;
    return metrics.elidedText(bare.isEmpty() ? full : bare, Qt::ElideRight, std::max(room, 0));
}

void AxisLabelFit::install(QCustomPlot *plot)
{
    QObject::connect(plot, &QCustomPlot::afterLayout, plot, [plot] {
        for (QCPAxisRect *rect : plot->axisRects())
            for (QCPAxis *axis : rect->axes())
                if (axis->visible())
                    fitAxis(axis);
    });
}

}   // namespace scalelab
