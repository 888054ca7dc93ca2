// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/common/ClusterDiscovery.h"

#include <QFrame>
#include <QPointer>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace scalelab {

class AppServices;
class ClusterService;

// The Compose banner of issue 13: once the current profile's cluster is
// connected, the profile is compared with what the cluster says (discovery
// on the cluster's worker, ProfileCheck here) and, when they differ:
//   "This profile differs from the cluster in 2 places — Review / Update".
// Review lists partition, field, profile value and cluster value; Update
// writes the refreshed profile into the user profile folder. refresh() (the
// window's Refresh) re-runs discovery and rewrites the profile, dates and all.
// One check per profile and connection: switching profiles or reconnecting
// checks again; nothing here connects on its own.
class ProfileDriftBanner : public QFrame {
    Q_OBJECT
public:
    explicit ProfileDriftBanner(AppServices &services, QWidget *parent = nullptr);

    // Follows Compose's profile choice (the combo's item data is the id).
    void followProfileCombo(QComboBox *combo);
    void setProfile(const QString &profileId);
    QString profileId() const { return m_profileId; }

    // Re-runs discovery for the current profile and writes the refreshed
    // profile (connects when needed). False, with message(), when it cannot.
    bool refresh();
    // Writes the profile as the cluster describes it (the Update button).
    Result<void> update();

    const QList<ProfileDifference> &differences() const { return m_differences; }
    QString text() const;
    QPushButton *reviewButton() const { return m_review; }
    QPushButton *updateButton() const { return m_update; }
    QTableWidget *reviewTable() const { return m_table; }
    bool isChecking() const { return m_pending; }

Q_SIGNALS:
    void message(const QString &text);
    // A reading of the cluster was compared (tests and the status bar wait on it).
    void checked(int differences);

private:
    void attachClusters();
    void maybeCheck();
    void onDiscovered(const QString &alias, const DiscoveryOutcome &outcome);
    void showDifferences();

    AppServices &m_services;
    QPointer<ClusterService> m_clusters;
    QString m_profileId;
    QString m_alias;
    QString m_checkedFor;   // "profile@alias" read since the last (re)connect
    bool m_pending = false;
    bool m_refreshing = false;
    std::optional<ClusterProfile> m_cluster;   // the last reading, for Update
    QList<ProfileDifference> m_differences;
    QLabel *m_label;
    QPushButton *m_review;
    QPushButton *m_update;
    QTableWidget *m_table;
};

}   // namespace scalelab
