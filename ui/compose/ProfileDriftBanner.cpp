// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compose/ProfileDriftBanner.h"

#include "ui/common/AppServices.h"
#include "ui/common/ClusterService.h"
#include "core/profiles/ProfileRegistry.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace scalelab {

ProfileDriftBanner::ProfileDriftBanner(AppServices &services, QWidget *parent)
    : QFrame(parent)
    , m_services(services)
    , m_label(new QLabel(this))
    , m_review(new QPushButton(tr("Review"), this))
    , m_update(new QPushButton(tr("Update"), this))
    , m_table(new QTableWidget(0, 4, this))
{
    setObjectName(QStringLiteral("profileDriftBanner"));
    setAccessibleName(tr("Profile differs from the cluster"));
    setFrameShape(QFrame::StyledPanel);
    // A calm amber: a notice, not an error (the job may still be fine).
    setStyleSheet(
        QStringLiteral("#profileDriftBanner { background: #fff4d6; border: 1px solid #e0b040; border-radius: 4px; }"
                       "#profileDriftBanner QLabel { color: #3d2e00; }"));
    m_label->setObjectName(QStringLiteral("driftText"));
    m_label->setAccessibleName(tr("Profile check"));
    m_label->setTextFormat(Qt::PlainText);
    m_review->setObjectName(QStringLiteral("driftReview"));
    m_review->setAccessibleName(tr("Review the differences"));
    m_review->setCheckable(true);
    m_review->setToolTip(tr("List each difference: partition, setting, profile value, cluster value"));
    m_update->setObjectName(QStringLiteral("driftUpdate"));
    m_update->setAccessibleName(tr("Update the profile from the cluster"));
    m_update->setToolTip(tr("Write the profile as the cluster describes it into your profile folder"));
    m_table->setObjectName(QStringLiteral("driftTable"));
    m_table->setAccessibleName(tr("Differences between the profile and the cluster"));
    m_table->setHorizontalHeaderLabels({tr("Partition"), tr("Setting"), tr("Profile"), tr("Cluster")});
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setVisible(false);

    auto *row = new QHBoxLayout;
    row->addWidget(m_label);
    row->addWidget(m_review);
    row->addWidget(m_update);
    row->addStretch(1);
    auto *lay = new QVBoxLayout(this);
    lay->setContentsMargins(8, 6, 8, 6);
    lay->addLayout(row);
    lay->addWidget(m_table);
    setVisible(false);

    connect(m_review, &QPushButton::toggled, m_table, &QWidget::setVisible);
    connect(m_update, &QPushButton::clicked, this, [this] {
        if (const auto updated = update(); !updated)
            Q_EMIT message(updated.errorText());
    });
    connect(&services, &AppServices::clustersChanged, this, &ProfileDriftBanner::attachClusters);
    connect(&services, &AppServices::profilesChanged, this, [this] {
        // The profile itself changed (Update, Refresh, a new profile): compare
        // the last reading with it again, no new round trip.
        if (m_cluster && m_services.profiles().find(m_profileId))
            showDifferences();
    });
    attachClusters();
}

void ProfileDriftBanner::followProfileCombo(QComboBox *combo)
{
    connect(combo, &QComboBox::currentIndexChanged, this,
            [this, combo] { setProfile(combo->currentData().toString()); });
    setProfile(combo->currentData().toString());
}

void ProfileDriftBanner::attachClusters()
{
    ClusterService *c = m_services.clusters();
    if (c == m_clusters)
        return;
    if (m_clusters)
        m_clusters->disconnect(this);
    m_clusters = c;
    if (!c)
        return;
    connect(c, &ClusterService::profileDiscovered, this, &ProfileDriftBanner::onDiscovered);
    // Any news of a connection may mean "connected now" (or reconnected:
    // read the cluster again, its limits may have changed meanwhile).
    connect(c, &ClusterService::connectionStatus, this, [this](const QString &alias, const QString &) {
        if (alias != m_alias)
            return;
        if (!m_clusters->isConnected(alias))
            m_checkedFor.clear();
        maybeCheck();
    });
    setProfile(m_profileId);
}

void ProfileDriftBanner::setProfile(const QString &profileId)
{
    if (profileId != m_profileId) {
        m_cluster.reset();
        m_differences.clear();
        setVisible(false);
    }
    m_profileId = profileId;
    m_alias = m_clusters && !profileId.isEmpty() ? m_clusters->aliasForProfile(profileId) : QString();
    maybeCheck();
}

void ProfileDriftBanner::maybeCheck()
{
    const ClusterProfile *profile = m_services.profiles().find(m_profileId);
    if (!profile || !m_clusters || m_alias.isEmpty() || m_pending || !m_clusters->isConnected(m_alias))
        return;
    const QString key = m_profileId + QLatin1Char('@') + m_alias;
    if (key == m_checkedFor)
        return;
    m_checkedFor = key;
    m_pending = m_clusters->discoverProfile(m_alias, *profile);
}

bool ProfileDriftBanner::refresh()
{
    const ClusterProfile *profile = m_services.profiles().find(m_profileId);
    if (!profile) {
        Q_EMIT message(tr("Choose a cluster profile to refresh."));
        return false;
    }
    if (profile->discovered.isEmpty()) {
        // A hand-written profile keeps its curated text; the banner's Update
        // replaces it only when the researcher chooses so.
        Q_EMIT message(tr("Profile %1 was written by hand, not discovered: compare it with the cluster in the banner "
                          "(Review / Update) or add the cluster again (Clusters ▸ Add cluster…).")
                           .arg(m_profileId));
        return false;
    }
    if (!m_clusters || m_alias.isEmpty()) {
        Q_EMIT message(AppServices::clustersUnavailableReason());
        return false;
    }
    if (m_pending) {
        m_refreshing = true;   // the reading under way is used
        return true;
    }
    m_pending = m_clusters->discoverProfile(m_alias, *profile);
    m_refreshing = m_pending;
    if (m_pending)
        Q_EMIT message(tr("Reading %1's Slurm facts to refresh profile %2…").arg(m_alias, m_profileId));
    else
        Q_EMIT message(tr("Cannot refresh %1 now: log in to %2 first (Refresh in Jobs).").arg(m_profileId, m_alias));
    return m_pending;
}

void ProfileDriftBanner::onDiscovered(const QString &alias, const DiscoveryOutcome &outcome)
{
    if (alias != m_alias || !m_pending)
        return;
    m_pending = false;
    const bool refreshing = std::exchange(m_refreshing, false);
    if (!outcome.ok()) {
        m_checkedFor.clear();   // try again on the next connection news
        Q_EMIT message(tr("Could not compare profile %1 with %2: %3").arg(m_profileId, alias, outcome.error));
        return;
    }
    m_cluster = outcome.built.profile;
    if (refreshing) {
        if (const auto updated = update(); !updated)
            Q_EMIT message(updated.errorText());
        return;
    }
    showDifferences();
}

void ProfileDriftBanner::showDifferences()
{
    const ClusterProfile *profile = m_services.profiles().find(m_profileId);
    m_differences = profile && m_cluster ? ProfileCheck::compare(*profile, *m_cluster) : QList<ProfileDifference>();
    const int n = int(m_differences.size());
    m_label->setText(n == 1 ? tr("This profile differs from the cluster in 1 place —")
                            : tr("This profile differs from the cluster in %1 places —").arg(n));
    m_table->setRowCount(n);
    for (int r = 0; r < n; ++r) {
        const ProfileDifference &d = m_differences[r];
        const QStringList cells{d.partition.isEmpty() ? tr("(site)") : d.partition, d.field, d.profileValue,
                                d.clusterValue};
        for (int c = 0; c < 4; ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setToolTip(c == 3 ? d.source : cells[c]);
            m_table->setItem(r, c, item);
        }
    }
    m_table->resizeColumnsToContents();
    // Tall enough for its rows (up to six), never more than the form needs.
    const int rows = std::min(n, 6);
    m_table->setFixedHeight(m_table->horizontalHeader()->height()
                            + rows * m_table->verticalHeader()->defaultSectionSize() + 4);
    setVisible(n > 0);
    Q_EMIT checked(n);
}

Result<void> ProfileDriftBanner::update()
{
    const ClusterProfile *profile = m_services.profiles().find(m_profileId);
    if (!profile || !m_cluster)
        return fail(ErrorCode::WrongState, tr("Nothing to update: the cluster has not been read yet."));
    const int n = int(ProfileCheck::compare(*profile, *m_cluster).size());
    const ClusterProfile refreshed = refreshedProfile(*profile, *m_cluster);
    const auto saved = saveUserProfile(refreshed);
    if (!saved)
        return fail(saved.error());
    const QString path = *saved;
    m_services.reloadProfiles();   // profilesChanged compares again: the banner goes
    const ClusterProfile *now = m_services.profiles().find(m_profileId);
    if (!now || now->filePath != path)
        return fail(ErrorCode::InvalidValue,
                    tr("%1 was written, but another profile with id %2 takes precedence (see Settings ▸ profiles).")
                        .arg(path, m_profileId));
    Q_EMIT message(tr("Profile %1 updated from %2 (%n difference(s) taken over, read %3); saved in %4.", nullptr, n)
                       .arg(m_profileId, m_alias, refreshed.discovered.section(QLatin1Char(' '), -1), path));
    return success();
}

QString ProfileDriftBanner::text() const
{
    return isHidden() ? QString() : m_label->text();
}

}   // namespace scalelab
