// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QThreadPool;

namespace scalelab {

// The threads the window's long background work runs on (store reads,
// report printing, freeing large tables), never Qt's global pool.
// Qt's raster paint engine splits large fills across the global pool and
// waits for them on the GUI thread, so a store read of 100,000 runs queued
// there kept a scroll bar from painting for over half a second.
// Use it as QtConcurrent::run(&backgroundPool(), ...). Created on first use,
// owned by the application object (its threads are joined when it goes).
// Called on the GUI thread only.
QThreadPool &backgroundPool();
// Waits for the work queued on it, if it was ever made (nothing to wait for
// otherwise). Called on the GUI thread only.
void waitForBackgroundWork();

}   // namespace scalelab
