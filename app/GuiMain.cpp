#include "GuiMain.h"

#include <QApplication>
#include <QLabel>

namespace scalelab {

int GuiMain::run(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ScaleLab"));
    QLabel placeholder(QStringLiteral("ScaleLab"));
    placeholder.show();
    return app.exec();
}

} // namespace scalelab
