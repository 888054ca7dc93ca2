// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab {

// A count as a script writes it (`--nproc_per_node=4`, `-np $SLURM_NTASKS`):
// its number, its text after expansion and its line.
struct WrittenCount {
    int value = 0;   // 0 = not a number we can read (a variable, "gpu") or not given
    QString text;   // as written after expansion ("4", "gpu", "$X"); empty = not given
    int line = 0;

    bool given() const { return !text.isEmpty(); }
};

}   // namespace scalelab
