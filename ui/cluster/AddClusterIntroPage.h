// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWizardPage>

namespace scalelab {

// The first page of "Add your cluster" (AddClusterWizard): what the wizard will do.
class AddClusterIntroPage : public QWizardPage {
    Q_OBJECT
public:
    explicit AddClusterIntroPage(QWidget *parent = nullptr);
};

}   // namespace scalelab
