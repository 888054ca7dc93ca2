// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: `sinfo` output read by its own header line (the default
// table) and as the fixed `-h -N -O` column lists discovery names.
#include "FuzzSupport.h"
#include "core/discovery/SacctmgrParsers.h"

#include <QStringList>

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString in = fuzz::text(data, size);
    SinfoParser::parse(in);
    static const QStringList gresColumns{QStringLiteral("nodehost"), QStringLiteral("gres"), QStringLiteral("gresused"),
                                         QStringLiteral("statelong")};
    SinfoParser::parse(in, gresColumns);
    static const QStringList allColumns{
        QStringLiteral("nodehost"),  QStringLiteral("partition"), QStringLiteral("cpus"),
        QStringLiteral("memory"),    QStringLiteral("gres"),      QStringLiteral("gresused"),
        QStringLiteral("statelong"), QStringLiteral("features"),  QStringLiteral("timelimit")};
    SinfoParser::parse(in, allColumns);
    return 0;
}
