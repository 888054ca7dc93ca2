// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/MetricFileData.h"

#include <QByteArray>

namespace scalelab {

// A W&B run folder (wandb/offline-run-<time>-<id>/ or run-…/), from the
// files the SDK writes under files/ (wandb/sdk/lib/filenames.py):
// wandb-summary.json, one JSON object of the run's last (or summary) values,
// written by the SDK's sender on every summary update; and
// wandb-history.jsonl, one JSON object per wandb.log call with "_step",
// when present (the SDK streams history to the server and keeps it in the
// binary run-<id>.wandb log, which is not read here; older clients and
// exports leave the JSON lines). Keys starting with "_" are W&B's own
// ("_step", "_runtime", "_timestamp", "_wandb") and are not metrics; nested
// objects (histograms, tables, media) are not read.
class WandbRunReader {
public:
    static MetricFileResult read(const QString &runDir);
    static MetricFileResult parseSummary(const QByteArray &data, const QString &name);
    static MetricFileResult parseHistory(const QByteArray &data, const QString &name);
};

}   // namespace scalelab
