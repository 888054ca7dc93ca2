// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <string_view>

namespace scalelab::gpuformat {

// Pure helpers that recognise what kind of text a GPU sample file holds
// (GpuSampleParser). All work on one trimmed line.

// srun --label / mpirun --tag-output put the task before each line:
// "  3: text" or "[1,3]<stdout>:text". Returns the task (-1 = none) and
// removes the label from `line`.
int takeTaskLabel(std::string_view &line);

// An nvidia-smi --query-gpu header: two or more comma-separated field names
// ("index", "utilization.gpu [%]"), each a lower-case dotted name with an
// optional unit in brackets. Help text ("memory.total" alone, or a sentence
// mentioning memory.used) is not a header.
bool isNvidiaHeader(std::string_view line);

// rocm-smi's concise table header ("Device ... VRAM%  GPU%").
bool isRocmConciseHeader(std::string_view line);

// A row of rocm-smi's concise table: the device (first column), GPU% (last),
// the temperature (the first "46.0°C"/"35.0c" column) and the power after it
// ("102.0W"; "N/A" on the second GCD of an MI250X, whose package reports it).
struct RocmConcise {
    int device = 0;
    double utilPercent = 0;
    double tempC = 0;
    double powerW = 0;
};
bool rocmConciseRow(std::string_view line, RocmConcise &row);

// nvidia-smi dmon's header ("# gpu pwr gtemp ..." or "#Date Time gpu pwr
// ..."): the column of each field, -1 when absent.
struct DmonColumns {
    int gpu = -1, power = -1, temp = -1, sm = -1, fb = -1;
    int count = 0;
};
bool dmonHeader(std::string_view line, DmonColumns &columns);

// "2021/02/03 10:15:23.012" (nvidia-smi), also "2021-02-03T10:15:23" -> epoch seconds; NaN if not a time.
double timestamp(std::string_view text);

// rocm-smi's plain output of --showuse / --showmemuse / --showmeminfo vram:
// "GPU[3]		: GPU use (%): 93". Fills the device and which value it is.
enum class RocmField { None, Util, VramPercent, VramUsedBytes, VramTotalBytes };
RocmField rocmPlainLine(std::string_view line, int &device, double &value);

// Output of a tool ScaleLab does not read as samples, named so the refusal
// can say what it saw: "nvidia-smi's default table", "nvidia-smi dmon",
// "amd-smi", "xpu-smi", "dcgmi"; "" when the line says nothing of the kind.
QString foreignTool(std::string_view line);

}   // namespace scalelab::gpuformat
