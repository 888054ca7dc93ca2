#include "ClusterModule.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QLibrary>

namespace scalelab {

namespace {

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
    return s_error;
}

void ClusterModule::setInstance(ClusterModule *module)
{
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
