#include "ui/common/ClusterModule.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QLibrary>

#include <mutex>

namespace scalelab {

namespace {

// One load at a time; a caller that needs the module waits for it.
std::mutex s_loadMutex;
// Held only briefly, never during a load: guards the three below, so the
// GUI thread can ask why there is no cluster layer yet without waiting.
std::mutex s_stateMutex;
ClusterModule *s_instance = nullptr;
bool s_tried = false;
QString s_error;

// Next to the executable in a build tree; under lib/scalelab once installed.
QStringList candidates()
{
    const QString name = QStringLiteral(SCALELAB_MODULE_FILE);
    const QDir bin(QCoreApplication::applicationDirPath());
    QStringList out;
    if (const QString env = qEnvironmentVariable("SCALELAB_MODULE"); !env.isEmpty())
        out << env;
    out << bin.filePath(name) << bin.filePath(QStringLiteral(SCALELAB_MODULE_RELATIVE_DIR "/") + name);
    return out;
}

// Loads the module file; "" or why not.
QString load(ClusterModule *&module)
{
    QStringList tried;
    for (const QString &path : candidates()) {
        if (!QFileInfo::exists(path)) {
            tried << path;
            continue;
        }
        // Never unloaded: its objects live until the process ends. All its
        // symbols are bound here, on the loading (worker) thread.
        QLibrary lib(path);
        lib.setLoadHints(QLibrary::ResolveAllSymbolsHint);
        if (!lib.load())
            return QCoreApplication::translate("ClusterModule", "could not load %1: %2").arg(path, lib.errorString());
        // The module binds to this executable's classes: one from another
        // build (a stale file, a partial upgrade) would crash, so it is refused.
        using Build = const char *(*)();
        auto build = reinterpret_cast<Build>(lib.resolve("scalelab_cluster_module_build"));
        using Entry = ClusterModule *(*)();
        auto entry = reinterpret_cast<Entry>(lib.resolve("scalelab_cluster_module"));
        if (!build || !entry)
            return QCoreApplication::translate("ClusterModule", "%1 is not a ScaleLab cluster module").arg(path);
        if (qstrcmp(build(), SCALELAB_BUILD_ID) != 0)
            return QCoreApplication::translate("ClusterModule",
                                               "%1 belongs to another ScaleLab build (%2, this is %3); reinstall ScaleLab")
                .arg(path, QString::fromLatin1(build()), QStringLiteral(SCALELAB_BUILD_ID));
        module = entry();
        return {};
    }
    return QCoreApplication::translate("ClusterModule",
                                       "the cluster module is not installed (looked for %1); reinstall ScaleLab")
        .arg(tried.join(QStringLiteral(", ")));
}

} // namespace

ClusterModule *ClusterModule::instance()
{
    {
        std::lock_guard state(s_stateMutex);
        if (s_instance || s_tried)
            return s_instance;
    }
    std::lock_guard loading(s_loadMutex);
    {
        std::lock_guard state(s_stateMutex);
        if (s_instance || s_tried)   // loaded while this caller waited
            return s_instance;
    }
    ClusterModule *module = nullptr;
    const QString error = load(module);
    std::lock_guard state(s_stateMutex);
    s_instance = module;
    s_error = error;
    s_tried = true;
    return s_instance;
}

QString ClusterModule::loadError()
{
    std::lock_guard lock(s_stateMutex);
    return s_error;
}

QString ClusterModule::unavailableReason()
{
    std::lock_guard lock(s_stateMutex);
    return s_error.isEmpty() ? QCoreApplication::translate("ClusterModule", "The cluster layer is still starting.")
                             : QCoreApplication::translate("ClusterModule", "No cluster connections: %1").arg(s_error);
}

void ClusterModule::setInstance(ClusterModule *module)
{
    std::lock_guard lock(s_stateMutex);
    s_instance = module;
    s_tried = module != nullptr;
}

QString ClusterModule::openConnections(AppServices &services, QWidget *parent)
{
    ClusterModule *module = instance();
    if (!module)
        return loadError();
    QDialog *d = module->createConnectionsDialog(services, parent);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->open();
    return {};
}

} // namespace scalelab
