// SPDX-License-Identifier: GPL-3.0-or-later
// ResultsPlace: store work for the selection and the table on the background pool (scripts
// of the selected runs, "Re-ingest" of the selected runs, patches of the runs that changed).
#include "ui/results/ResultsPlace.h"

#include "core/ingest/IngestService.h"
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/RunInBackground.h"
#include "ui/results/RunsTableModel.h"

#include <QCheckBox>
#include <QComboBox>
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

void ResultsPlace::onRunsChanged(const QList<qint64> &runIds)
{
    const bool oneStudy = m_study->currentData().isValid() && m_study->currentData().toLongLong() > 0;
    // Unknown changes, a study's few runs, or a whole read under way: read everything.
    if (runIds.isEmpty() || oneStudy || m_loading || m_reloadAgain || !m_table.error.isEmpty()) {
        reload();
        return;
    }
    if (m_patching) {
        for (qint64 id : runIds)
            if (!m_patchAgain.contains(id))
                m_patchAgain << id;
        return;
    }
    startPatch(runIds);
}

void ResultsPlace::startPatch(const QList<qint64> &runIds)
{
    m_patching = true;
    const quint64 generation = m_tableGeneration;
    const HiddenRuns hidden = m_showHidden->isChecked() ? HiddenRuns::Include : HiddenRuns::LeaveOut;
    RunStore *store = &m_services.store();
    runInBackground(
        this,
        [store, hidden, runIds] {
            RunMetricsTable patch = RunMetricsTable::load(*store, -1, hidden, runIds);
            store->closeThreadConnection();   // this pool thread may be reused by others
            return patch;
        },
        [this, generation, runIds](const RunMetricsTable &patch) {
            m_patching = false;
            if (generation == m_tableGeneration)   // else a whole reload since has read them too
                applyPatch(patch, runIds);
            if (!m_patchAgain.isEmpty())
                startPatch(std::exchange(m_patchAgain, {}));
            else
                Q_EMIT tableLoaded();
        });
}

void ResultsPlace::applyPatch(const RunMetricsTable &patch, const QList<qint64> &runIds)
{
    if (!patch.error.isEmpty()) {
        m_status->setText(tr("Cannot read the run store: %1").arg(patch.error));
        return;
    }
    bool newMetric = false;
    for (const QString &name : patch.metricNames)
        newMetric = newMetric || !m_table.metricNames.contains(name);
    for (qint64 id : runIds)
        m_scripts.remove(id);   // read again when selected
    const QList<qint64> keep = m_selectionOrder;
    // The model holds the only copy while it changes: no deep copy of 100,000 rows.
    m_table = RunMetricsTable();
    m_model->patchRows(patch, runIds);
    // Until a researcher picks columns, the defaults follow the metrics present.
    if (newMetric && !m_customColumns)
        m_model->setColumns(RunsTableModel::defaultColumns(m_model->table()));
    m_table = m_model->table();
    showStudies(m_table.studies);
    showCounts();
    expandGroups();
    selectRuns(keep);   // a rearranged table lost the selection; the comparison and charts follow the change
}

}   // namespace scalelab
