// The cluster module (scalelab-cluster.so): everything that needs libssh or
// QCustomPlot, loaded by the window after its first paint and by the CLI
// for the commands below. Its code that the executable also has resolves to
// the executable's copy (the executable exports its symbols), so both share
// one AppServices, one set of statics and one meta-object per class.
#include "app/cli/CliContext.h"
#include "app/cli/DiscoverCommands.h"
#include "app/cli/ReportCommands.h"
#include "app/cli/SlurmCommands.h"
#include "ui/cluster/UiClusterModule.h"

#include <functional>
#include <map>

namespace scalelab {

namespace {

class AppClusterModule : public UiClusterModule {
public:
    int runCommand(const QString &name, const QStringList &args) override
    {
        using Command = std::function<int(CliContext &, const QStringList &)>;
        static const std::map<QString, Command> table = {
            {QStringLiteral("submit"), &SlurmCommands::submit}, {QStringLiteral("study"), &SlurmCommands::study},
            {QStringLiteral("status"), &SlurmCommands::status}, {QStringLiteral("cancel"), &SlurmCommands::cancel},
            {QStringLiteral("fetch"), &SlurmCommands::fetch},   {QStringLiteral("runs"), &SlurmCommands::runs},
            {QStringLiteral("report"), &ReportCommands::report},
            {QStringLiteral("discover"), &DiscoverCommands::discover},
            {QStringLiteral("profiles-check"), &DiscoverCommands::profilesCheck},
        };
        const auto it = table.find(name);
        if (it == table.end())
            return -1;
        CliContext ctx;
        return it->second(ctx, args);
    }
};

} // namespace

} // namespace scalelab

// Checked by the executable before it calls anything else here.
extern "C" Q_DECL_EXPORT const char *scalelab_cluster_module_build()
{
    return SCALELAB_BUILD_ID;
}

extern "C" Q_DECL_EXPORT scalelab::ClusterModule *scalelab_cluster_module()
{
    static scalelab::AppClusterModule module;
    return &module;
}
