// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStyledItemDelegate>

namespace scalelab {

class JobsModel;

// Paints the "GPU use (live)" column of a running run: per GPU a strip of its
// recent use (one bar per sample, height = %), its memory in use as a slim
// bar beside it, then the throughput text (JobsRowText::throughput). The
// numbers are the live watch's (JobsModel::liveView); this only draws.
class LiveStripDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    LiveStripDelegate(const JobsModel *model, QObject *parent = nullptr);
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    static constexpr int kStripWidth = 30;   // one GPU's use strip
    static constexpr int kMemoryWidth = 4;   // its memory bar

private:
    const JobsModel *m_model;
};

}   // namespace scalelab
