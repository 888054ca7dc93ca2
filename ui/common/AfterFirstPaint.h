// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QEvent>
#include <QObject>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <utility>

namespace scalelab {

// Runs a function once, after the next paint of a widget has finished: the
// way start-up work (the run store, icons, the cluster layer) waits until the
// researcher sees the form. Deletes itself.
class AfterFirstPaint : public QObject {
public:
    AfterFirstPaint(QWidget *watched, std::function<void()> then)
        : QObject(watched)
        , m_then(std::move(then))
    {
        watched->installEventFilter(this);
        // A widget that has painted already paints once more, so the
        // function never waits for a paint that is not coming.
        watched->update();
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && m_then) {
            watched->removeEventFilter(this);
            // Queued twice: the whole paint pass this event starts finishes
            // first, and so does whatever that pass queued (FirstFrameProbe's
            // measurement included), so start-up work never counts as paint.
            QTimer::singleShot(0, watched,
                               [watched, then = std::exchange(m_then, {})] { QTimer::singleShot(0, watched, then); });
            deleteLater();
        }
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> m_then;
};

}   // namespace scalelab
