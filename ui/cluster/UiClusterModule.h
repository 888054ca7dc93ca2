#pragma once

#include "ui/common/ClusterModule.h"

namespace scalelab {

// The window's half of the cluster module: ClusterManager, the Results
// place and the connections dialog. The module adds the headless commands;
// GUI tests install this one in-process (ClusterModule::setInstance).
class UiClusterModule : public ClusterModule {
public:
    ClusterService *createClusters(AppServices &services, QObject *parent) override;
    QWidget *createResultsPlace(AppServices &services, QWidget *parent) override;
    QDialog *createConnectionsDialog(AppServices &services, QWidget *parent) override;
    int runCommand(const QString &name, const QStringList &args) override;
};

} // namespace scalelab
