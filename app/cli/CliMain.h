// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

namespace scalelab {

// The window's own options (`scalelab --screenshot ...`), parsed with the
// global ones so that an unknown option is refused before a window opens.
struct WindowOptions {
    QString screenshot;
    QString place = QStringLiteral("compose");
    QString spec;
    QSize size{1280, 800};
    bool dark = false;
};

// `scalelab [global options] [command [options] [args]]`: decides between the
// window and a headless command, and runs the commands.
class CliMain {
public:
    struct Route {
        enum class Kind { Window, Command, Exit };
        Kind kind = Kind::Exit;
        int exitCode = 0;   // Exit: help and version printed, or the error
        QString command;   // Command
        QStringList args;   // Command: the words after it
        WindowOptions window;   // Window
    };
    // Decided before any application object exists; prints help, version
    // and errors (unknown command or option: exit 2 with a did-you-mean; no
    // display for the window: exit 2) itself.
    static Route route(const QStringList &args);
    // Charts are drawn with QPainter on images: such a command needs a GUI
    // application object, but never a display.
    static bool needsGuiApplication(const QString &command);
    static int run(const QString &command, const QStringList &args);
    static QString usage();
    static QStringList commandNames();
};

}   // namespace scalelab
