// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QObject>
#include <QTimer>

#include <cstdio>

namespace scalelab {

// The startup benchmark's end point, the same for scalelab and for the bare
// window it is compared with: the first frame of the watched widget has been
// painted completely (children and text included). Prints "shown-ms <N>"
// and quits. Header-only so the bare window links Qt Widgets alone.
class FirstFrameProbe : public QObject {
public:
    explicit FirstFrameProbe(const QElapsedTimer &clock, QObject *parent = nullptr)
        : QObject(parent)
        , m_clock(clock)
    {}

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (!m_seen && event->type() == QEvent::Paint) {
            m_seen = true;
            // Runs once the whole paint pass this event starts has finished.
            QTimer::singleShot(0, this, [this] {
                std::printf("shown-ms %lld\n", static_cast<long long>(m_clock.elapsed()));
                std::fflush(stdout);
                QCoreApplication::quit();
            });
        }
        return QObject::eventFilter(watched, event);
    }

private:
    const QElapsedTimer &m_clock;
    bool m_seen = false;
};

}   // namespace scalelab
