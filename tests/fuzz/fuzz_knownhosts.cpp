// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: a known_hosts file and the lookups made while connecting.
#include "FuzzSupport.h"
#include "core/ssh/KnownHostsFile.h"

#include <QFile>
#include <QTemporaryDir>

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // The class reads its file itself: one file, rewritten for every input.
    static QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("known_hosts"));
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return 0;
        f.write(reinterpret_cast<const char *>(data), qint64(size));
    }
    const KnownHostsFile known(path);
    known.lookup(QStringLiteral("login.example.org"), 22, QStringLiteral("ssh-ed25519"),
                 QStringLiteral("AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"));
    known.lookup(QStringLiteral("10.0.0.1"), 2222, QStringLiteral("ssh-rsa"), QStringLiteral("AAAA"));
    known.knownKeyTypes(QStringLiteral("login.example.org"), 22);
    return 0;
}
