// SPDX-License-Identifier: GPL-3.0-or-later
// The reference of bench_startup: a bare Qt Widgets window (one label),
// linked against Qt Widgets alone and timed to the same end point as
// scalelab (its first frame painted completely).
#include "ui/common/FirstFrameProbe.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>

int main(int argc, char **argv)
{
    QElapsedTimer clock;
    clock.start();
    QApplication app(argc, argv);
    QLabel window(QStringLiteral("bare"));
    window.resize(1280, 800);
    scalelab::FirstFrameProbe probe(clock);
    window.installEventFilter(&probe);
    window.show();
    return app.exec();
}
