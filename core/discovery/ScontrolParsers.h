// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/discovery/DiscoveryFacts.h"

#include <QString>

namespace scalelab {

template <class T>
struct ParsedList {
    QList<T> items;
    Diagnostics diagnostics;   // a record that could not be read (Warning), never fatal
};

// `scontrol show partition -o`, `scontrol show node -o` (or their multi-line
// forms) and `scontrol show config`, as printed by Slurm 17.11 to 25.11. Keys
// are looked up by all names they had; keys Slurm adds later are ignored.
class ScontrolParsers {
public:
    static ParsedList<PartitionFacts> partitions(const QString &text);
    static ParsedList<NodeFacts> nodes(const QString &text);
    static ConfigFacts config(const QString &text);

    // "gpu:v100:4,gpu:a100:2(S:0-1),mps:no_consume:100" -> items; "(null)" -> none.
    static QList<GresItem> gres(const QString &text);
    // CfgTRES fallback ("gres/gpu=4,gres/gpu:a100=4") when Gres= is not printed.
    static QList<GresItem> gresFromTres(const QString &tres);
};

}   // namespace scalelab
