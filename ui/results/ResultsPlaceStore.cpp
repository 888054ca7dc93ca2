// SPDX-License-Identifier: GPL-3.0-or-later
// ResultsPlace: store work for the selection and the table on the background pool (scripts
// of the selected runs, "Re-ingest" of the selected runs).
#include "ui/results/ResultsPlace.h"

#include "core/ingest/IngestService.h"
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/RunInBackground.h"

#include <QLabel>
#include <QPushButton>

namespace scalelab {

void ResultsPlace::loadScripts(const QList<qint64> &runIds)
{
    RunStore *store = &m_services.store();
    m_scriptLoad.run(
        this,
        [store, runIds] {
            QHash<qint64, QString> out;
            for (qint64 id : runIds) {   // a run that cannot be read stays without a script (no retry loop)
                const auto full = store->run(id);
                out.insert(id, full.ok() ? full.value().script : QString());
            }
            store->closeThreadConnection();   // this pool thread may be reused by others
            return out;
        },
        [this](const QHash<qint64, QString> &got) {
            for (auto it = got.cbegin(); it != got.cend(); ++it)
                m_scripts.insert(it.key(), it.value());
            onSelectionChanged();   // the comparison now diffs the scripts
        });
}

void ResultsPlace::reingest(const QList<qint64> &runIds)
{
    if (runIds.isEmpty())
        return;
    ++m_ingesting;
    m_reingest->setEnabled(false);
    m_status->setText(tr("Reading accounting, GPU samples and output of %n run(s)…", nullptr, int(runIds.size())));
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
            --m_ingesting;
            m_reingest->setEnabled(m_ingesting == 0);
            Q_EMIT m_services.runsChanged(runIds);
            if (!errors.isEmpty())
                m_status->setText(tr("Ingest problems: %1").arg(errors.join(QStringLiteral("; "))));
            Q_EMIT ingestFinished(errors);
        });
}

}   // namespace scalelab
