// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compose/JobForm.h"
#include "core/model/SpecFields.h"

#include "ui/compose/EnvironmentEditor.h"
#include "ui/compose/SegmentsEditor.h"
#include "ui/compose/StartCostPanel.h"
#include "ui/common/WheelGuard.h"
#include "core/profiles/ProfileRegistry.h"
#include "core/base/InputLimits.h"
#include "core/base/ShellQuote.h"
#include "core/base/ShellWords.h"
#include "core/slurm/SlurmTime.h"

#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QHash>
#include <QStandardItemModel>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>

namespace scalelab {

namespace {

QString memoryText(qint64 mb)
{
    return mb >= 1024 ? QStringLiteral("%1 GB").arg(mb / 1024) : QStringLiteral("%1 MB").arg(mb);
}

QString partitionItemText(const Partition &p)
{
    if (p.gpusPerNode <= 0)
        return QObject::tr("%1 — no GPUs").arg(p.name);
    return QObject::tr("%1 — %2× %3 per node, up to %4 GPUs")
        .arg(p.name)
        .arg(p.gpusPerNode)
        .arg(p.gpuType.isEmpty() ? QObject::tr("GPU") : p.gpuType)
        .arg(p.maxGpus());
}

QStringList splitArguments(const QString &text)
{
    QStringList out;
    for (const auto &cmd : lexShell(text).commands)
        out << cmd.texts();
    return out;
}

}   // namespace

JobForm::JobForm(const ProfileRegistry &profiles, QWidget *parent)
    : QWidget(parent)
    , m_profiles(profiles)
{
    createFields();
    layOutGroups();
    setFieldOrder();
    // Scrolling the form over a spin box or combo must not change it.
    WheelGuard::guardChildren(this);
    buildProfiles();
    connectFields();
}

void JobForm::createFields()
{
    auto named = [this](auto *w, const QString &name, const QString &field, const QString &tip = {}) {
        w->setAccessibleName(name);
        w->setObjectName(field);
        if (!tip.isEmpty())
            w->setToolTip(tip);
        m_fields.insert(field, w);
        return w;
    };
    m_profile = named(new QComboBox(this), tr("Cluster profile"), QStringLiteral("profile"));
    m_partition = named(new QComboBox(this), tr("Partition"), QStringLiteral("partition"));
    m_partition->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_partition->setMinimumContentsLength(18);
    m_partitionInfo = new QLabel(this);
    m_partitionInfo->setObjectName(QStringLiteral("partitionInfo"));
    m_partitionInfo->setAccessibleName(tr("Partition limits"));
    m_partitionInfo->setWordWrap(true);
    m_partitionInfo->setAlignment(Qt::AlignLeft
                                  | Qt::AlignTop);   // the height kept for the tallest partition stays below the text
    m_partitionInfo->installEventFilter(this);   // its width sets the height kept for every partition
    m_partitionInfo->setForegroundRole(QPalette::PlaceholderText);
    m_startCost = new StartCostPanel(this);
    m_gpus = named(new QSpinBox(this), tr("Total GPUs"), QStringLiteral("gpus"),
                   tr("GPUs of the whole job; the maximum is what the partition allows"));
    m_gpus->setRange(1, 4096);
    m_nodes = named(new QSpinBox(this), tr("Nodes"), QStringLiteral("nodes"),
                    tr("0 = derived from the GPUs and the GPUs per node"));
    m_nodes->setRange(0, 4096);
    m_nodes->setSpecialValueText(tr("auto"));
    m_framework = named(new QComboBox(this), tr("Framework"), QStringLiteral("framework"));
    for (Framework f : allFrameworks())
        m_framework->addItem(frameworkName(f), frameworkId(f));
    m_launcher = named(new QComboBox(this), tr("Launcher"), QStringLiteral("launcher"),
                       tr("How the training processes are started; the choices fit the framework"));
    m_time = named(new QLineEdit(this), tr("Time limit"), QStringLiteral("time"),
                   tr("Slurm time: MM, HH:MM:SS, D-HH or D-HH:MM:SS"));
    m_time->setPlaceholderText(tr("HH:MM:SS or D-HH:MM:SS"));
    m_account = named(new QLineEdit(this), tr("Account"), QStringLiteral("account"),
                      tr("The billing project of the job (--account)"));
    m_jobName = named(new QLineEdit(this), tr("Job name"), QStringLiteral("jobName"));
    m_jobName->setPlaceholderText(tr("shown by squeue"));
    m_program = named(new QLineEdit(this), tr("Program"), QStringLiteral("program"),
                      tr("The training script: its path on the cluster, or inside the project folder (then "
                         "relative, e.g. train.py)"));
    m_program->setPlaceholderText(tr("/path/on/cluster/train.py"));
    m_args = named(new QLineEdit(this), tr("Arguments"), QStringLiteral("args"),
                   tr("Program arguments, split like a shell: quote words with spaces; $NAME expands on the cluster, "
                      "nothing else does"));
    m_args->setPlaceholderText(tr("--epochs 10 --batch-size 64"));
    m_cpusPerGpu = named(new QSpinBox(this), tr("CPUs per GPU"), QLatin1String(SpecField::cpusPerGpu),
                         tr("0 = the node's CPUs shared evenly among its GPUs"));
    m_cpusPerGpu->setRange(0, 1024);
    m_cpusPerGpu->setSpecialValueText(tr("auto"));
    m_memory = named(new QLineEdit(this), tr("Memory per node"), QStringLiteral("memory"),
                     tr("Slurm --mem, e.g. 64G; empty = the site default"));
    m_memory->setPlaceholderText(tr("site default, e.g. 64G"));
    m_sampling = named(new QSpinBox(this), tr("GPU sampling interval"), QStringLiteral("monitoring.gpuSampleSeconds"),
                       tr("Seconds between GPU utilisation samples; 0 = off"));
    m_sampling->setRange(0, 3600);
    m_sampling->setSuffix(tr(" s"));
    m_sampling->setSpecialValueText(tr("off"));
    m_metricDirs = named(new QLineEdit(this), tr("Metric folders"), QLatin1String(SpecField::metricDirs),
                         tr("Where the job writes metric files (trainer_state.json, metrics.csv, TensorBoard, "
                            "mlruns, wandb) besides its run folder and the folders its arguments name "
                            "(--output_dir, --logging_dir, ...): absolute or relative to the run folder, "
                            "$NAME expands on the cluster; split like a shell"));
    m_metricDirs->setPlaceholderText(tr("the run folder and --output_dir; more, e.g. /scratch/$USER/tb"));
    m_projectFolder = named(new QLineEdit(this), tr("Project folder"), QLatin1String(SpecField::projectFolder),
                            tr("A folder on this computer sent with each run: the run's own folder on the cluster "
                               "holds its snapshot and is where the program runs; only changed files travel"));
    m_projectFolder->setPlaceholderText(tr("none: the program is already on the cluster"));
    m_remoteFolder = named(new QLineEdit(this), tr("Remote folder"), QLatin1String(SpecField::projectRemoteFolder),
                           tr("Where snapshots and run folders go on the cluster: absolute, ~/x or $HOME/x"));
    m_segments = new SegmentsEditor(this);
    m_env = new EnvironmentEditor(this);
}

void JobForm::layOutGroups()
{
    auto *cluster = new QGroupBox(tr("Cluster"), this);
    auto *cf = new QFormLayout(cluster);
    cf->addRow(tr("&Profile:"), m_profile);
    cf->addRow(tr("P&artition:"), m_partition);
    cf->addRow(QString(), m_partitionInfo);
    cf->addRow(QString(), m_startCost);
    cf->addRow(tr("Acc&ount:"), m_account);
    cf->addRow(tr("&Time limit:"), m_time);

    auto *res = new QGroupBox(tr("Resources and launch"), this);
    auto *rf = new QFormLayout(res);
    rf->addRow(tr("&GPUs (total):"), m_gpus);
    rf->addRow(tr("&Nodes:"), m_nodes);
    rf->addRow(tr("&Framework:"), m_framework);
    rf->addRow(tr("&Launcher:"), m_launcher);
    rf->addRow(tr("CPUs per GPU:"), m_cpusPerGpu);
    rf->addRow(tr("&Memory:"), m_memory);

    auto *prog = new QGroupBox(tr("Program"), this);
    auto *pf = new QFormLayout(prog);
    pf->addRow(tr("P&rogram:"), m_program);
    pf->addRow(tr("Arg&uments:"), m_args);
    pf->addRow(tr("&Job name:"), m_jobName);
    pf->addRow(tr("GPU &sampling:"), m_sampling);
    pf->addRow(tr("Metric &folders:"), m_metricDirs);
    pf->addRow(tr("Project fol&der:"), m_projectFolder);
    pf->addRow(tr("Remote folder:"), m_remoteFolder);

    auto *longer = new QGroupBox(tr("Longer than the time limit"), this);
    auto *lf = new QVBoxLayout(longer);
    lf->addWidget(m_segments);

    auto *envBox = new QGroupBox(tr("Environment"), this);
    auto *ef = new QVBoxLayout(envBox);
    ef->addWidget(m_env);

    auto *lay = new QVBoxLayout(this);
    lay->addWidget(cluster);
    lay->addWidget(res);
    lay->addWidget(prog);
    lay->addWidget(longer);
    lay->addWidget(envBox);
    lay->addStretch(1);
}

void JobForm::setFieldOrder()
{
    // Tab follows the rows as they are shown, not the order of creation.
    QList<QWidget *> order{m_profile,   m_partition, m_account,    m_time,          m_gpus,        m_nodes,
                           m_framework, m_launcher,  m_cpusPerGpu, m_memory,        m_program,     m_args,
                           m_jobName,   m_sampling,  m_metricDirs, m_projectFolder, m_remoteFolder};
    for (const char *field : {SpecField::segmentsCount, "segments.countValue", SpecField::segmentsSignal,
                              SpecField::segmentsSignalLead, SpecField::segmentsCheckpoint, SpecField::segmentsRequeue})
        order << m_segments->findChild<QWidget *>(QLatin1String(field));
    for (qsizetype i = 1; i < order.size(); ++i)
        setTabOrder(order[i - 1], order[i]);
    for (QWidget *w : m_env->findChildren<QWidget *>())
        if (w->focusPolicy() & Qt::TabFocus) {
            setTabOrder(order.last(), w);
            break;
        }
}

void JobForm::connectFields()
{
    connect(m_profile, &QComboBox::currentIndexChanged, this, &JobForm::onProfileChanged);
    connect(m_partition, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            m_keptPartition.clear();   // chosen by hand: no longer the script's
        updatePartitionInfo();
        changed();
    });
    connect(m_framework, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updating)
            return;
        fillLaunchers(spec().framework, std::nullopt);
        changed();
    });
    for (QSpinBox *s : {m_gpus, m_nodes, m_cpusPerGpu, m_sampling})
        connect(s, &QSpinBox::valueChanged, this, &JobForm::changed);
    connect(m_gpus, &QSpinBox::valueChanged, this, [this] { updatePartitionInfo(); });
    connect(m_launcher, &QComboBox::currentIndexChanged, this, &JobForm::changed);
    for (QLineEdit *e :
         {m_time, m_account, m_jobName, m_program, m_args, m_memory, m_metricDirs, m_projectFolder, m_remoteFolder})
        connect(e, &QLineEdit::textChanged, this, &JobForm::changed);
    connect(m_segments, &SegmentsEditor::edited, this, &JobForm::changed);
    connect(m_env, &EnvironmentEditor::edited, this, &JobForm::changed);
}

void JobForm::changed()
{
    if (!m_updating)
        Q_EMIT edited();
}

void JobForm::buildProfiles()
{
    m_updating = true;
    m_profile->clear();
    for (const auto &p : m_profiles.profiles())
        m_profile->addItem(p.name.isEmpty() ? p.id : QStringLiteral("%1 (%2)").arg(p.name, p.id), p.id);
    addBrokenProfiles();
    m_updating = false;
    onProfileChanged();
}

void JobForm::reloadProfiles()
{
    const JobSpec s = spec();
    buildProfiles();
    setSpec(s);
    changed();   // the same spec may now validate differently
}

// A profile file that could not be loaded stays visible, greyed out, with
// its problems as the tooltip: the researcher sees which file to fix while
// the good profiles remain usable.
void JobForm::addBrokenProfiles()
{
    QStringList files;
    QHash<QString, QStringList> errors;
    for (const auto &d : m_profiles.problems()) {
        if (d.severity != Severity::Error)
            continue;
        if (!errors.contains(d.field))
            files << d.field;
        errors[d.field] << d.message;
    }
    auto *model = qobject_cast<QStandardItemModel *>(m_profile->model());
    for (const QString &file : files) {
        const QStringList &messages = errors[file];
        // The message starts with the path; the item names the file once.
        QString first = messages.front();
        if (first.startsWith(file + QLatin1Char(':')))
            first = first.mid(file.size() + 1);
        auto *item = new QStandardItem(
            tr("%1 — cannot be used: %2").arg(QFileInfo(file).fileName(), InputLimits::quoted(first.trimmed())));
        item->setEnabled(false);
        item->setData(QString(), Qt::UserRole);
        item->setToolTip(messages.join(QLatin1Char('\n')));
        item->setData(true, kBrokenProfileRole);
        if (model)
            model->appendRow(item);
        else
            delete item;
    }
}

const ClusterProfile *JobForm::profile() const
{
    return m_profiles.find(m_profile->currentData().toString());
}

void JobForm::onProfileChanged()
{
    const ClusterProfile *p = profile();
    const bool was = m_updating;
    m_updating = true;
    fillPartitions(p, m_keptPartition);
    m_account->setPlaceholderText(p && !p->accountExample.isEmpty() ? tr("e.g. %1").arg(p->accountExample)
                                                                    : tr("billing project, if the site needs one"));
    if (p)
        m_env->setProfileHints(*p);
    m_updating = was;
    updatePartitionInfo();
    changed();
}

void JobForm::fillPartitions(const ClusterProfile *p, const QString &selected)
{
    m_partition->clear();
    if (!p)
        return;
    const Partition *def = p->defaultPartition();
    m_partition->addItem(def ? tr("site default (%1)").arg(def->name) : tr("site default"), QString());
    for (const auto &part : p->partitions) {
        m_partition->addItem(partitionItemText(part), part.name);
        m_partition->setItemData(m_partition->count() - 1, part.description, Qt::ToolTipRole);
    }
    if (!selected.isEmpty() && m_partition->findData(selected) < 0)
        m_partition->addItem(tr("%1 — not in this profile").arg(selected), selected);
    m_partition->setCurrentIndex(std::max(0, int(m_partition->findData(selected))));
}

void JobForm::fillLaunchers(Framework f, std::optional<Launcher> selected)
{
    const bool was = m_updating;
    m_updating = true;
    m_launcher->clear();
    m_launcher->addItem(tr("default (%1)").arg(launcherId(defaultLauncher(f))), QString());
    for (Launcher l : launchersFor(f))
        m_launcher->addItem(launcherId(l), launcherId(l));
    if (selected && m_launcher->findData(launcherId(*selected)) < 0)
        m_launcher->addItem(tr("%1 (not for %2)").arg(launcherId(*selected), frameworkName(f)), launcherId(*selected));
    m_launcher->setCurrentIndex(selected ? std::max(0, int(m_launcher->findData(launcherId(*selected)))) : 0);
    m_updating = was;
}

QString JobForm::partitionInfoText(const ClusterProfile &profile, const Partition &p) const
{
    QStringList parts;
    if (p.gpusPerNode > 0) {
        const GpuType *gt = profile.gpuType(p.gpuType);
        parts << tr("%1 × %2 per node").arg(p.gpusPerNode).arg(gt && !gt->model.isEmpty() ? gt->model : p.gpuType);
    } else {
        parts << tr("no GPUs");
    }
    if (p.cpusPerNode > 0)
        parts << tr("%1 CPUs").arg(p.cpusPerNode);
    if (p.memoryPerNodeMB > 0)
        parts << memoryText(p.memoryPerNodeMB);
    parts << tr("%n node(s) max", nullptr, p.maxNodes);
    parts << tr("%1 GPUs per job max").arg(p.maxGpus());
    if (p.minGpusPerJob > 0)
        parts << tr("%1 GPUs min").arg(p.minGpusPerJob);
    parts << (p.maxTimeSeconds > 0 ? tr("time ≤ %1").arg(SlurmTime::format(p.maxTimeSeconds)) : tr("no time limit"));
    if (p.exclusive)
        parts << tr("whole nodes");
    return parts.join(QStringLiteral(" · "));
}

void JobForm::reservePartitionInfoHeight()
{
    const ClusterProfile *prof = profile();
    const int width = m_partitionInfo->contentsRect().width();
    if (!prof || width <= 0)
        return;
    // QLabel lays plain wrapped text out as QFontMetrics::boundingRect does.
    const QFontMetrics fm = m_partitionInfo->fontMetrics();
    auto heightOf = [&](const QString &text) {
        return fm.boundingRect(QRect(0, 0, width, 1 << 20), int(Qt::TextWordWrap), text).height();
    };
    int tallest = heightOf(tr("Unknown partition: choose one of the profile's."));
    for (const Partition &p : prof->partitions)
        tallest = std::max(tallest, heightOf(partitionInfoText(*prof, p)));
    const QMargins m = m_partitionInfo->contentsMargins();
    m_partitionInfo->setMinimumHeight(tallest + m.top() + m.bottom());
}

bool JobForm::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_partitionInfo && event->type() == QEvent::Resize)
        reservePartitionInfoHeight();
    return QWidget::eventFilter(watched, event);
}

void JobForm::updatePartitionInfo()
{
    const ClusterProfile *prof = profile();
    const QString name = m_partition->currentData().toString();
    const Partition *p = !prof ? nullptr : name.isEmpty() ? prof->defaultPartition() : prof->partition(name);
    const bool was = m_updating;
    m_updating = true;
    if (!p) {
        m_partitionInfo->setText(prof ? tr("Unknown partition: choose one of the profile's.") : QString());
        m_gpus->setMaximum(4096);
    } else {
        m_partitionInfo->setText(partitionInfoText(*prof, *p));
        m_partitionInfo->setToolTip(p->description);
        // Never silently clamp what is already there: the validator explains it.
        m_gpus->setMaximum(std::max({1, p->maxGpus(), m_gpus->value()}));
    }
    reservePartitionInfoHeight();
    m_updating = was;
}

JobSpec JobForm::spec() const
{
    JobSpec s;
    s.profile = m_profile->currentData().toString();
    s.partition = m_partition->currentData().toString();
    s.gpus = m_gpus->value();
    s.nodes = m_nodes->value();
    s.framework = frameworkFromId(m_framework->currentData().toString()).value_or(Framework::PytorchDdp);
    if (const QString l = m_launcher->currentData().toString(); !l.isEmpty())
        s.launcher = launcherFromId(l);
    s.time = m_time->text().trimmed();
    s.account = m_account->text().trimmed();
    s.jobName = m_jobName->text().trimmed();
    s.program = m_program->text().trimmed();
    s.args = splitArguments(m_args->text());
    s.cpusPerGpu = m_cpusPerGpu->value();
    s.memory = m_memory->text().trimmed();
    s.environment = m_env->environment();
    s.gpuSampleSeconds = m_sampling->value();
    s.metricDirs = splitArguments(m_metricDirs->text());
    s.project = ProjectSpec{m_projectFolder->text().trimmed(), m_remoteFolder->text().trimmed()};
    s.segments = m_segments->segments();
    s.slurmOptions = m_slurmOptions;
    s.binding = m_binding;
    s.environment.taskVariables = m_taskVariables;
    return s;
}

void JobForm::setSpec(const JobSpec &s)
{
    m_updating = true;
    int pi = m_profile->findData(s.profile);
    if (pi < 0 && !s.profile.isEmpty()) {
        m_profile->addItem(m_profiles.brokenOverride(s.profile).isEmpty()
                               ? tr("%1 — unknown profile").arg(s.profile)
                               : tr("%1 — its file is broken").arg(s.profile),
                           s.profile);
        pi = m_profile->count() - 1;
    }
    if (pi >= 0)
        m_profile->setCurrentIndex(pi);
    const ClusterProfile *p = profile();
    fillPartitions(p, s.partition);
    if (p) {
        m_account->setPlaceholderText(p->accountExample.isEmpty() ? tr("billing project, if the site needs one")
                                                                  : tr("e.g. %1").arg(p->accountExample));
        m_env->setProfileHints(*p);
        m_remoteFolder->setPlaceholderText(tr("the profile's: %1").arg(p->remoteProjectFolder));
    }
    m_gpus->setMaximum(std::max(4096, s.gpus));
    m_gpus->setValue(s.gpus);
    m_nodes->setValue(s.nodes);
    m_framework->setCurrentIndex(std::max(0, int(m_framework->findData(frameworkId(s.framework)))));
    fillLaunchers(s.framework, s.launcher);
    auto setText = [](QLineEdit *e, const QString &t) {
        if (e->text() != t)
            e->setText(t);   // keeps the cursor where the researcher types
    };
    setText(m_time, s.time);
    setText(m_account, s.account);
    setText(m_jobName, s.jobName);
    setText(m_program, s.program);
    if (splitArguments(m_args->text()) != s.args)
        m_args->setText(ShellQuote::join(s.args));
    m_cpusPerGpu->setValue(s.cpusPerGpu);
    setText(m_memory, s.memory);
    m_sampling->setValue(s.gpuSampleSeconds);
    if (splitArguments(m_metricDirs->text()) != s.metricDirs)
        m_metricDirs->setText(ShellQuote::join(s.metricDirs));
    setText(m_projectFolder, s.project.folder);
    setText(m_remoteFolder, s.project.remoteFolder);
    m_segments->setSegments(s.segments);
    m_slurmOptions = s.slurmOptions;
    m_binding = s.binding;
    m_taskVariables = s.environment.taskVariables;
    m_env->setEnvironment(s.environment);
    updatePartitionInfo();
    m_updating = false;
}

void JobForm::showGeometry(const LaunchGeometry &g)
{
    const QString text = !g.partition   ? tr("auto")
                         : g.nodes == 1 ? tr("auto: 1 node")
                                        : tr("auto: %1 nodes").arg(g.nodes);
    if (m_nodes->specialValueText() != text)
        m_nodes->setSpecialValueText(text);
}

QWidget *JobForm::fieldWidget(const QString &field) const
{
    if (QWidget *w = m_fields.value(field))
        return w;
    if (QWidget *w = m_env->fieldWidget(field))
        return w;
    if (QWidget *w = m_segments->fieldWidget(field))
        return w;
    if (field.startsWith(QLatin1String("args")))
        return m_args;
    if (field == QLatin1String("gpuSampleSeconds") || field.startsWith(QLatin1String("monitoring.gpu")))
        return m_sampling;
    return nullptr;
}

bool JobForm::focusField(const QString &field, Severity severity)
{
    QWidget *w = fieldWidget(field);
    if (!w)
        return false;
    clearMarks();
    // A frame in the diagnostic's colour (the only fixed colours of the form),
    // on the one widget only: a form-wide style sheet slows down startup.
    const bool error = severity == Severity::Error;
    w->setProperty("diagnostic", error ? QStringLiteral("error") : QStringLiteral("warning"));
    w->setStyleSheet(QStringLiteral("%1 { border: 2px solid %2; border-radius: 3px; }")
                         .arg(QString::fromLatin1(w->metaObject()->className()),
                              error ? QStringLiteral("#d32f2f") : QStringLiteral("#ef8c00")));
    m_marked << w;
    w->setFocus(Qt::OtherFocusReason);
    // The form sits in a scroll area: bring the field into view.
    for (QWidget *p = parentWidget(); p; p = p->parentWidget()) {
        if (auto *area = qobject_cast<QAbstractScrollArea *>(p)) {
            if (auto *sa = qobject_cast<QScrollArea *>(area))
                sa->ensureWidgetVisible(w);
            break;
        }
    }
    return true;
}

void JobForm::showFindings(const Diagnostics &diagnostics)
{
    m_segments->showFindings(diagnostics);
}

void JobForm::clearMarks()
{
    for (QWidget *w : std::as_const(m_marked)) {
        w->setProperty("diagnostic", QVariant());
        w->setStyleSheet(QString());
    }
    m_marked.clear();
}

}   // namespace scalelab
