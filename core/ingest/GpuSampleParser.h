// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/ingest/GpuSampleSummary.h"

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace scalelab {

struct GpuSampleParseOptions {
    QString host;   // key prefix; empty = from fileName, else none
    QString fileName;   // for diagnostics and the host
    double sampleSeconds = 0;   // rocm-smi sample spacing; 0 = unknown (1 s assumed, noted)
};

// Reads the CSV the job's GPU sampler writes, one file per host
// (`scalelab-gpu-<jobid>-<host>.csv`).
//
// Formats, as documented by the tools:
// * nvidia-smi --query-gpu=... --format=csv [-l N]: a header naming the queried
//   fields with their unit in brackets ("index, timestamp, utilization.gpu [%],
//   memory.used [MiB]"), then rows separated by ", " with units after values
//   ("87 %", "12000 MiB"); `nounits` drops them, `noheader` drops the header.
//   Unavailable values print as "[N/A]" or "[Not Supported]" (older drivers)
//   or "N/A". The timestamp is "YYYY/MM/DD HH:MM:SS.mmm" local time. Columns
//   are found by name, so any order works (seed 002 queries memory.total
//   before memory.used and adds memory.free).
// * rocm-smi --showuse --showmemuse --showmeminfo vram --csv: a header
//   "device,GPU use (%),GPU Memory Allocated (VRAM%),VRAM Total Memory (B),
//   VRAM Total Used Memory (B)" (column set depends on the flags and version;
//   older versions say "GPU memory use (%)") and rows "card0,93,12,<bytes>,<bytes>".
//   rocm-smi has no loop option and prints no timestamp: a sampler calls it
//   repeatedly, so each repeated header starts a new sample and sample k is
//   at k * sampleSeconds. A "timestamp" column, if the sampler adds one, wins.
//   --showtemp / --showpower add "Temperature (Sensor edge) (C)" and
//   "Average Graphics Package Power (W)" (newer: "Current Socket Graphics
//   Package Power (W)").
// * nvidia-smi's temperature.gpu [C] and power.draw [W] columns (also
//   power.draw.average / .instant), in any column order.
// * nvidia-smi dmon: a header "# gpu pwr gtemp mtemp sm mem ... fb ..." (the
//   columns depend on -s; -o DT adds Date and Time first), a units line
//   "# Idx W C C % % ...", then whitespace-separated rows, "-" when not
//   measured. sm (SM activity, %) is the utilisation, fb the memory used (MB).
//   dmon prints one row per GPU per second (-d changes it): without -o T the
//   sample number stands for the time, as for rocm-smi.
// * rocm-smi's concise table: GPU%, Temp (°C) and Power (W) of each device.
// * The sampler's marker "scalelab: no nvidia-smi on HOST; no GPU samples".
// Parsing is hand-rolled (no regular expressions per row) so that a 1.4M-row
// file takes well under a second.
class GpuSampleParser {
public:
    static GpuSampleSummary parse(QByteArrayView data, const GpuSampleParseOptions &options = {});
    static GpuSampleSummary parseFile(const QString &path, double sampleSeconds = 0);
    // One file per host, merged into one run keyed by host:index.
    static GpuSampleSummary parseFiles(const QStringList &paths, double sampleSeconds = 0);
    static GpuSampleSummary merge(const QList<GpuSampleSummary> &parts);

    // "scalelab-gpu-123-tb-node1.csv" -> "tb-node1"; empty when not of that form.
    static QString hostFromFileName(const QString &fileName);
};

}   // namespace scalelab
