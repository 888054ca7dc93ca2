// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/RunsReingest.h"

#include "core/ingest/IngestService.h"
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/RunInBackground.h"

namespace scalelab {

RunsReingest::RunsReingest(AppServices &services, QObject *parent)
    : QObject(parent)
    , m_services(services)
{}

void RunsReingest::start(const QList<qint64> &runIds)
{
    if (runIds.isEmpty())
        return;
    ++m_running;
    Q_EMIT started(int(runIds.size()));
    RunStore *store = &m_services.store();
    runInBackground(
        this,
        [store, runIds] {
            QStringList errors;
            for (qint64 id : runIds) {
                const IngestResult r = IngestService::ingestRun(*store, id);
                if (!r.error.isEmpty())
                    errors << QStringLiteral("run %1: %2").arg(id).arg(r.error);
            }
            store->closeThreadConnection();   // this pool thread may be reused by others
            return errors;
        },
        [this, runIds](const QStringList &errors) {
            --m_running;
            Q_EMIT m_services.runsChanged(runIds);
            Q_EMIT finished(errors);
        });
}

}   // namespace scalelab
