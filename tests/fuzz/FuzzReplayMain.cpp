// SPDX-License-Identifier: GPL-3.0-or-later
// The plain driver of a fuzz harness (no libFuzzer): runs the harness once on
// every file named on the command line or found under a named directory, so
// CTest can replay the corpora with any compiler. With clang the same harness
// is linked against libFuzzer instead (SCALELAB_FUZZ=ON, see README).
#include <QByteArray>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <cstdint>
#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

int replay(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "fuzz replay: cannot read %s\n", qPrintable(path));
        return 1;
    }
    const QByteArray data = f.readAll();
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.constData()), std::size_t(data.size()));
    return 0;
}

}   // namespace

int main(int argc, char **argv)
{
    int inputs = 0, failures = 0;
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (QFileInfo(arg).isDir()) {
            QStringList files;
            QDirIterator it(arg, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext())
                files << it.next();
            std::sort(files.begin(), files.end());   // the same order on every run
            for (const QString &f : files) {
                failures += replay(f);
                ++inputs;
            }
        } else {
            failures += replay(arg);
            ++inputs;
        }
    }
    std::printf("replayed %d inputs\n", inputs);
    return failures == 0 && inputs > 0 ? 0 : 1;
}
