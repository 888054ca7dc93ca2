// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/FileRecord.h"
#include "core/model/MetricRecord.h"
#include "core/model/QueueWait.h"
#include "core/model/StateChange.h"
#include "core/slurm/SacctRecord.h"
#include "core/store/RunStoreGroup.h"

#include <QDateTime>
#include <QList>
#include <optional>

namespace scalelab {

// What is learnt about a run after submission (RunStoreRecords.cpp): its
// state history, expected start, accounting, fetched files, metrics read back.
class RunStoreRecords : public RunStoreGroup {
public:
    using RunStoreGroup::RunStoreGroup;

    Result<QList<StateChange>> stateHistory(qint64 runId);
    Result<bool> setExpectedStart(qint64 runId, const QString &start);
    Result<QList<QueueWait>> queueWaits();
    Result<void> recordFinal(qint64 runId, const SacctRecord &acct, const QDateTime &at);
    Result<void> saveAccounting(qint64 runId, const SacctRecord &acct);
    Result<std::optional<SacctRecord>> accounting(qint64 runId);
    Result<void> recordFile(const FileRecord &file);
    Result<QList<FileRecord>> files(qint64 runId);
    Result<std::optional<FileRecord>> file(qint64 runId, const QString &remotePath);
    Result<QList<MetricRecord>> metrics(qint64 runId);

    // The accounting table's columns in the order readAccounting expects
    // (from column `first`); read by RunStoreTable too.
    static const char *accountingColumns();
    template <class Columns>
    static SacctRecord readAccounting(const Columns &c, int first);

private:
    static Result<void> saveAccountingIn(QSqlDatabase &db, qint64 runId, const SacctRecord &acct);
};

}   // namespace scalelab
