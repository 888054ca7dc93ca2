// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/RunsTableLoader.h"

#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"

#include <utility>

namespace scalelab {

RunsTableLoader::RunsTableLoader(AppServices &services, std::function<Query()> query, QObject *parent)
    : QObject(parent)
    , m_services(services)
    , m_query(std::move(query))
{}

RunsTableLoader::~RunsTableLoader()
{
    // The read uses the store, which the window's services own.
    m_loadFuture.waitForFinished();
}

void RunsTableLoader::reload()
{
    if (m_loading) {
        m_reloadAgain = true;
        return;
    }
    const Query query = m_query();
    RunStore *store = &m_services.store();
    ++m_tableGeneration;
    ++m_wholeReads;
    m_loading = true;
    m_loadFuture = runInBackground(
        this,
        [store, query] {
            RunMetricsTable table = RunMetricsTable::load(*store, query.studyFilter, query.hidden);
            store->closeThreadConnection();   // this pool thread may be reused by others
            return table;
        },
        [this](const RunMetricsTable &table) {
            // The future lets go of its copy: a later patch changes the model's
            // table in place instead of copying 100,000 rows on the GUI thread.
            m_loadFuture = {};
            m_loading = false;
            m_lastReadFailed = !table.error.isEmpty();
            Q_EMIT tableRead(table);
            if (std::exchange(m_reloadAgain, false))
                reload();
            else
                Q_EMIT tableLoaded();
        });
}

void RunsTableLoader::onRunsChanged(const QList<qint64> &runIds)
{
    // Unknown changes, a study's few runs, or a whole read under way: read everything.
    if (runIds.isEmpty() || m_query().studyFilter > 0 || m_loading || m_reloadAgain || m_lastReadFailed) {
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

void RunsTableLoader::startPatch(const QList<qint64> &runIds)
{
    m_patching = true;
    const quint64 generation = m_tableGeneration;
    const HiddenRuns hidden = m_query().hidden;
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
            if (generation == m_tableGeneration) {   // else a whole reload since has read them too
                if (patch.error.isEmpty())
                    for (qint64 id : runIds)
                        m_scripts.remove(id);   // read again when selected
                Q_EMIT patchRead(patch, runIds);
            }
            if (!m_patchAgain.isEmpty())
                startPatch(std::exchange(m_patchAgain, {}));
            else
                Q_EMIT tableLoaded();
        });
}

void RunsTableLoader::readScripts(const QList<qint64> &runIds)
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
            Q_EMIT scriptsRead();   // the comparison now diffs the scripts
        });
}

}   // namespace scalelab
