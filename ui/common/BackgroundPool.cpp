// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/BackgroundPool.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThread>
#include <QThreadPool>

namespace scalelab {

namespace {

// A QPointer, not a static object: the pool goes with the application object
// (its destructor waits for running work), and a later application (GUI tests
// create several) gets a new one.
QPointer<QThreadPool> s_pool;

}   // namespace

QThreadPool &backgroundPool()
{
    if (!s_pool) {
        s_pool = new QThreadPool(QCoreApplication::instance());
        s_pool->setObjectName(QStringLiteral("scalelab-background"));
        // At least two: a reload and the freeing of the table it replaces run side by side.
        s_pool->setMaxThreadCount(qMax(2, QThread::idealThreadCount()));
    }
    return *s_pool;
}

void waitForBackgroundWork()
{
    if (s_pool)
        s_pool->waitForDone();
}

}   // namespace scalelab
