// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/BackgroundPool.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThread>
#include <QThreadPool>

namespace scalelab {

QThreadPool &backgroundPool()
{
    // A QPointer, not a static object: the pool goes with the application
    // object (its destructor waits for running work), and a later
    // application (GUI tests create several) gets a new one.
    static QPointer<QThreadPool> pool;
    if (!pool) {
        pool = new QThreadPool(QCoreApplication::instance());
        pool->setObjectName(QStringLiteral("scalelab-background"));
        // At least two: a reload and the freeing of the table it replaces run side by side.
        pool->setMaxThreadCount(qMax(2, QThread::idealThreadCount()));
    }
    return *pool;
}

}   // namespace scalelab
