// SPDX-License-Identifier: GPL-3.0-or-later
// RunStoreStudies: the studies table.
#include "core/store/RunStoreStudies.h"

#include "core/store/RunStoreSql.h"

namespace scalelab {

Result<qint64> RunStoreStudies::createStudy(const StudyRecord &study)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    return insertStudyIn(db, study);
}

Result<qint64> RunStoreStudies::insertStudyIn(QSqlDatabase &db, const StudyRecord &study)
{
    if (study.name.trimmed().isEmpty())
        return fail(ErrorCode::InvalidValue, QStringLiteral("run store: a study needs a name"));
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(
            q, QStringLiteral("INSERT INTO studies (name, created, spec_template, notes) VALUES (?, ?, ?, ?)"),
            {study.name, RunStoreSql::toText(study.created), QString::fromUtf8(study.specTemplateJson), study.notes});
        !e)
        return fail(e.error());
    return q.lastInsertId().toLongLong();
}

Result<StudyRecord> RunStoreStudies::study(qint64 id)
{
    auto all = studies();
    if (!all.ok())
        return fail(all.error());
    for (const auto &s : *all)
        if (s.id == id)
            return s;
    return fail(ErrorCode::NotFound, QStringLiteral("run store: no study with id %1").arg(id));
}

Result<QList<StudyRecord>> RunStoreStudies::studies()
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(
            q, QStringLiteral("SELECT id, name, created, spec_template, notes FROM studies ORDER BY id"));
        !e)
        return fail(e.error());
    QList<StudyRecord> out;
    while (q.next())
        out << StudyRecord{q.value(0).toLongLong(), q.value(1).toString(), RunStoreSql::fromText(q.value(2)),
                           q.value(3).toString().toUtf8(), q.value(4).toString()};
    return out;
}

Result<void> RunStoreStudies::setStudyNotes(qint64 id, const QString &notes)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("UPDATE studies SET notes = ? WHERE id = ?"), {notes, id}); !e)
        return fail(e.error());
    return RunStoreSql::oneRowChanged(q, QStringLiteral("study"), id);
}

}   // namespace scalelab
