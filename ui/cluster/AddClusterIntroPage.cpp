// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/cluster/AddClusterIntroPage.h"

#include "ui/cluster/AddClusterLabels.h"

#include <QVBoxLayout>

namespace scalelab {

using addcluster::wrapped;

AddClusterIntroPage::AddClusterIntroPage(QWidget *parent)
    : QWizardPage(parent)
{
    setTitle(tr("Add your cluster"));
    setSubTitle(tr("ScaleLab has no cluster yet. It can learn yours in a minute."));
    auto *lay = new QVBoxLayout(this);
    lay->addWidget(
        wrapped(tr("1. Choose how you log in: an alias of your SSH config, or host, user, port and jump host.\n"
                   "2. ScaleLab connects. A host key it has not seen is shown to you (with its fingerprint) before "
                   "anything else is sent.\n"
                   "3. It runs read-only Slurm commands (scontrol, sinfo, sacctmgr) in one round trip and builds a "
                   "profile: partitions, GPUs per node, time and node limits, QOS limits, each with the command and "
                   "date it came from.\n"
                   "4. You review and edit what was found, save it as your profile, and start composing jobs with it."),
                this));
    lay->addStretch(1);
}

}   // namespace scalelab
