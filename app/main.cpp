#include "app/cli/CliMain.h"
#include "app/GuiMain.h"
#include "ui/common/PrivateData.h"

#include <QApplication>
#include <QCoreApplication>

#include <cstdio>

namespace {

// Private data is tightened at every start, headless commands included.
void securePrivateData()
{
    for (const QString &p : scalelab::PrivateData::secure(scalelab::PrivateData::Create::Nothing))
        std::fprintf(stderr, "scalelab: warning: %s\n", qPrintable(p));
}

} // namespace

int main(int argc, char **argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (scalelab::CliMain::needsGuiApplication(args)) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("ScaleLab"));
        securePrivateData();
        return scalelab::CliMain::run(args);
    }
    if (scalelab::CliMain::isCliInvocation(args)) {
        // Headless: no display needed, no widgets created.
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("ScaleLab"));
        QCoreApplication::setApplicationVersion(QStringLiteral(SCALELAB_VERSION));
        securePrivateData();
        return scalelab::CliMain::run(args);
    }
    return scalelab::GuiMain::run(argc, argv);
}
