// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/DisplayCheck.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QLibrary>
#include <QLibraryInfo>
#include <QPluginLoader>
#include <QStringList>

#include <cstring>

namespace scalelab {

namespace {

// The value after `-name` or `--name` (Qt's spelling of its own options).
QString argValue(int argc, char **argv, const char *name)
{
    for (int i = 1; i + 1 < argc; ++i) {
        const char *a = argv[i];
        if (a[0] != '-')
            continue;
        if (a[1] == '-')
            ++a;
        if (std::strcmp(a + 1, name) == 0)
            return QString::fromLocal8Bit(argv[i + 1]);
    }
    return {};
}

struct Request {
    QStringList platforms;   // in the order Qt tries them, each maybe with ":arguments"
    QString from;   // where the list came from, for the message
};

Request requested(int argc, char **argv)
{
    if (const QString arg = argValue(argc, argv, "platform"); !arg.isEmpty())
        return {arg.split(QLatin1Char(';'), Qt::SkipEmptyParts), QStringLiteral("-platform")};
    if (const QString env = qEnvironmentVariable("QT_QPA_PLATFORM"); !env.isEmpty())
        return {env.split(QLatin1Char(';'), Qt::SkipEmptyParts), QStringLiteral("QT_QPA_PLATFORM")};
    // Qt's default here is xcb; a Wayland session may be served by wayland
    // first. Either working is enough, as it is for Qt.
    QStringList platforms{QStringLiteral("xcb")};
    if (qEnvironmentVariable("XDG_SESSION_TYPE") == QLatin1String("wayland")
        || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        platforms.prepend(QStringLiteral("wayland"));
    return {platforms, QStringLiteral("Qt's default; set QT_QPA_PLATFORM to choose")};
}

QStringList pluginFolders(int argc, char **argv)
{
    QStringList folders;
    for (const QString &direct :
         {argValue(argc, argv, "platformpluginpath"), qEnvironmentVariable("QT_QPA_PLATFORM_PLUGIN_PATH")})
        if (!direct.isEmpty())
            folders << direct;
    QStringList roots = qEnvironmentVariable("QT_PLUGIN_PATH").split(QDir::listSeparator(), Qt::SkipEmptyParts);
    roots << QLibraryInfo::path(QLibraryInfo::PluginsPath);
    for (const QString &root : std::as_const(roots))
        folders << root + QStringLiteral("/platforms");
    return folders;
}

QStringList keysOf(const QJsonObject &metaData)
{
    QStringList keys;
    for (const auto &k : metaData.value(QStringLiteral("MetaData")).toObject().value(QStringLiteral("Keys")).toArray())
        keys << k.toString().toLower();
    return keys;
}

// The platform names the installed plugins answer to (their metadata is read
// without loading them).
QStringList installedPlatforms(const QStringList &folders)
{
    QStringList names;
    for (const QStaticPlugin &p : QPluginLoader::staticPlugins())
        names << keysOf(p.metaData());
    for (const QString &folder : folders)
        for (const QFileInfo &fi : QDir(folder).entryInfoList(QDir::Files))
            if (QLibrary::isLibrary(fi.fileName()))
                names << keysOf(QPluginLoader(fi.absoluteFilePath()).metaData());
    names.removeDuplicates();
    names.sort();
    return names;
}

QString xcbProblem(const QString &display)
{
    if (display.isEmpty())
        return QStringLiteral("xcb needs an X display and DISPLAY is not set");
    QLibrary xcb(QStringLiteral("xcb"), 1);
    using Connect = void *(*)(const char *, int *);
    using HasError = int (*)(void *);
    using Disconnect = void (*)(void *);
    const auto connect = reinterpret_cast<Connect>(xcb.resolve("xcb_connect"));
    const auto hasError = reinterpret_cast<HasError>(xcb.resolve("xcb_connection_has_error"));
    const auto disconnect = reinterpret_cast<Disconnect>(xcb.resolve("xcb_disconnect"));
    if (!connect || !hasError || !disconnect)
        return QStringLiteral("xcb needs libxcb, which cannot be loaded (%1)").arg(xcb.errorString());
    void *c = connect(display.toLocal8Bit().constData(), nullptr);
    const bool failed = !c || hasError(c) != 0;
    if (c)
        disconnect(c);
    return failed ? QStringLiteral("no X server accepts a connection on display %1").arg(display) : QString();
}

QString waylandProblem()
{
    if (!qEnvironmentVariableIsEmpty("WAYLAND_SOCKET"))
        return {};   // a socket handed over by the compositor: only Qt may take it
    const QString name = qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ? QStringLiteral("wayland-0")
                                                                        : qEnvironmentVariable("WAYLAND_DISPLAY");
    const QString socket =
        QDir::isAbsolutePath(name) ? name : qEnvironmentVariable("XDG_RUNTIME_DIR") + QLatin1Char('/') + name;
    QLibrary client(QStringLiteral("wayland-client"), 0);
    using Connect = void *(*)(const char *);
    using Disconnect = void (*)(void *);
    const auto connect = reinterpret_cast<Connect>(client.resolve("wl_display_connect"));
    const auto disconnect = reinterpret_cast<Disconnect>(client.resolve("wl_display_disconnect"));
    if (!connect || !disconnect)
        return QStringLiteral("wayland needs libwayland-client, which cannot be loaded (%1)").arg(client.errorString());
    void *d = connect(nullptr);
    if (!d)
        return QStringLiteral("no Wayland compositor answers on %1").arg(socket);
    disconnect(d);
    return {};
}

// Why `platform` ("name" or "name:arguments") cannot start, "" when it can.
QString platformProblem(const QString &platform, const QStringList &installed, const QString &display)
{
    const QString name = platform.section(QLatin1Char(':'), 0, 0).toLower();
    if (!installed.contains(name))
        return QStringLiteral("there is no Qt platform plugin \"%1\" (installed: %2)")
            .arg(name, installed.isEmpty() ? QStringLiteral("none") : installed.join(QStringLiteral(", ")));
    if (name == QLatin1String("xcb"))
        return xcbProblem(display);
    if (name.startsWith(QLatin1String("wayland")))
        return waylandProblem();
    return {};
}

}   // namespace

QString DisplayCheck::problem(int argc, char **argv)
{
    const Request r = requested(argc, argv);
    if (r.platforms.isEmpty())
        return {};
    QString display = argValue(argc, argv, "display");
    if (display.isEmpty())
        display = qEnvironmentVariable("DISPLAY");
    const QStringList installed = installedPlatforms(pluginFolders(argc, argv));
    QStringList reasons;
    for (const QString &platform : r.platforms) {
        const QString why = platformProblem(platform, installed, display);
        if (why.isEmpty())
            return {};
        reasons << why;
    }
    return QStringLiteral("%1 (%2): %3")
        .arg(r.platforms.join(QLatin1Char(';')), r.from, reasons.join(QStringLiteral("; ")));
}

}   // namespace scalelab
