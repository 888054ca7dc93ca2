// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: the shell lexer on one line, with and without variable lookup, and the logical-line scan.
#include "FuzzSupport.h"
#include "core/base/ShellWords.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString s = fuzz::text(data, size);
    lexShell(s);
    lexShell(s, [](const QString &name) -> std::optional<QString> {
        if (name.startsWith(QLatin1Char('S')))
            return QStringLiteral("4");
        return std::nullopt;
    });
    findShellLineEnd(s, 0);
    return 0;
}
