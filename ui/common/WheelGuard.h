// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class QWidget;

namespace scalelab {

// Spin boxes and combo boxes change their value on a mouse wheel even when
// the pointer merely passes over them while a form scrolls. Guarded widgets
// take the wheel only when focused; otherwise it goes on to the scroll area.
class WheelGuard : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    // Guards every QAbstractSpinBox and QComboBox inside `root` (and root itself).
    static void guardChildren(QWidget *root);
    void guard(QWidget *w);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

}   // namespace scalelab
