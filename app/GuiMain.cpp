// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/GuiMain.h"

#include "app/DisplayCheck.h"
#include "app/cli/CliContext.h"
#include "app/cli/CliMain.h"
#include "core/base/AtomicFile.h"

#include "core/base/Logging.h"

#include "ui/common/AfterFirstPaint.h"
#include "ui/common/AppServices.h"
#include "ui/compose/ComposeFiles.h"
#include "ui/compose/ComposePlace.h"
#include "ui/common/FirstFrameProbe.h"
#include "ui/common/PrivateData.h"
#include "ui/window/MainWindow.h"
#include "ui/common/StartupStyle.h"

#include "ui/cluster/ClusterManager.h"
#include "ui/cluster/AddClusterWizard.h"
#include "ui/cluster/ConnectionsDialog.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QPalette>
#include <QStatusBar>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>

namespace scalelab {

namespace {

void applyDarkPalette(QApplication &app)
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x6f, 0xc4));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x8a, 0xb4, 0xff));
    p.setColor(QPalette::Mid, QColor(0x44, 0x46, 0x4a));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Light, QColor(0x50, 0x52, 0x56));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x80, 0x80, 0x80));
    app.setPalette(p);
}

int placeIndex(const QString &place)
{
    if (place == QLatin1String("jobs"))
        return MainWindow::JobsIndex;
    if (place == QLatin1String("results"))
        return MainWindow::ResultsIndex;
    return MainWindow::ComposeIndex;
}

// Names, style and palette of the application; returns the warnings about
// data folders others can read (already logged).
QStringList setUpApplication(QApplication &app, const WindowOptions &opts)
{
    QApplication::setApplicationName(QStringLiteral("ScaleLab"));
    QApplication::setOrganizationName(QStringLiteral("ScaleLab"));
    QApplication::setApplicationVersion(QStringLiteral(SCALELAB_VERSION));
    // The window id: docks match the window to io.github.scalelab.scalelab.desktop
    // (its StartupWMClass) and show its icon.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.scalelab.scalelab"));
    // Settings are created owner-only before QSettings first writes them;
    // data folders others can read are named in the log and the status bar.
    const QStringList privacyWarnings = PrivateData::prepare(PrivateData::Create::Settings);
    for (const QString &p : privacyWarnings)
        qCWarning(lcUi).noquote() << p;
    // The platform's style (or -style), Fusion for the dark palette; see
    // StartupStyle for what it changes.
    app.setStyle(new StartupStyle(opts.dark ? QStringLiteral("Fusion") : QApplication::style()->name()));
    if (opts.dark)
        applyDarkPalette(app);
    return privacyWarnings;
}

void showPrivacyWarnings(MainWindow &window, const QStringList &privacyWarnings)
{
    if (!privacyWarnings.isEmpty())
        window.statusBar()->showMessage(privacyWarnings.size() == 1
                                            ? privacyWarnings.front()
                                            : QObject::tr("%1 (and %2 more warnings in Help ▸ Diagnostics)")
                                                  .arg(privacyWarnings.front())
                                                  .arg(privacyWarnings.size() - 1),
                                        60000);
}

// Shows the window offscreen, saves one frame as PNG and quits: the exit code.
int takeScreenshot(QApplication &app, MainWindow &window, const WindowOptions &opts)
{
    // No cluster layer: a screenshot never opens SSH connections.
    window.resize(opts.size);
    window.showPlace(placeIndex(opts.place));
    window.show();
    int rc = 0;
    // Grab once layout and the first paint have happened (posted events
    // run before the timer fires).
    QTimer::singleShot(150, &window, [&] {
        const QPixmap shot = window.grab();
        AtomicFile file(opts.screenshot);
        Result<void> saved = file.open();
        if (saved && (shot.isNull() || !shot.save(file.device(), "PNG")))
            saved = fail(ErrorCode::LocalFile, QStringLiteral("could not draw the window"));
        if (saved)
            saved = file.commit();
        if (!saved) {
            std::fprintf(stderr, "scalelab: could not write the screenshot %s: %s\n", qPrintable(opts.screenshot),
                         qPrintable(saved.errorText()));
            rc = 1;
        } else {
            std::printf("%s (%dx%d)\n", qPrintable(opts.screenshot), shot.width(), shot.height());
        }
        app.exit(rc);
    });
    return app.exec() == 0 ? rc : 1;
}

// The cluster layer (one SSH worker per cluster, reconciling runs left
// from an earlier session) is built once the place the window opens on
// has painted: neither the first frame nor the form waits for it.
void startClustersAfterFirstPaint(QApplication &app, AppServices &services, MainWindow &window, bool exitAfterClusters)
{
    auto startClusters = [&services, &window, &app, exitAfterClusters] {
        auto *clusters = new ClusterManager(services, &app);   // registers itself in services
        clusters->setDialogParent(&window);
        window.attachClusters();
        // First launch (issue 13): nothing configured yet, so offer "Add your cluster"
        // (whether the store has runs is read on the pool).
        if (!exitAfterClusters)
            askWhyClusterConfigured(services, &window, [&services, &window](const QString &why) {
                if (why.isEmpty())
                    (void)services.openAddCluster(&window);   // set in this program
            });
        if (exitAfterClusters) {
            std::printf("clusters %s\n", services.clusters() ? "started" : "missing");
            std::fflush(stdout);
            QCoreApplication::quit();
        }
    };
    QObject::connect(&window, &MainWindow::firstFramePainted, &window, [&window, startClusters] {
        new AfterFirstPaint(window.place(window.places()->currentIndex()), startClusters);
    });
}

}   // namespace

int GuiMain::run(int argc, char **argv, const WindowOptions &opts)
{
    QElapsedTimer clock;
    clock.start();
    const bool screenshot = !opts.screenshot.isEmpty();
    // Must be decided before QApplication picks a platform plugin.
    if (screenshot && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Qt aborts when its platform cannot start: say why and exit 2 instead.
    if (const QString why = DisplayCheck::problem(argc, argv); !why.isEmpty())
        return CliContext().unusable(
            QStringLiteral("cannot open the window on %1. Without a display, use a headless command (see scalelab "
                           "--help), or QT_QPA_PLATFORM=offscreen scalelab --screenshot FILE.png")
                .arg(why));

    QApplication app(argc, argv);
    const QStringList privacyWarnings = setUpApplication(app, opts);

    // SCALELAB_STARTUP_TRACE=1: where the time before the first paint goes.
    const bool trace = qEnvironmentVariable("SCALELAB_STARTUP_TRACE") == QLatin1String("1");
    auto phase = [&](const char *what) {
        if (trace)
            std::fprintf(stderr, "startup %-12s %lld ms\n", what, static_cast<long long>(clock.elapsed()));
    };
    phase("qapp");
    AppServices services;
    services.setConnectionsDialogFactory(
        [](AppServices &s, QWidget *parent) -> QDialog * { return new ConnectionsDialog(s, parent); });
    services.setAddClusterFactory(
        [](AppServices &s, QWidget *parent) -> QDialog * { return new AddClusterWizard(s, parent); });
    phase("services");
    MainWindow window(services);
    phase("window");
    showPrivacyWarnings(window, privacyWarnings);
    if (!opts.spec.isEmpty()) {
        const QString err = window.compose()->files()->openSpecFile(opts.spec);
        if (!err.isEmpty()) {
            std::fprintf(stderr, "scalelab: %s\n", qPrintable(err));
            if (screenshot)
                return 2;   // unusable input: no picture of a spec that could not be read
        }
    }

    if (screenshot)
        return takeScreenshot(app, window, opts);

    std::optional<FirstFrameProbe> probe;
    const QString exitAfter = qEnvironmentVariable("SCALELAB_EXIT_AFTER_SHOWN");
    if (exitAfter == QLatin1String("1")) {
        probe.emplace(clock);
        window.installEventFilter(&*probe);
    } else if (exitAfter == QLatin1String("form")) {
        // The Compose form's first frame (built once the window has shown).
        QObject::connect(&window, &MainWindow::firstFramePainted, &window, [&probe, &clock, &window] {
            probe.emplace(clock);
            window.compose()->installEventFilter(&*probe);
        });
    }
    startClustersAfterFirstPaint(app, services, window,
                                 exitAfter == QLatin1String("clusters"));   // for the test of this path
    window.show();
    const int rc = app.exec();
    // Stop the workers while the services they use still exist.
    delete services.clusters();
    return rc;
}

}   // namespace scalelab
