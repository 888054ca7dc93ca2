#pragma once

#include <QString>
#include <QStringList>

class QDialog;
class QObject;
class QWidget;

namespace scalelab {

class AppServices;
class ClusterService;

// The parts of ScaleLab that need libssh (and its crypto libraries) or
// QCustomPlot: the cluster layer, the Results place with its charts, the
// connections dialog and the headless commands that reach a cluster or draw
// charts. They are built into a module (scalelab-cluster.so) that the window
// loads after its first paint and the CLI loads only for those commands, so
// neither pays for those libraries before it needs them.
//
// Tests that link everything statically install an in-process instance with
// setInstance() instead of loading the module.
class ClusterModule {
public:
    virtual ~ClusterModule() = default;

    virtual ClusterService *createClusters(AppServices &services, QObject *parent) = 0;
    virtual QWidget *createResultsPlace(AppServices &services, QWidget *parent) = 0;
    virtual QDialog *createConnectionsDialog(AppServices &services, QWidget *parent) = 0;
    // A headless command of the module (submit, study, status, ...); -1 when
    // it is not one of them.
    virtual int runCommand(const QString &name, const QStringList &args) = 0;

    // The module, loaded on first call (nullptr, with loadError(), when it
    // cannot be: e.g. a partial install). Thread-safe: the window calls it
    // first on a worker thread, so mapping the libraries never stalls a paint.
    static ClusterModule *instance();
    static QString loadError();
    // Why there is no cluster layer (yet): for disabled Submit/Dry run.
    static QString unavailableReason();
    static void setInstance(ClusterModule *module);
    // Opens the connections dialog (window-modal, deleted when closed);
    // returns "" or why it cannot.
    static QString openConnections(AppServices &services, QWidget *parent);
};

} // namespace scalelab
