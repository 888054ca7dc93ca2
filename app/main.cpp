#include "app/cli/CliMain.h"
#include "app/GuiMain.h"
#include "core/base/Logging.h"

#include <QApplication>
#include <QCoreApplication>

int main(int argc, char **argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    // Before anything connects or writes the store: every layer logs to one
    // file (scalelab.* categories; QT_LOGGING_RULES decides what is written).
    scalelab::LogFile::install();
    if (scalelab::CliMain::needsGuiApplication(args)) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("ScaleLab"));
        return scalelab::CliMain::run(args);
    }
    if (scalelab::CliMain::isCliInvocation(args)) {
        // Headless: no display needed, no widgets created.
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("ScaleLab"));
        QCoreApplication::setApplicationVersion(QStringLiteral(SCALELAB_VERSION));
        return scalelab::CliMain::run(args);
    }
    return scalelab::GuiMain::run(argc, argv);
}
