// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>

#include <string_view>

namespace scalelab {

// The result table nccl-tests and rccl-tests print (src/common.cu): after the
// header line naming "busbw", one row per message size,
//   size count type redop [root] time algbw busbw #wrong time algbw busbw #wrong
// (out-of-place, then in-place; `root` since nccl-tests 2.11), until the
// "# Avg bus bandwidth" line. Rows may carry an srun/mpirun label.
struct NcclRow {
    qint64 offset = 0;   // start of the row's line in the log
    qint64 lineEnd = 0;
    double bytes = 0;   // message size
    double busBwGBps = 0;   // out-of-place bus bandwidth
};

class NcclTestsReader {
public:
    // Linear in the log; empty when it has no such table.
    static QList<NcclRow> rows(std::string_view log);

    // The same read piece by piece: each piece whole lines ('\n'-ended, but
    // the last piece), `base` its offset in the log; a table may span pieces.
    void read(std::string_view piece, qint64 base, QList<NcclRow> &out);

private:
    bool m_inTable = false;
};

}   // namespace scalelab
