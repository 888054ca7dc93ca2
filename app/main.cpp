// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/DisplayCheck.h"
#include "app/GuiMain.h"
#include "app/cli/CliContext.h"
#include "app/cli/CliMain.h"
#include "core/base/Logging.h"
#include "ui/common/PrivateData.h"

#include <QApplication>
#include <QCoreApplication>

#include <cstdio>

namespace {

// Private data folders others can read are named at every start, headless
// commands included (a warning: modes ScaleLab did not set are not changed).
void warnAboutPrivateData()
{
    for (const QString &p : scalelab::PrivateData::prepare(scalelab::PrivateData::Create::Nothing))
        std::fprintf(stderr, "scalelab: warning: %s\n", qPrintable(p));
}

}   // namespace

int main(int argc, char **argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    // Before anything connects or writes the store, window or command: every
    // layer logs to one file (scalelab.* categories; QT_LOGGING_RULES decides
    // what is written).
    scalelab::LogFile::install();
    const scalelab::CliMain::Route route = scalelab::CliMain::route(args);
    switch (route.kind) {
    case scalelab::CliMain::Route::Kind::Exit:
        return route.exitCode;
    case scalelab::CliMain::Route::Kind::Window:
        return scalelab::GuiMain::run(argc, argv, route.window);
    case scalelab::CliMain::Route::Kind::Command:
        break;
    }
    if (scalelab::CliMain::needsGuiApplication(route.command)) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        if (const QString why = scalelab::DisplayCheck::problem(argc, argv); !why.isEmpty())
            return scalelab::CliContext().unusable(
                QStringLiteral("%1 cannot draw on %2; it needs no display: unset QT_QPA_PLATFORM")
                    .arg(route.command, why));
        QApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("ScaleLab"));
        warnAboutPrivateData();
        return scalelab::CliMain::run(route.command, route.args);
    }
    // Headless: no display needed, no widgets created.
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("ScaleLab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SCALELAB_VERSION));
    warnAboutPrivateData();
    return scalelab::CliMain::run(route.command, route.args);
}
