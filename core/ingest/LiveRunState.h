// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/LiveRunView.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QPair>
#include <QList>
#include <QString>
#include <QVector>

#include <limits>
#include <optional>

namespace scalelab {

// One GPU of a running run, as its live samples show it. Times are the
// samples' own (seconds since the epoch as the tool printed them), so
// durations between samples are exact whatever the zone.
struct LiveGpu {
    QString key;   // "host:index", as GpuSampleParser keys it
    QString host;
    int index = -1;
    QVector<double> times;   // the last LiveRunState::kHistory samples
    QVector<double> util;   // %, NaN when the tool printed none
    double memUsedMiB = std::numeric_limits<double>::quiet_NaN();   // latest
    std::optional<double> memTotalMiB;
};

// A line of the output that names a known failure (NCCL watchdog, out of memory).
struct LiveOutputFinding {
    QString rule;   // the AlertRules id it raises: "nccl-error", "gpu-oom"
    QString line;   // the line, made printable
};

// What the live watch knows of one running run: its GPUs' recent samples,
// when its output last grew, the failure lines in it and the throughput the
// log prints. Fed with the new bytes of each file, in order; a line cut at
// the end of a chunk waits for the rest, so any split of the same bytes
// gives the same state.
class LiveRunState {
public:
    static constexpr int kHistory = 720;   // samples kept per GPU (12 min at 1 s)
    static constexpr int kMaxValues = 4096;   // throughput values kept
    static constexpr int kMaxFindings = 16;

    // New bytes of a GPU sample file (scalelab-gpu-<job>-<host>.csv).
    // `restart`: the bytes start the file again (offset 0 after a shrink).
    // `now` (epoch seconds) times samples the tool printed without a time.
    void addGpuBytes(const QString &fileName, QByteArrayView bytes, double now, bool restart = false);
    // New bytes of the job's output; bytes at all mean it grew at `now`.
    void addOutputBytes(QByteArrayView bytes, double now, bool restart = false);
    // When the watch first saw the run (the output counts as silent from here).
    void setFirstSeen(double now);

    const QList<LiveGpu> &gpus() const { return m_gpus; }
    const LiveGpu *gpu(const QString &key) const;
    double firstSampleTime() const { return m_firstSample; }   // NaN before any sample
    double outputChangedAt() const { return m_outputChanged; }   // NaN when never seen
    const QList<LiveOutputFinding> &findings() const { return m_findings; }
    const QVector<double> &throughput() const { return m_throughput; }
    QString throughputName() const { return m_throughputName; }   // "samples_per_s", ...
    QString throughputUnit() const { return m_throughputUnit; }
    std::optional<double> latestThroughput() const;
    // What Jobs draws: the latest values and the last `recent` samples of each GPU.
    LiveRunView view(qint64 runId, int recent = 24) const;

    // The fixed texts of failure lines, each with the rule it raises.
    static const QList<QPair<QByteArray, QString>> &outputMarkers();

private:
    struct FileCarry {
        QByteArray header;   // the file's first line (nvidia-smi's CSV header), prepended to later chunks
        QByteArray partial;   // a line not ended yet
        bool seen = false;
    };
    void parseGpuLines(const QString &fileName, const QByteArray &lines, double now);
    void addSample(const QString &key, const QString &host, int index, double t, double util, double mem,
                   std::optional<double> total);
    void scanOutputLines(QByteArrayView lines);

    QHash<QString, FileCarry> m_files;
    QByteArray m_outputPartial;
    QList<LiveGpu> m_gpus;
    double m_firstSample = std::numeric_limits<double>::quiet_NaN();
    double m_outputChanged = std::numeric_limits<double>::quiet_NaN();
    QList<LiveOutputFinding> m_findings;
    QVector<double> m_throughput;
    QString m_throughputName;
    QString m_throughputUnit;
};

}   // namespace scalelab
