// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/common/ClusterDiscovery.h"

#include <QPointer>
#include <QWizard>

#include <memory>
#include <optional>

class QTemporaryDir;

namespace scalelab {

class AddClusterConnectPage;
class AddClusterDiscoverPage;
class AddClusterIntroPage;
class AddClusterReviewPage;
class AppServices;
class ClusterConnection;
class GuiSshCallbacks;
struct SshConnectionSettings;

// "Add your cluster": login details → host key check, connection test and
// discovery on a worker thread (a ClusterConnection of its own, with the
// window's host key / passphrase / MFA dialogs) → review and edit → the
// profile is saved in the user profile folder, the connection in the
// settings, and Compose opens with the new profile selected.
//
// Nothing here waits: the worker posts each step back; leaving the page or
// closing the wizard cancels the questions and lets the worker end alone.
class AddClusterWizard : public QWizard {
    Q_OBJECT
public:
    enum PageId { IntroPage, ConnectPage, DiscoverPage, ReviewPage };

    explicit AddClusterWizard(AppServices &services, QWidget *parent = nullptr);
    ~AddClusterWizard() override;

    AddClusterConnectPage *connectPage() const { return m_connect; }
    AddClusterDiscoverPage *discoverPage() const { return m_discover; }
    AddClusterReviewPage *reviewPage() const { return m_review; }
    bool isDiscovering() const { return m_task != nullptr; }
    const std::optional<DiscoveryOutcome> &outcome() const { return m_outcome; }
    QString savedProfileId() const { return m_savedId; }
    QString savedPath() const { return m_savedPath; }

    void accept() override;

Q_SIGNALS:
    void discoveryFinished(bool ok);
    // The profile is saved and Compose was asked to select it.
    void profileAdded(const QString &profileId);

private:
    void startDiscovery();
    bool writeTrialConfig(SshConnectionSettings &settings);
    void enqueueDiscovery(ClusterConnection *conn, const SshConnectionSettings &settings);
    void cancelDiscovery();
    void onStep(const QString &line);
    void onFinished(const DiscoveryOutcome &outcome);
    Result<void> save();

    AppServices &m_services;
    AddClusterIntroPage *m_intro;
    AddClusterConnectPage *m_connect;
    AddClusterDiscoverPage *m_discover;
    AddClusterReviewPage *m_review;
    ClusterConnection *m_task = nullptr;   // deletes itself once its task ended
    GuiSshCallbacks *m_callbacks = nullptr;
    std::shared_ptr<QTemporaryDir> m_configDir;   // the one-off SSH config of "host details"
    QString m_alias;   // alias the discovery ran through
    std::optional<DiscoveryOutcome> m_outcome;
    QString m_savedId;
    QString m_savedPath;
};

}   // namespace scalelab
