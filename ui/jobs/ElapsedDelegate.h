// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStyledItemDelegate>

namespace scalelab {

// Paints the "Elapsed / limit" column of the Jobs table as a progress bar in
// the run's state colour (JobsModel::ProgressRole, StateColourRole), with the
// elapsed text on it. Rows without a limit or not started show text only.
class ElapsedDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

}   // namespace scalelab
