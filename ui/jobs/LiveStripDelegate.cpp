// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/LiveStripDelegate.h"

#include "ui/jobs/JobsModel.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace scalelab {

namespace {

QColor useColour(double percent)
{
    if (std::isnan(percent) || percent < 5)
        return QColor(0xc0, 0x39, 0x2b);   // idle: the colour of an alert
    return percent < 50 ? QColor(0xe6, 0x9f, 0x00) : QColor(0x2e, 0x8b, 0x57);
}

void drawGpu(QPainter *p, const QRect &box, const LiveGpuView &g)
{
    const QRect strip(box.left(), box.top(), LiveStripDelegate::kStripWidth, box.height());
    p->setPen(Qt::NoPen);
    p->setBrush(QColor(0x80, 0x80, 0x80, 40));
    p->drawRect(strip);
    const int n = int(g.recentUtil.size());
    const double w = double(strip.width()) / std::max(n, 1);
    for (int i = 0; i < n; ++i) {
        const double u = std::isnan(g.recentUtil[i]) ? 0 : std::clamp(g.recentUtil[i], 0.0, 100.0);
        const double h = std::max(1.0, strip.height() * u / 100.0);
        p->setBrush(useColour(g.recentUtil[i]));
        p->drawRect(QRectF(strip.left() + i * w, strip.bottom() + 1 - h, std::max(1.0, w - 0.5), h));
    }
    const QRect mem(strip.right() + 2, box.top(), LiveStripDelegate::kMemoryWidth, box.height());
    p->setBrush(QColor(0x80, 0x80, 0x80, 40));
    p->drawRect(mem);
    if (g.memTotalMiB && *g.memTotalMiB > 0 && !std::isnan(g.memUsedMiB)) {
        const double h = mem.height() * std::clamp(g.memUsedMiB / *g.memTotalMiB, 0.0, 1.0);
        p->setBrush(QColor(0x34, 0x65, 0xa4));
        p->drawRect(QRectF(mem.left(), mem.bottom() + 1 - h, mem.width(), h));
    }
}

}   // namespace

LiveStripDelegate::LiveStripDelegate(const JobsModel *model, QObject *parent)
    : QStyledItemDelegate(parent)
    , m_model(model)
{}

void LiveStripDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const LiveRunView *v = m_model->liveView(index.data(JobsModel::RunIdRole).toLongLong());
    if (!v || v->gpus.isEmpty() || !index.data(JobsModel::ActiveRole).toBool()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem bg(option);
    initStyleOption(&bg, index);
    bg.text.clear();
    const QWidget *w = option.widget;
    QStyle *style = w ? w->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &bg, painter, w);
    painter->save();
    const QRect cell = option.rect.adjusted(3, 3, -3, -3);
    int x = cell.left();
    for (const LiveGpuView &g : v->gpus) {
        if (x + kStripWidth + kMemoryWidth + 2 > cell.right())
            break;   // more GPUs than fit: the tooltip lists them all
        drawGpu(painter, QRect(x, cell.top(), kStripWidth + kMemoryWidth + 2, cell.height()), g);
        x += kStripWidth + kMemoryWidth + 6;
    }
    const bool selected = option.state & QStyle::State_Selected;
    painter->setPen(selected ? option.palette.highlightedText().color() : option.palette.text().color());
    painter->drawText(QRect(x + 2, cell.top(), std::max(0, cell.right() - x - 2), cell.height()),
                      Qt::AlignLeft | Qt::AlignVCenter, index.data(Qt::DisplayRole).toString());
    painter->restore();
}

QSize LiveStripDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setHeight(std::max(s.height(), 24));   // room for a strip a glance can read
    if (const LiveRunView *v = m_model->liveView(index.data(JobsModel::RunIdRole).toLongLong()))
        s.setWidth(s.width() + int(v->gpus.size()) * (kStripWidth + kMemoryWidth + 6));
    return s;
}

}   // namespace scalelab
