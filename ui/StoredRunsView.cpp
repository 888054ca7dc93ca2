#include "StoredRunsView.h"

#include "AppServices.h"
#include "JobSpecJson.h"
#include "RunStore.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace scalelab {

StoredRunsView::StoredRunsView(AppServices &services, const QString &title, QWidget *parent)
    : QWidget(parent), m_services(services)
{
    setAccessibleName(title);
    auto *heading = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()), this);
    m_status = new QLabel(tr("Loading stored runs…"), this);
    m_status->setAccessibleName(tr("Stored runs status"));
    m_tree = new QTreeWidget(this);
    m_tree->setAccessibleName(tr("Stored runs"));
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);   // fast with thousands of runs
    m_tree->setHeaderLabels({tr("Run"), tr("Cluster"), tr("Partition"), tr("GPUs"), tr("Nodes"), tr("Framework"),
                             tr("Job"), tr("State"), tr("Created")});
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto *clone = new QPushButton(tr("Clone spec into Compose"), this);
    clone->setAccessibleName(tr("Clone the selected run's spec into Compose"));
    auto *lay = new QVBoxLayout(this);
    lay->addWidget(heading);
    lay->addWidget(m_status);
    lay->addWidget(m_tree, 1);
    lay->addWidget(clone, 0, Qt::AlignLeft);
    connect(clone, &QPushButton::clicked, this, &StoredRunsView::cloneSelected);
    connect(m_tree, &QTreeWidget::itemDoubleClicked, this, &StoredRunsView::cloneSelected);
    connect(&services, &AppServices::runsChanged, this, [this] {
        if (m_loaded)
            reload();
    });
}

void StoredRunsView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_loaded) {
        m_loaded = true;
        QTimer::singleShot(0, this, &StoredRunsView::reload);   // after the first paint
    }
}

void StoredRunsView::reload()
{
    const auto runs = m_services.store().runs();
    if (!runs.ok()) {
        m_status->setText(tr("Could not read the run store: %1").arg(runs.error));
        return;
    }
    m_tree->clear();
    QList<QTreeWidgetItem *> items;
    for (const RunRecord &r : runs.value) {
        auto *item = new QTreeWidgetItem({QString::number(r.id), r.clusterAlias.isEmpty() ? r.profile : r.clusterAlias,
                                          r.partition, QString::number(r.gpus), QString::number(r.nodes), r.framework,
                                          r.jobId, SlurmJobState::displayName(r.state),
                                          r.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))});
        item->setData(0, Qt::UserRole, r.id);
        items << item;
    }
    m_tree->addTopLevelItems(items);
    m_status->setText(tr("%n stored run(s).", nullptr, int(runs.value.size())));
}

void StoredRunsView::cloneSelected()
{
    QTreeWidgetItem *item = m_tree->currentItem();
    if (!item)
        return;
    const auto run = m_services.store().run(item->data(0, Qt::UserRole).toLongLong());
    if (!run.ok())
        return;
    const auto parsed = parseJobSpec(run.value.specJson);
    if (parsed.spec) {
        Q_EMIT m_services.openSpecRequested(*parsed.spec);
        Q_EMIT m_services.showPlaceRequested(0);
    } else {
        m_status->setText(tr("Run %1's spec cannot be read: %2").arg(run.value.id).arg(parsed.errors.value(0).message));
    }
}

} // namespace scalelab
