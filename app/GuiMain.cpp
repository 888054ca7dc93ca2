#include "app/GuiMain.h"

#include "ui/common/AppServices.h"
#include "ui/compose/ComposePlace.h"
#include "ui/common/FirstFrameProbe.h"
#include "ui/common/PrivateData.h"
#include "ui/window/MainWindow.h"
#include "ui/common/StartupStyle.h"

#include "ui/common/ClusterModule.h"
#include "ui/common/ClusterService.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QPalette>
#include <QStatusBar>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <optional>
#include <thread>

namespace scalelab {

namespace {

struct GuiOptions {
    QString screenshot;
    QString place = QStringLiteral("compose");
    QString spec;
    QSize size{1280, 800};
    bool dark = false;
    QString error;
};

GuiOptions parseOptions(int argc, char **argv)
{
    GuiOptions o;
    o.dark = qEnvironmentVariable("SCALELAB_DARK") == QLatin1String("1");
    for (int i = 1; i < argc; ++i) {
        const QString a = QString::fromLocal8Bit(argv[i]);
        auto value = [&]() -> QString {
            if (i + 1 >= argc) {
                o.error = QStringLiteral("%1 needs a value").arg(a);
                return {};
            }
            return QString::fromLocal8Bit(argv[++i]);
        };
        if (a == QLatin1String("--screenshot")) {
            o.screenshot = value();
        } else if (a == QLatin1String("--place")) {
            o.place = value();
            if (o.place != QLatin1String("compose") && o.place != QLatin1String("jobs") && o.place != QLatin1String("results"))
                o.error = QStringLiteral("--place must be compose, jobs or results, not \"%1\"").arg(o.place);
        } else if (a == QLatin1String("--spec")) {
            o.spec = value();
        } else if (a == QLatin1String("--size")) {
            const QStringList wh = value().split(QLatin1Char('x'));
            const int w = wh.value(0).toInt(), h = wh.value(1).toInt();
            if (wh.size() != 2 || w < 200 || h < 150 || w > 8000 || h > 8000)
                o.error = QStringLiteral("--size must be WIDTHxHEIGHT, e.g. 1280x800 (200x150 to 8000x8000)");
            else
                o.size = QSize(w, h);
        } else if (a == QLatin1String("--dark")) {
            o.dark = true;
        }
        // Anything else is left to QApplication (-style, -platform, ...).
    }
    return o;
}

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

} // namespace

int GuiMain::run(int argc, char **argv)
{
    QElapsedTimer clock;
    clock.start();
    const GuiOptions opts = parseOptions(argc, argv);
    if (!opts.error.isEmpty()) {
        std::fprintf(stderr, "scalelab: %s\n", qPrintable(opts.error));
        return 2;
    }
    const bool screenshot = !opts.screenshot.isEmpty();
    // Must be decided before QApplication picks a platform plugin.
    if (screenshot && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ScaleLab"));
    QApplication::setOrganizationName(QStringLiteral("ScaleLab"));
    QApplication::setApplicationVersion(QStringLiteral(SCALELAB_VERSION));
    // The window id: docks match the window to io.github.scalelab.scalelab.desktop
    // (its StartupWMClass) and show its icon.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.scalelab.scalelab"));
    // Settings are created owner-only before QSettings first writes them.
    for (const QString &p : PrivateData::secure(PrivateData::Create::Settings))
        std::fprintf(stderr, "scalelab: warning: %s\n", qPrintable(p));
    // The platform's style (or -style), Fusion for the dark palette; see
    // StartupStyle for what it changes.
    app.setStyle(new StartupStyle(opts.dark ? QStringLiteral("Fusion") : QApplication::style()->name()));
    if (opts.dark)
        applyDarkPalette(app);

    // SCALELAB_STARTUP_TRACE=1: where the time before the first paint goes.
    const bool trace = qEnvironmentVariable("SCALELAB_STARTUP_TRACE") == QLatin1String("1");
    auto phase = [&](const char *what) {
        if (trace)
            std::fprintf(stderr, "startup %-12s %lld ms\n", what, static_cast<long long>(clock.elapsed()));
    };
    phase("qapp");
    AppServices services;
    phase("services");
    MainWindow window(services);
    phase("window");
    if (!opts.spec.isEmpty()) {
        const QString err = window.compose()->openSpecFile(opts.spec);
        if (!err.isEmpty())
            std::fprintf(stderr, "scalelab: %s\n", qPrintable(err));
    }

    if (screenshot) {
        // No cluster layer: a screenshot never opens SSH connections.
        window.resize(opts.size);
        window.showPlace(placeIndex(opts.place));
        if (opts.place == QLatin1String("results") && !ClusterModule::instance())
            std::fprintf(stderr, "scalelab: no charts: %s\n", qPrintable(ClusterModule::loadError()));
        window.show();
        int rc = 0;
        // Grab once layout and the first paint have happened (posted events
        // run before the timer fires).
        QTimer::singleShot(150, &window, [&] {
            const QPixmap shot = window.grab();
            if (shot.isNull() || !shot.save(opts.screenshot, "PNG")) {
                std::fprintf(stderr, "scalelab: could not write the screenshot %s\n", qPrintable(opts.screenshot));
                rc = 1;
            } else {
                std::printf("%s (%dx%d)\n", qPrintable(opts.screenshot), shot.width(), shot.height());
            }
            app.exit(rc);
        });
        return app.exec() == 0 ? rc : 1;
    }

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
    // The cluster layer (a module with libssh) starts after the first frame,
    // its libraries mapped on a worker thread so the form paints meanwhile;
    // then it reconciles runs left from an earlier session.
    const bool exitAfterClusters = exitAfter == QLatin1String("clusters");   // for the test of this path
    auto startClusters = [&services, &window, &app, exitAfterClusters] {
        ClusterModule *module = ClusterModule::instance();   // loaded by now
        if (!module) {
            window.statusBar()->showMessage(
                QCoreApplication::translate("GuiMain", "No cluster connections: %1").arg(ClusterModule::loadError()));
            window.attachClusters();   // Submit and Dry run say why they are off
        } else {
            ClusterService *clusters = module->createClusters(services, &app);   // registers itself in services
            clusters->setDialogParent(&window);
            window.attachClusters();
        }
        if (exitAfterClusters) {
            std::printf("clusters %s\n", services.clusters() ? "started" : qPrintable(ClusterModule::loadError()));
            std::fflush(stdout);
            QCoreApplication::quit();
        }
    };
    std::thread loader;
    QObject::connect(&window, &MainWindow::firstFramePainted, &window, [&loader, &app, startClusters] {
        loader = std::thread([&app, startClusters] {
            ClusterModule::instance();
            QMetaObject::invokeMethod(&app, startClusters, Qt::QueuedConnection);
        });
    });
    window.show();
    const int rc = app.exec();
    if (loader.joinable())
        loader.join();
    // Stop the workers while the services they use still exist.
    delete services.clusters();
    return rc;
}

} // namespace scalelab
