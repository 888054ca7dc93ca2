#include "ClusterModule.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QLibrary>

#include <mutex>

namespace scalelab {

namespace {

// Guards the three below: the window loads the module on a worker thread
// while the GUI thread may ask for it (it then waits for the load).
std::mutex s_mutex;
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

} // namespace

ClusterModule *ClusterModule::instance()
{
    std::lock_guard lock(s_mutex);
    if (s_instance || s_tried)
        return s_instance;
    s_tried = true;
    QStringList tried;
    for (const QString &path : candidates()) {
        if (!QFileInfo::exists(path)) {
            tried << path;
            continue;
        }
        // Never unloaded: its objects live until the process ends.
        QLibrary lib(path);
        if (!lib.load()) {
            s_error = QCoreApplication::translate("ClusterModule", "could not load %1: %2").arg(path, lib.errorString());
            return nullptr;
        }
        using Entry = ClusterModule *(*)();
        auto entry = reinterpret_cast<Entry>(lib.resolve("scalelab_cluster_module"));
        if (!entry) {
            s_error = QCoreApplication::translate("ClusterModule", "%1 is not a ScaleLab cluster module").arg(path);
            return nullptr;
        }
        s_instance = entry();
        return s_instance;
    }
    s_error = QCoreApplication::translate("ClusterModule",
                                          "the cluster module is not installed (looked for %1); reinstall ScaleLab")
                  .arg(tried.join(QStringLiteral(", ")));
    return nullptr;
}

QString ClusterModule::loadError()
{
    std::lock_guard lock(s_mutex);
    return s_error;
}

QString ClusterModule::unavailableReason()
{
    std::lock_guard lock(s_mutex);
    return s_error.isEmpty() ? QCoreApplication::translate("ClusterModule", "The cluster layer is still starting.")
                             : QCoreApplication::translate("ClusterModule", "No cluster connections: %1").arg(s_error);
}

void ClusterModule::setInstance(ClusterModule *module)
{
    std::lock_guard lock(s_mutex);
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
