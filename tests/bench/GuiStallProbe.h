// SPDX-License-Identifier: GPL-3.0-or-later
// What bench_results and bench_jobs share: the sqlite3 CLI baseline, the
// GUI thread's longest wait and its CPU time.
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QObject>
#include <QProcess>
#include <QString>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <time.h>

namespace benchsupport {

// The best of three runs of `sql` through the sqlite3 CLI on `dbPath`, in
// seconds; -1 when sqlite3 fails.
inline double sqliteCliSeconds(const QString &dbPath, const QString &sql)
{
    double best = 1e30;
    for (int i = 0; i < 3; ++i) {
        QProcess p;
        p.setStandardOutputFile(QProcess::nullDevice());
        QElapsedTimer t;
        t.start();
        p.start(QStringLiteral("sqlite3"), {dbPath, sql});
        p.waitForFinished(-1);
        best = std::min(best, t.nsecsElapsed() / 1e9);
        if (p.exitCode() != 0)
            return -1;
    }
    return best;
}

// How long the GUI thread keeps a posted call waiting, at most. A 1 ms QTimer
// on the GUI thread itself measured something else: outside exec(), Qt's glib
// dispatcher runs timers at idle priority, and it reported seconds of "stall"
// while the thread sat idle in poll() (its CPU time over that span: 20 ms).
class StallProbe {
public:
    explicit StallProbe(QObject *onGuiThread)
        : m_target(onGuiThread)
    {
        m_clock.start();
    }
    void start()
    {
        m_running = true;
        m_thread = std::thread([this] {
            while (m_running) {
                const qint64 posted = m_clock.nsecsElapsed();
                QMetaObject::invokeMethod(
                    m_target, [this, posted] { m_longest = std::max(m_longest, m_clock.nsecsElapsed() - posted); },
                    Qt::QueuedConnection);
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        });
    }
    // The longest wait in ms; runs the calls still queued first.
    double stop()
    {
        m_running = false;
        m_thread.join();
        QCoreApplication::processEvents();
        return m_longest / 1e6;
    }

private:
    QObject *m_target;
    QElapsedTimer m_clock;
    std::atomic<bool> m_running{false};
    std::thread m_thread;
    qint64 m_longest = 0;   // GUI thread only
};

// CPU time of the calling thread in ms: what the GUI thread itself spent,
// whatever the other threads and the rest of the machine were doing.
inline double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

}   // namespace benchsupport
