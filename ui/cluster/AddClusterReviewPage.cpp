// SPDX-License-Identifier: GPL-3.0-or-later
// The review page of "Add your cluster": what discovery found, with its
// sources, editable before it is saved.
#include "ui/cluster/AddClusterReviewPage.h"

#include "ui/cluster/AddClusterLabels.h"

#include "core/slurm/SlurmTime.h"

#include <QDate>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

namespace scalelab {

namespace {

using addcluster::wrapped;

const QString kNotKnown = QStringLiteral("not known");

// One edited value of the review table, read as a number or a Slurm time; a
// value that cannot be read sets `problem`.
struct EditedValue {
    QString owner;
    QString field;
    QString text;
    QString &problem;

    bool number(qint64 *out) const
    {
        bool ok = false;
        const qint64 n = text.toLongLong(&ok);
        if (!ok || n < 0)
            problem = AddClusterReviewPage::tr("%1 %2: \"%3\" is not a whole number ≥ 0.").arg(owner, field, text);
        *out = n;
        return ok && n >= 0;
    }

    bool seconds(qint64 *out) const
    {
        if (text.compare(QLatin1String("UNLIMITED"), Qt::CaseInsensitive) == 0
            || text == AddClusterReviewPage::tr("none")) {
            *out = 0;
            return true;
        }
        const auto s = SlurmTime::parseSeconds(text);
        if (!s)
            problem = AddClusterReviewPage::tr("%1 %2: \"%3\" is not a Slurm time (e.g. 2-00:00:00 or UNLIMITED).")
                          .arg(owner, field, text);
        *out = s.value_or(0);
        return s.has_value();
    }
};

void applyQosEdit(ClusterProfile &p, const EditedValue &v, const QString &qosName, const QString &edited)
{
    qint64 n = 0;
    for (QosLimits &q : p.qos) {
        if (q.name != qosName)
            continue;
        if (v.field == QLatin1String("maxWall") && v.seconds(&n))
            q.maxWallSeconds = n;
        else if (v.field == QLatin1String("maxGpusPerJob") && v.number(&n))
            q.maxGpusPerJob = int(n);
        else if (v.field == QLatin1String("maxNodesPerJob") && v.number(&n))
            q.maxNodesPerJob = int(n);
        q.source = edited;
    }
}

// A partition's numeric field from a whole number (nothing when `field` is none of them).
void setPartitionNumber(Partition &part, const QString &field, qint64 n)
{
    if (field == QLatin1String("minNodes"))
        part.minNodes = int(n);
    else if (field == QLatin1String("maxNodes"))
        part.maxNodes = int(n);
    else if (field == QLatin1String("gpusPerNode"))
        part.gpusPerNode = int(n);
    else if (field == QLatin1String("cpusPerNode"))
        part.cpusPerNode = int(n);
    else if (field == QLatin1String("memoryPerNodeMB"))
        part.memoryPerNodeMB = n;
}

void applyPartitionEdit(ClusterProfile &p, const EditedValue &v, const QString &edited)
{
    qint64 n = 0;
    for (Partition &part : p.partitions) {
        if (part.name != v.owner)
            continue;
        bool set = false;
        if (v.field == QLatin1String("maxTime"))
            set = v.seconds(&part.maxTimeSeconds);
        else if (v.field == QLatin1String("gpuType")) {
            part.gpuType = v.text;
            set = true;
        } else if (v.number(&n)) {
            set = true;
            setPartitionNumber(part, v.field, n);
        }
        if (set) {
            part.unknown.removeAll(v.field);
            part.sources.insert(v.field, edited);
        }
    }
}

}   // namespace

AddClusterReviewPage::AddClusterReviewPage(QWidget *parent)
    : QWizardPage(parent)
    , m_id(new QLineEdit(this))
    , m_name(new QLineEdit(this))
    , m_table(new QTableWidget(0, 4, this))
    , m_notes(wrapped(QString(), this))
    , m_problem(wrapped(QString(), this))
{
    setTitle(tr("Review what was found"));
    setSubTitle(tr(
        "Double-click a value to edit it; an edited value is saved with \"edited by the researcher\" as its source."));
    m_id->setObjectName(QStringLiteral("profileIdEdit"));
    m_name->setObjectName(QStringLiteral("profileNameEdit"));
    m_table->setObjectName(QStringLiteral("reviewTable"));
    m_table->setHorizontalHeaderLabels({tr("Partition"), tr("Setting"), tr("Value"), tr("Source")});
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_notes->setObjectName(QStringLiteral("reviewNotes"));
    m_problem->setObjectName(QStringLiteral("problemLabel"));
    m_problem->setStyleSheet(QStringLiteral("color: #c62828;"));
    auto *form = new QFormLayout;
    form->addRow(tr("Profile id:"), m_id);
    form->addRow(tr("Name:"), m_name);
    auto *lay = new QVBoxLayout(this);
    lay->addLayout(form);
    lay->addWidget(m_table, 1);
    lay->addWidget(m_notes);
    lay->addWidget(m_problem);
    connect(m_id, &QLineEdit::textChanged, this, &QWizardPage::completeChanged);
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (item->column() != 2)
            return;
        m_problem->clear();
        // Shown at once as it will be saved: an edited value is the researcher's.
        QTableWidgetItem *source = m_table->item(item->row(), 3);
        if (source && item->text().trimmed() != item->data(Qt::UserRole).toString()) {
            const QSignalBlocker block(m_table);
            source->setText(tr("edited by the researcher %1").arg(QDate::currentDate().toString(Qt::ISODate)));
        }
    });
}

void AddClusterReviewPage::addRow(const QString &partition, const QString &field, const QString &value,
                                  const QString &source, bool editable)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const QStringList cells{partition, field, value, source};
    for (int c = 0; c < 4; ++c) {
        auto *item = new QTableWidgetItem(cells[c]);
        Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
        if (c == 2 && editable)
            f |= Qt::ItemIsEditable;
        item->setFlags(f);
        if (c == 2)
            item->setData(Qt::UserRole, value);   // what was found: an unchanged cell keeps its source
        if (c == 3)
            item->setToolTip(source);
        m_table->setItem(row, c, item);
    }
}

void AddClusterReviewPage::setProfile(const ClusterProfile &p, const Diagnostics &diagnostics)
{
    m_profile = p;
    m_id->setText(p.id);
    m_name->setText(p.name);
    const QSignalBlocker block(m_table);
    m_table->setRowCount(0);
    auto known = [](const Partition &part, const char *key, const QString &v) {
        return part.isKnown(QLatin1String(key)) ? v : kNotKnown;
    };
    for (const Partition &part : p.partitions) {
        // A limit without its own source comes from the partition's line (as ProfileJson writes it).
        auto src = [&](const char *key) {
            return part.sources.value(QLatin1String(key), part.sources.value(QStringLiteral("partition")));
        };
        addRow(part.name, QStringLiteral("default"), part.isDefault ? tr("yes") : tr("no"), src("default"), false);
        addRow(part.name, QStringLiteral("maxTime"),
               known(part, "maxTime",
                     part.maxTimeSeconds ? SlurmTime::format(part.maxTimeSeconds) : QStringLiteral("UNLIMITED")),
               src("maxTime"), true);
        addRow(part.name, QStringLiteral("minNodes"), known(part, "minNodes", QString::number(part.minNodes)),
               src("minNodes"), true);
        addRow(part.name, QStringLiteral("maxNodes"), known(part, "maxNodes", QString::number(part.maxNodes)),
               src("maxNodes"), true);
        addRow(part.name, QStringLiteral("gpuType"), known(part, "gpuType", part.gpuType), src("gpuType"), true);
        addRow(part.name, QStringLiteral("gpusPerNode"), known(part, "gpusPerNode", QString::number(part.gpusPerNode)),
               src("gpusPerNode"), true);
        addRow(part.name, QStringLiteral("cpusPerNode"), known(part, "cpusPerNode", QString::number(part.cpusPerNode)),
               src("cpusPerNode"), true);
        addRow(part.name, QStringLiteral("memoryPerNodeMB"),
               known(part, "memoryPerNodeMB", QString::number(part.memoryPerNodeMB)), src("memoryPerNodeMB"), true);
        if (!part.qos.isEmpty())
            addRow(part.name, QStringLiteral("qos"), part.qos, src("qos"), false);
        for (const NodeType &t : part.nodeTypes)
            addRow(part.name, QStringLiteral("nodeType"),
                   tr("%1 × %2 %3 GPU, %4 CPUs, %5 MB")
                       .arg(t.count)
                       .arg(t.gpus)
                       .arg(t.gpuType)
                       .arg(t.cpus)
                       .arg(t.memoryMB),
                   src("nodeTypes"), false);
    }
    for (const QosLimits &q : p.qos) {
        const QString who = tr("QOS %1").arg(q.name);
        addRow(who, QStringLiteral("maxWall"), q.maxWallSeconds ? SlurmTime::format(q.maxWallSeconds) : tr("none"),
               q.source, true);
        addRow(who, QStringLiteral("maxGpusPerJob"), QString::number(q.maxGpusPerJob), q.source, true);
        addRow(who, QStringLiteral("maxNodesPerJob"), QString::number(q.maxNodesPerJob), q.source, true);
    }
    m_table->resizeColumnsToContents();
    QStringList notes;
    for (const Diagnostic &d : diagnostics)
        notes << QStringLiteral("%1: %2").arg(severityName(d.severity), d.message);
    m_notes->setText(notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!notes.isEmpty());
    Q_EMIT completeChanged();
}

int AddClusterReviewPage::rowOf(const QString &partition, const QString &field) const
{
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (m_table->item(r, 0)->text() == partition && m_table->item(r, 1)->text() == field)
            return r;
    return -1;
}

Result<ClusterProfile> AddClusterReviewPage::editedProfile() const
{
    // The first problem found stops the reading (the page shows one at a time).
    QString problem;
    ClusterProfile p = m_profile;
    p.id = m_id->text().trimmed();
    p.name = m_name->text().trimmed().isEmpty() ? p.id : m_name->text().trimmed();
    static const QRegularExpression idRe(QStringLiteral("^[a-z0-9][a-z0-9_-]*$"));
    if (!idRe.match(p.id).hasMatch()) {
        return fail(ErrorCode::InvalidValue,
                    tr("Profile id \"%1\": use lower-case letters, digits, - or _ (e.g. mycluster).").arg(p.id));
    }
    const QString edited = tr("edited by the researcher %1").arg(QDate::currentDate().toString(Qt::ISODate));
    for (int r = 0; r < m_table->rowCount() && problem.isEmpty(); ++r) {
        const QTableWidgetItem *valueItem = m_table->item(r, 2);
        if (!(valueItem->flags() & Qt::ItemIsEditable))
            continue;
        const EditedValue v{m_table->item(r, 0)->text(), m_table->item(r, 1)->text(), valueItem->text().trimmed(),
                            problem};
        if (v.text == valueItem->data(Qt::UserRole).toString())
            continue;   // unchanged: keeps its discovered value and source
        if (v.owner.startsWith(tr("QOS ")))
            applyQosEdit(p, v, v.owner.mid(tr("QOS ").size()), edited);
        else
            applyPartitionEdit(p, v, edited);
    }
    if (!problem.isEmpty())
        return fail(ErrorCode::InvalidValue, problem);
    return p;
}

void AddClusterReviewPage::showProblem(const QString &text)
{
    m_problem->setText(text);
}

bool AddClusterReviewPage::isComplete() const
{
    return !m_id->text().trimmed().isEmpty() && m_table->rowCount() > 0;
}

bool AddClusterReviewPage::validatePage()
{
    const auto edited = editedProfile();
    m_problem->setText(edited.errorText());
    return edited.ok();
}

}   // namespace scalelab
