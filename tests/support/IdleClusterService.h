// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A cluster layer that does nothing: GUI tests derive from it and override
// only what their place asks of the cluster, so a test never needs SSH.
#include "ui/common/ClusterService.h"

namespace scalelab::test {

class IdleClusterService : public ClusterService {
public:
    using ClusterService::ClusterService;
    void submit(const QList<JobSpec> &, const QString &, StudyOrder) override {}
    void dryRun(const JobSpec &) override {}
    void dryRunRun(qint64) override {}
    void cancel(qint64) override {}
    void refreshNow() override {}
    void watchOutput(qint64) override {}
    qint64 watchedRun() const override { return 0; }
    void applySettings() override {}
    void connectionSettingsChanged() override {}
    void setDialogParent(QWidget *) override {}
    QString aliasForProfile(const QString &profileId) const override { return profileId; }
    QStringList clusterAliases() const override { return {QStringLiteral("testbed")}; }
    int pollDelaySeconds(const QString &) const override { return -1; }
};

}   // namespace scalelab::test
