// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: OpenSSH client config text and lookups in it. Include reads
// files under ~/.ssh, so HOME points at a private directory holding the
// include shapes that once fanned out (F10): a file including itself twice
// and a chain where each level includes the next twice.
#include "FuzzSupport.h"
#include "core/sshconfig/SshConfigFile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

using namespace scalelab;

namespace {

void writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(data);
}

bool privateHome()
{
    static QTemporaryDir home;
    const QString ssh = home.filePath(QStringLiteral(".ssh"));
    QDir().mkpath(ssh);
    writeFile(ssh + QStringLiteral("/self"), "Host s\n  Port 22\nInclude self\nInclude self\n");
    for (int i = 0; i < 14; ++i)
        writeFile(
            ssh + QStringLiteral("/fan%1").arg(i),
            QStringLiteral("Host f%1\n  User researcher\nInclude fan%2\nInclude fan%2\n").arg(i).arg(i + 1).toUtf8());
    qputenv("HOME", home.path().toUtf8());
    return true;
}

}   // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const bool ready = privateHome();
    (void)ready;
    const SshConfigFile cfg = SshConfigFile::fromText(fuzz::text(data, size), QStringLiteral("config"));
    (void)cfg.errorText();
    cfg.resolve(QStringLiteral("login.example.org"));
    cfg.resolve(QStringLiteral("h1"));
    return 0;
}
