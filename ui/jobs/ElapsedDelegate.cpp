// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/ElapsedDelegate.h"

#include "ui/jobs/JobsModel.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>

namespace scalelab {

void ElapsedDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const double progress = index.data(JobsModel::ProgressRole).toDouble();
    if (progress < 0 || index.data(JobsModel::IsStudyRole).toBool()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    // Selection background first, then a slim bar of our own: native
    // progress bar styles ignore the colour we want to show.
    QStyleOptionViewItem bg(option);
    initStyleOption(&bg, index);
    bg.text.clear();
    const QWidget *w = option.widget;
    QStyle *style = w ? w->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &bg, painter, w);

    // The text keeps the cell; the bar is a strip under it, so no outline
    // ever crosses the digits (it read as struck through).
    const QRect cell = option.rect.adjusted(3, 1, -3, -1);
    const int barHeight = std::clamp(cell.height() / 5, 3, 5);
    const QRect bar(cell.left(), cell.bottom() - barHeight + 1, cell.width(), barHeight);
    const QRect textRect(cell.left(), cell.top(), cell.width(), cell.height() - barHeight - 1);
    QColor colour = index.data(JobsModel::StateColourRole).value<QColor>();
    if (!colour.isValid())
        colour = option.palette.highlight().color();
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QColor track = colour;
    track.setAlpha(45);
    painter->setPen(Qt::NoPen);
    painter->setBrush(track);
    painter->drawRoundedRect(QRectF(bar), 1.5, 1.5);
    QRectF filled(bar);
    filled.setWidth(filled.width() * progress);
    QColor fill = colour;
    fill.setAlpha(progress >= 1.0 ? 220 : 170);
    painter->setBrush(fill);
    painter->drawRoundedRect(filled, 1.5, 1.5);
    const bool selected = option.state & QStyle::State_Selected;
    painter->setPen(selected ? option.palette.highlightedText().color() : option.palette.text().color());
    painter->drawText(textRect, Qt::AlignCenter, index.data(Qt::DisplayRole).toString());
    painter->restore();
}

QSize ElapsedDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setWidth(std::max(s.width() + 16, 150));
    return s;
}

}   // namespace scalelab
