// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QObject>
#include <QStringList>

namespace scalelab {

class AppServices;

// Results' "Re-ingest": reads the given runs' accounting, GPU samples and
// output again on backgroundPool(), then names them in
// AppServices::runsChanged. Several may run at once.
class RunsReingest : public QObject {
    Q_OBJECT
public:
    RunsReingest(AppServices &services, QObject *parent);

    void start(const QList<qint64> &runIds);
    bool isRunning() const { return m_running > 0; }

Q_SIGNALS:
    void started(int runs);
    void finished(const QStringList &errors);   // one line per run that failed

private:
    AppServices &m_services;
    int m_running = 0;
};

}   // namespace scalelab
