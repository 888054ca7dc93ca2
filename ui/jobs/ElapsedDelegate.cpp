// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/ElapsedDelegate.h"

#include "ui/jobs/JobsModel.h"

#include <QApplication>
#include <QPainter>

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

    const QRect r = option.rect.adjusted(3, 3, -3, -3);
    QColor colour = index.data(JobsModel::StateColourRole).value<QColor>();
    if (!colour.isValid())
        colour = option.palette.highlight().color();
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(colour.darker(120));
    painter->setBrush(option.palette.base());
    painter->drawRoundedRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
    QRectF filled = QRectF(r).adjusted(1, 1, -1, -1);
    filled.setWidth(filled.width() * progress);
    QColor fill = colour;
    fill.setAlpha(progress >= 1.0 ? 150 : 110);
    painter->setPen(Qt::NoPen);
    painter->setBrush(fill);
    painter->drawRoundedRect(filled, 2, 2);
    painter->setPen(option.palette.text().color());
    painter->drawText(r, Qt::AlignCenter, index.data(Qt::DisplayRole).toString());
    painter->restore();
}

QSize ElapsedDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setWidth(std::max(s.width() + 16, 150));
    return s;
}

} // namespace scalelab
