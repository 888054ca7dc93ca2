#include "ui/cluster/UiClusterModule.h"

#include "ui/cluster/ClusterManager.h"
#include "ui/cluster/ConnectionsDialog.h"
#include "ui/results/ResultsPlace.h"

namespace scalelab {

ClusterService *UiClusterModule::createClusters(AppServices &services, QObject *parent)
{
    return new ClusterManager(services, parent);
}

QWidget *UiClusterModule::createResultsPlace(AppServices &services, QWidget *parent)
{
    return new ResultsPlace(services, parent);
}

QDialog *UiClusterModule::createConnectionsDialog(AppServices &services, QWidget *parent)
{
    return new ConnectionsDialog(services, parent);
}

int UiClusterModule::runCommand(const QString &, const QStringList &)
{
    return -1;
}

} // namespace scalelab
