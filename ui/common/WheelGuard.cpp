// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/WheelGuard.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QWidget>

namespace scalelab {

void WheelGuard::guard(QWidget *w)
{
    // Click or Tab focuses, the wheel alone does not.
    w->setFocusPolicy(Qt::StrongFocus);
    w->installEventFilter(this);
}

void WheelGuard::guardChildren(QWidget *root)
{
    auto *g = new WheelGuard(root);
    for (auto *s : root->findChildren<QAbstractSpinBox *>())
        g->guard(s);
    for (auto *c : root->findChildren<QComboBox *>())
        g->guard(c);
    if (qobject_cast<QAbstractSpinBox *>(root) || qobject_cast<QComboBox *>(root))
        g->guard(root);
}

bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Wheel) {
        auto *w = qobject_cast<QWidget *>(watched);
        if (w && !w->hasFocus()) {
            // Ignored and filtered: Qt hands the wheel on to the parent (the scroll area).
            event->ignore();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

}   // namespace scalelab
