// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: squeue output in ScaleLab's layout and in a short custom one.
#include "FuzzSupport.h"
#include "core/slurm/SqueueParser.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray in = fuzz::bytes(data, size);
    SqueueParser().parse(in, in);
    SqueueParser({QStringLiteral("%i"), QStringLiteral("%T"), QStringLiteral("%j")}, QStringLiteral("|")).parse(in);
    SqueueParser::controllerDownLine(in);
    return 0;
}
