// SPDX-License-Identifier: GPL-3.0-or-later
// Per-edit cost of the Compose place: renderAndValidate for the golden specs
// with the edits a researcher makes (GPU count, time), and the whole GUI path
// (spin box edit -> preview + diagnostics). Prints medians and p99 in µs.
#include "ui/common/AppServices.h"
#include "ui/compose/ComposeFiles.h"
#include "ui/compose/ComposePlace.h"
#include "ui/compose/JobForm.h"
#include "core/model/JobSpecJson.h"
#include "core/profiles/ProfileRegistry.h"
#include "core/compose/SbatchRenderer.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QSpinBox>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

using namespace scalelab;

namespace {

struct Stats {
    double median = 0, p99 = 0;
};

Stats stats(QList<qint64> ns)
{
    std::sort(ns.begin(), ns.end());
    if (ns.isEmpty())
        return {};
    return {ns[ns.size() / 2] / 1000.0, ns[std::min<qsizetype>(ns.size() - 1, ns.size() * 99 / 100)] / 1000.0};
}

}   // namespace

int main(int argc, char **argv)
{
    QTemporaryDir tmp;
    qputenv("SCALELAB_DATA_DIR", tmp.filePath(QStringLiteral("data")).toUtf8());
    qputenv("XDG_CONFIG_HOME", tmp.filePath(QStringLiteral("config")).toUtf8());
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    ProfileRegistry profiles;
    profiles.loadDirectory(QStringLiteral(SCALELAB_TEST_DATA_DIR "/../../profiles"), false);

    const int iterations = 2000;
    const QStringList times{QStringLiteral("00:10:00"), QStringLiteral("1:00:00"), QStringLiteral("12:00:00"),
                            QStringLiteral("1-00:00:00"), QStringLiteral("0")};
    std::printf("%-32s %12s %12s\n", "render+validate per edit", "median µs", "p99 µs");
    QList<qint64> all;
    const QDir specs(QStringLiteral(SCALELAB_TEST_DATA_DIR "/specs"));
    for (const QString &name : specs.entryList({QStringLiteral("*.json")})) {
        QFile f(specs.filePath(name));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const auto parsed = parseJobSpec(f.readAll(), name);
        const ClusterProfile *profile = parsed.spec ? profiles.find(parsed.spec->profile) : nullptr;
        if (!profile) {
            std::printf("%-32s skipped (spec or profile missing)\n", qPrintable(name));
            continue;
        }
        QList<qint64> ns;
        JobSpec s = *parsed.spec;
        const int baseGpus = s.gpus;
        QElapsedTimer t;
        qsizetype sink = 0;
        for (int i = 0; i < iterations; ++i) {
            // The edits typing causes: GPU count up/down, time limit text.
            s.gpus = std::max(1, baseGpus + (i % 5) - 2);
            s.time = times[i % times.size()];
            t.start();
            const RenderResult r = renderAndValidate(s, *profile);
            ns << t.nsecsElapsed();
            sink += r.script.size() + r.diagnostics.size();
        }
        const Stats st = stats(ns);
        all << ns;
        std::printf("%-32s %12.1f %12.1f   (%lld)\n", qPrintable(name), st.median, st.p99,
                    static_cast<long long>(sink % 7));
    }
    const Stats total = stats(all);
    std::printf("%-32s %12.1f %12.1f   target: median << 200 µs\n", "all golden specs", total.median, total.p99);

    // The GUI path: one spin box edit re-renders, re-validates, updates the
    // preview (highlighter included) and the diagnostics panel.
    AppServices services;
    ComposePlace place(services);
    place.resize(1280, 800);
    place.show();
    QApplication::processEvents();
    const QString spec = QStringLiteral(SCALELAB_TEST_DATA_DIR "/specs/testbed-ddp-2node.json");
    if (!place.files()->openSpecFile(spec).isEmpty())
        std::printf("could not open %s\n", qPrintable(spec));
    QList<qint64> gui;
    QElapsedTimer t;
    for (int i = 0; i < 400; ++i) {
        t.start();
        place.form()->gpusSpin()->setValue(1 + i % 8);
        gui << t.nsecsElapsed();
    }
    const Stats g = stats(gui);
    std::printf("%-32s %12.1f %12.1f   (form -> preview + diagnostics, synchronous)\n", "GUI edit (GPUs spin)",
                g.median, g.p99);
    QList<qint64> typing;
    for (int i = 0; i < 400; ++i) {
        t.start();
        place.form()->timeEdit()->setText(times[i % times.size()]);
        typing << t.nsecsElapsed();
    }
    const Stats ty = stats(typing);
    std::printf("%-32s %12.1f %12.1f\n", "GUI edit (time field)", ty.median, ty.p99);
    return 0;
}
