// SPDX-License-Identifier: GPL-3.0-or-later
// RunStore: a stored run row back into a RunRecord, written once for QSqlQuery
// and for SqliteCursor (RunStoreSql.h), and the stored timestamps.
#include "core/store/RunStoreSql.h"

namespace scalelab {

namespace {

const char *kRunColumns = "id, study_id, token, profile, cluster_alias, partition, gpus, nodes, framework,"
                          " spec_json, script, remote_dir, job_id, state, reason, submit_state, rejection,"
                          " created, updated, slurm_version, spec_file, expected_start";

}   // namespace

const char *RunStoreSql::runColumns()
{
    return kRunColumns;
}

template <class Columns>
RunRecord RunStoreSql::readRun(const Columns &c)
{
    RunRecord r;
    r.id = c.integer(0);
    r.studyId = c.isNull(1) ? 0 : c.integer(1);
    r.token = c.text(2);
    r.profile = c.label(3);
    r.clusterAlias = c.label(4);
    r.partition = c.label(5);
    r.gpus = int(c.integer(6));
    r.nodes = int(c.integer(7));
    r.framework = c.label(8);
    r.specJson = c.utf8(9);
    r.script = c.text(10);
    r.remoteDir = c.text(11);
    r.jobId = c.text(12);
    r.state = SlurmJobState::parse(c.label(13));
    r.reason = c.label(14);
    r.submitState = submitStateFromId(c.label(15)).value_or(SubmitState::Unknown);
    r.rejection = c.label(16);
    r.created = c.time(17);
    r.updated = c.time(18);
    r.slurmVersion = c.label(19);
    r.specFile = c.label(20);
    r.expectedStart = c.label(21);
    static_assert(RunStoreSql::kRunColumnCount == 22, "readRun reads every column of runColumns()");
    return r;
}
template RunRecord RunStoreSql::readRun(const QueryColumns &);
template RunRecord RunStoreSql::readRun(const CursorColumns &);

QDateTime RunStoreSql::fromText(std::string_view s)
{
    // "2026-01-01T00:00:00.000Z": exactly what toText() writes.
    const auto digits = [&s](size_t at, size_t n, int &out) {
        out = 0;
        for (size_t i = at; i < at + n; ++i) {
            if (s[i] < '0' || s[i] > '9')
                return false;
            out = out * 10 + (s[i] - '0');
        }
        return true;
    };
    int y, mo, d, h, mi, sec, ms;
    if (s.size() == 24 && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':' && s[19] == '.'
        && s[23] == 'Z' && digits(0, 4, y) && digits(5, 2, mo) && digits(8, 2, d) && digits(11, 2, h)
        && digits(14, 2, mi) && digits(17, 2, sec) && digits(20, 3, ms)) {
        const QDate date(y, mo, d);
        const QTime time(h, mi, sec, ms);
        if (date.isValid() && time.isValid())
            return QDateTime(date, time, Qt::UTC);
    }
    // Anything else (older rows, edits by hand) through the general parser.
    return QDateTime::fromString(QString::fromUtf8(s.data(), qsizetype(s.size())), Qt::ISODateWithMs).toUTC();
}

}   // namespace scalelab
