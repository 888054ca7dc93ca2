// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compose/ScalingStudyDialog.h"

#include "ui/common/AppServices.h"
#include "core/model/LaunchGeometry.h"

#include "ui/common/ClusterService.h"
#include "ui/common/RunInBackground.h"
#include "ui/compose/StartCostPanel.h"
#include "core/compose/JobCost.h"
#include "core/store/RunStore.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDate>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

namespace scalelab {

namespace {

enum Col { GpusCol, PartitionCol, NodesCol, TasksCol, GpnCol, TimeCol, HoursCol, BatchCol, FindingsCol, ColCount };

// "--batch-size 64" or "--batch-size=64" in the base arguments: prefill.
bool findBatchArgument(const QStringList &args, QString *name, int *value)
{
    for (int i = 0; i < args.size(); ++i) {
        const QString a = args[i];
        if (!a.startsWith(QLatin1Char('-')) || !a.contains(QLatin1String("batch"), Qt::CaseInsensitive))
            continue;
        bool ok = false;
        if (const int eq = int(a.indexOf(QLatin1Char('='))); eq > 0) {
            *value = a.mid(eq + 1).toInt(&ok);
            *name = a.left(eq);
        } else if (i + 1 < args.size()) {
            *value = args[i + 1].toInt(&ok);
            *name = a;
        }
        if (ok)
            return true;
    }
    return false;
}

}   // namespace

ScalingStudyDialog::ScalingStudyDialog(AppServices &services, const JobSpec &base, const ClusterProfile &profile,
                                       QWidget *parent)
    : QDialog(parent)
    , m_services(services)
    , m_base(base)
    , m_profile(profile)
{
    setWindowTitle(tr("Scaling study"));
    setAccessibleName(tr("Scaling study"));
    const Partition *part = base.partition.isEmpty() ? profile.defaultPartition() : profile.partition(base.partition);

    buildStudyFields();
    QGroupBox *countsBox = buildCountsBox(part);
    QGroupBox *batchBox = buildBatchBox();
    buildVariantsTable();
    QLayout *buttons = buildButtons();

    auto *form = new QFormLayout;
    form->addRow(tr("Study name:"), m_name);
    form->addRow(tr("Runs per GPU count:"), m_repeats);
    form->addRow(tr("Order:"), m_order);
    auto *lay = new QVBoxLayout(this);
    lay->addWidget(new QLabel(tr("Base job: %1 on %2, partition %3, %4, time %5")
                                  .arg(frameworkName(base.framework), profile.name, part ? part->name : base.partition,
                                       base.program, base.time.isEmpty() ? tr("unset") : base.time),
                              this));
    lay->addLayout(form);
    lay->addWidget(countsBox);
    lay->addWidget(batchBox);
    lay->addWidget(m_table, 1);
    lay->addWidget(m_startCost);
    lay->addWidget(m_log);
    lay->addLayout(buttons);
    resize(900, 560);

    connectSignals();
    replan();
    readStudyNames();
}

// The study's cost is the sum of its runs' (JobCostEstimator, in core);
// a start estimate shown is of the study as it was.
void ScalingStudyDialog::showStudyCost()
{
    QList<JobCost> costs;
    for (const StudyVariant &v : m_variants)
        costs << JobCostEstimator::estimate(v.spec, m_profile);
    m_totals->setText(tr("%n run(s)", nullptr, int(m_variants.size())));
    m_startCost->setCost(JobCostEstimator::total(costs).summary());
    m_estimatedGpus = 0;
    m_startCost->setStale();
    const bool haveClusters = m_services.clusters() != nullptr;
    m_startCost->setAskEnabled(haveClusters && !m_variants.isEmpty(),
                               haveClusters ? QString() : AppServices::clustersUnavailableReason());
}

// The study's largest run waits longest: its estimate is the one asked.
void ScalingStudyDialog::estimateStart()
{
    ClusterService *cm = m_services.clusters();
    if (!cm || m_variants.isEmpty())
        return;
    const StudyVariant *largest = &m_variants.front();
    for (const StudyVariant &v : m_variants)
        if (v.spec.gpus > largest->spec.gpus)
            largest = &v;
    m_estimatedGpus = largest->spec.gpus;
    m_startCost->setAsking();
    cm->estimateStart(largest->spec);
}

void ScalingStudyDialog::readStudyNames()
{
    // The stored study names, read on the pool; the name proposed meanwhile is
    // proposed again among them unless the researcher has typed one.
    RunStore *store = &m_services.store();   // AppServices waits for the pool before the store goes
    runInBackground(
        this,
        [store] {
            QStringList names;
            if (const auto studies = store->studies(); studies.ok())   // one row per study, not per run
                for (const StudyRecord &s : studies.value())
                    names << s.name;
            store->closeThreadConnection();   // this pool thread may be reused by others
            return names;
        },
        [this](const QStringList &names) {
            m_studyNames = names;
            m_namesRead = true;
            if (!m_submitted && m_name->text() == m_proposed) {
                const QSignalBlocker block(m_name);
                m_name->setText(m_proposed = proposedName());
            }
        });
}

void ScalingStudyDialog::buildStudyFields()
{
    m_name = new QLineEdit(this);
    m_name->setAccessibleName(tr("Study name"));
    m_name->setText(m_proposed = proposedName());
    m_repeats = new QSpinBox(this);
    m_repeats->setRange(1, kMaxStudyRepeats);
    m_repeats->setValue(1);
    m_repeats->setAccessibleName(tr("Runs per GPU count"));
    m_repeats->setToolTip(tr("Run every GPU count this many times: the charts show the median with the min–max "
                             "range and flag repeats that differ by more than 10 %"));
    m_order = new QComboBox(this);
    m_order->setAccessibleName(tr("Run order"));
    m_order->addItem(tr("One at a time (each job waits for the previous one)"), int(StudyOrder::OneAtATime));
    m_order->addItem(tr("All at once (runs may share nodes and disturb each other's timings)"),
                     int(StudyOrder::AllAtOnce));
    m_order->setToolTip(tr("One at a time chains the jobs with sbatch --dependency=afterany, so no run shares its "
                           "nodes, file system or network with another run of the study"));
}

QGroupBox *ScalingStudyDialog::buildCountsBox(const Partition *part)
{
    const int partMax = part ? part->maxGpus() : 0;
    auto *countsBox = new QGroupBox(tr("GPU counts"), this);
    auto *countsLay = new QHBoxLayout(countsBox);
    const QList<int> defaults = defaultStudyGpuCounts(m_profile, m_base.partition);
    for (int n : studyGpuChoices(m_profile)) {
        auto *cb = new QCheckBox(n > partMax && part ? tr("%1*").arg(n) : QString::number(n), countsBox);
        cb->setAccessibleName(tr("%n GPU(s)", nullptr, n));
        cb->setProperty("gpus", n);
        if (n > partMax && part)
            cb->setToolTip(tr("More than partition %1 allows (%2): this run moves to another partition.")
                               .arg(part->name)
                               .arg(partMax));
        cb->setChecked(defaults.contains(n));
        countsLay->addWidget(cb);
        m_counts << cb;
        connect(cb, &QCheckBox::toggled, this, &ScalingStudyDialog::replan);
    }
    countsLay->addStretch(1);
    return countsBox;
}

QGroupBox *ScalingStudyDialog::buildBatchBox()
{
    auto *batchBox = new QGroupBox(tr("Batch size across GPU counts"), this);
    m_batchNone = new QRadioButton(tr("Leave arguments as they are"), batchBox);
    m_batchPerGpu = new QRadioButton(tr("Keep the per-GPU batch"), batchBox);
    m_batchGlobal = new QRadioButton(tr("Keep the global batch (divide by GPUs)"), batchBox);
    for (auto *r : {m_batchNone, m_batchPerGpu, m_batchGlobal})
        r->setAccessibleName(r->text());
    auto *group = new QButtonGroup(this);
    group->addButton(m_batchNone);
    group->addButton(m_batchPerGpu);
    group->addButton(m_batchGlobal);
    m_batchName = new QLineEdit(batchBox);
    m_batchName->setAccessibleName(tr("Batch size argument or variable"));
    m_batchName->setPlaceholderText(tr("--batch-size or BATCH_SIZE"));
    m_batchValue = new QSpinBox(batchBox);
    m_batchValue->setAccessibleName(tr("Batch size base value"));
    m_batchValue->setRange(1, 1 << 24);
    QString batchName;
    int batchValue = 0;
    if (findBatchArgument(m_base.args, &batchName, &batchValue)) {
        m_batchName->setText(batchName);
        m_batchValue->setValue(std::max(1, batchValue));
        m_batchPerGpu->setChecked(true);
    } else {
        m_batchName->setText(QStringLiteral("--batch-size"));
        m_batchValue->setValue(64);
        m_batchNone->setChecked(true);
    }
    auto *bl = new QFormLayout(batchBox);
    auto *radios = new QHBoxLayout;
    radios->addWidget(m_batchNone);
    radios->addWidget(m_batchPerGpu);
    radios->addWidget(m_batchGlobal);
    radios->addStretch(1);
    bl->addRow(radios);
    bl->addRow(tr("Argument or variable:"), m_batchName);
    bl->addRow(tr("Base value:"), m_batchValue);
    connect(group, &QButtonGroup::buttonToggled, this, [this](QAbstractButton *, bool on) {
        if (on)
            replan();
    });
    connect(m_batchName, &QLineEdit::textChanged, this, &ScalingStudyDialog::replan);
    connect(m_batchValue, &QSpinBox::valueChanged, this, &ScalingStudyDialog::replan);
    return batchBox;
}

void ScalingStudyDialog::buildVariantsTable()
{
    m_table = new QTableWidget(0, ColCount, this);
    m_table->setAccessibleName(tr("Study variants"));
    m_table->setHorizontalHeaderLabels({tr("GPUs"), tr("Partition"), tr("Nodes"), tr("Tasks"), tr("GPUs/node"),
                                        tr("Time"), tr("GPU-hours"), tr("Batch"), tr("Findings")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(FindingsCol, QHeaderView::Stretch);
    m_table->setWordWrap(true);
    m_totals = new QLabel(this);
    m_totals->setAccessibleName(tr("Study totals"));
    m_log = new QLabel(this);
    m_log->setAccessibleName(tr("Study dry run results"));
    m_log->setWordWrap(true);
    m_log->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_startCost = new StartCostPanel(this);
}

QLayout *ScalingStudyDialog::buildButtons()
{
    m_dryRunAll = new QPushButton(QIcon(QStringLiteral(":/scalelab/icons/dryrun.svg")), tr("Dry-run all"), this);
    m_dryRunAll->setAccessibleName(tr("Dry-run all variants"));
    m_submitAll =
        new QPushButton(QIcon(QStringLiteral(":/scalelab/icons/submit.svg")), tr("Submit all as one study"), this);
    m_submitAll->setAccessibleName(tr("Submit all variants as one study"));
    auto *close = new QPushButton(tr("Close"), this);
    close->setAccessibleName(tr("Close"));
    connect(close, &QPushButton::clicked, this, &QDialog::close);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_totals, 1);
    buttons->addWidget(m_dryRunAll);
    buttons->addWidget(m_submitAll);
    buttons->addWidget(close);
    return buttons;
}

void ScalingStudyDialog::connectSignals()
{
    connect(m_repeats, &QSpinBox::valueChanged, this, &ScalingStudyDialog::replan);
    connect(m_order, &QComboBox::currentIndexChanged, this, &ScalingStudyDialog::replan);
    connect(m_name, &QLineEdit::textEdited, this, &ScalingStudyDialog::replan);
    connect(m_submitAll, &QPushButton::clicked, this, &ScalingStudyDialog::submitAll);
    connect(m_dryRunAll, &QPushButton::clicked, this, &ScalingStudyDialog::dryRunAll);
    connect(m_startCost, &StartCostPanel::estimateRequested, this, &ScalingStudyDialog::estimateStart);
    if (ClusterService *cm = m_services.clusters()) {
        connect(cm, &ClusterService::startEstimated, this,
                [this](const QString &profileId, const QString &text, bool ok) {
                    if (m_estimatedGpus > 0 && profileId == m_base.profile)
                        m_startCost->setEstimate(tr("for the %1-GPU run: %2").arg(m_estimatedGpus).arg(text), ok);
                });
        connect(cm, &ClusterService::dryRunFinished, this, [this](const QString &verdict, bool ok) {
            if (m_dryRunsPending <= 0)
                return;   // the Compose place's own dry run
            --m_dryRunsPending;
            m_log->setText(m_log->text() + (m_log->text().isEmpty() ? QString() : QStringLiteral("\n"))
                           + (ok ? QStringLiteral("✓ ") : QStringLiteral("✗ ")) + verdict);
        });
        connect(cm, &ClusterService::submitFinished, this, [this](const QString &text, bool) { m_log->setText(text); });
    }
}

QList<int> ScalingStudyDialog::selectedGpuCounts() const
{
    QList<int> out;
    for (auto *cb : m_counts)
        if (cb->isChecked())
            out << cb->property("gpus").toInt();
    return out;
}

void ScalingStudyDialog::setSelectedGpuCounts(const QList<int> &counts)
{
    for (auto *cb : m_counts) {
        const QSignalBlocker block(cb);
        cb->setChecked(counts.contains(cb->property("gpus").toInt()));
    }
    replan();
}

BatchScaling ScalingStudyDialog::batchScaling() const
{
    BatchScaling b;
    b.mode = m_batchPerGpu->isChecked()   ? BatchScalingMode::KeepPerGpu
             : m_batchGlobal->isChecked() ? BatchScalingMode::KeepGlobal
                                          : BatchScalingMode::None;
    b.name = m_batchName->text().trimmed();
    b.baseValue = m_batchValue->value();
    return b;
}

void ScalingStudyDialog::replan()
{
    const bool batch = !m_batchNone->isChecked();
    m_batchName->setEnabled(batch);
    m_batchValue->setEnabled(batch);
    m_submitted = false;   // a changed study may be submitted (again)
    m_variants = planStudyVariants(m_base, selectedGpuCounts(), batchScaling(), m_profile, repeats());
    m_table->setRowCount(int(m_variants.size()));
    int withErrors = 0;
    QString firstError;
    for (int r = 0; r < m_variants.size(); ++r) {
        const StudyVariant &v = m_variants[r];
        const LaunchGeometry g = computeGeometry(v.spec, m_profile);
        const double h = estimatedGpuHours(v.spec);
        const Diagnostic *err = nullptr;
        for (const auto &d : v.diagnostics)
            if (d.severity == Severity::Error) {
                err = &d;
                break;
            }
        const int warnings = countOf(v.diagnostics, Severity::Warning);
        QString findings = err ? tr("%n error(s): ", nullptr, countOf(v.diagnostics, Severity::Error)) + err->message
                           : warnings ? tr("%n warning(s)", nullptr, warnings)
                                      : tr("ok");
        if (err) {
            ++withErrors;
            if (firstError.isEmpty())
                firstError = tr("%1 GPUs: %2").arg(v.spec.gpus).arg(err->message);
        }
        const QStringList cells{v.repeat > 1 || repeats() > 1 ? tr("%1 (run %2)").arg(v.spec.gpus).arg(v.repeat)
                                                              : QString::number(v.spec.gpus),
                                g.partitionName + (v.partitionChanged ? tr(" (moved)") : QString()),
                                QString::number(g.nodes),
                                QString::number(g.totalTasks()),
                                QString::number(g.gpusPerNode),
                                v.spec.time.isEmpty() ? tr("unset") : v.spec.time,
                                h > 0 ? QString::number(h, 'f', 1) : tr("?"),
                                v.batchValue > 0 ? QString::number(v.batchValue) : tr("—"),
                                findings};
        for (int c = 0; c < ColCount; ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            if (c != PartitionCol && c != FindingsCol && c != TimeCol)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(r, c, item);
        }
        m_table->item(r, FindingsCol)
            ->setIcon(style()->standardIcon(err        ? QStyle::SP_MessageBoxCritical
                                            : warnings ? QStyle::SP_MessageBoxWarning
                                                       : QStyle::SP_DialogApplyButton));
        QStringList tip;
        for (const auto &d : v.diagnostics)
            tip << QStringLiteral("%1: %2").arg(severityName(d.severity), d.message);
        m_table->item(r, FindingsCol)->setToolTip(tip.join(QLatin1Char('\n')));
    }
    m_table->resizeRowsToContents();
    showStudyCost();
    const bool haveClusters = m_services.clusters() != nullptr;
    const bool ok = !m_variants.isEmpty() && withErrors == 0;
    m_submitAll->setEnabled(ok && haveClusters);
    m_dryRunAll->setEnabled(ok && haveClusters);
    const QString why = !haveClusters          ? AppServices::clustersUnavailableReason()
                        : m_variants.isEmpty() ? tr("Choose at least one GPU count.")
                        : withErrors           ? tr("Fix first: %1").arg(firstError)
                                               : QString();
    m_submitAll->setToolTip(why.isEmpty() ? tr("Submit every variant; they are grouped as one study") : why);
    m_dryRunAll->setToolTip(why.isEmpty() ? tr("Ask Slurm about every variant without submitting") : why);
}

int ScalingStudyDialog::repeats() const
{
    return m_repeats ? m_repeats->value() : 1;
}

StudyOrder ScalingStudyDialog::order() const
{
    return m_order ? StudyOrder(m_order->currentData().toInt()) : StudyOrder::OneAtATime;
}

QString ScalingStudyDialog::proposedName(const QStringList &taken) const
{
    const QString stem = QStringLiteral("%1 %2 %3")
                             .arg(m_base.jobName.isEmpty() ? frameworkId(m_base.framework) : m_base.jobName,
                                  m_profile.id, QDate::currentDate().toString(Qt::ISODate));
    return uniqueStudyName(stem, taken + m_studyNames);
}

void ScalingStudyDialog::submitAll()
{
    if (m_submitted)
        return;   // the second click of a double-click
    if (ClusterService *cm = m_services.clusters()) {
        QList<JobSpec> specs;
        for (const auto &v : m_variants)
            specs << v.spec;
        const QString name = m_name->text().trimmed();
        cm->submit(specs, name, order());
        m_submitted = true;
        m_submitAll->setEnabled(false);
        m_submitAll->setToolTip(tr("Submitted as study \"%1\"; change the study to submit another").arg(name));
        m_log->setText(tr("Submitting %n run(s)…", nullptr, int(specs.size())));
        Q_EMIT message(tr("Study \"%1\" submitted.").arg(name));
        // The next study gets a name of its own (the stored list now has this one).
        const QSignalBlocker block(m_name);
        m_studyNames << name;
        m_name->setText(m_proposed = proposedName());
    }
}

void ScalingStudyDialog::dryRunAll()
{
    if (ClusterService *cm = m_services.clusters()) {
        m_log->clear();
        m_dryRunsPending = int(m_variants.size());
        for (const auto &v : m_variants)
            cm->dryRun(v.spec);
    }
}

}   // namespace scalelab
