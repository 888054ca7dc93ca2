// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compose/EnvironmentEditor.h"

#include "ui/compose/WordCompleter.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>

namespace scalelab {

namespace {

QStringList splitList(const QString &text)
{
    static const QRegularExpression sep(QStringLiteral("[,\\s]+"));
    return text.split(sep, Qt::SkipEmptyParts);
}

}   // namespace

EnvironmentEditor::EnvironmentEditor(QWidget *parent)
    : QWidget(parent)
{
    m_modules = new QLineEdit(this);
    m_modules->setAccessibleName(tr("Modules"));
    m_modules->setToolTip(tr("Modules to load, separated by commas or spaces, e.g. pytorch/2.1"));
    m_moduleCompleter = new WordCompleter(this);
    m_modules->setCompleter(m_moduleCompleter);
    m_image = new QLineEdit(this);
    m_image->setAccessibleName(tr("Container image"));
    m_image->setPlaceholderText(tr("none, or /path/on/cluster/image.sif"));
    m_imageCompleter = new WordCompleter(this);
    m_image->setCompleter(m_imageCompleter);
    m_runtime = new QComboBox(this);
    m_runtime->setAccessibleName(tr("Container runtime"));
    m_runtime->addItem(tr("site default"), QString());
    m_runtime->addItem(QStringLiteral("singularity"), QStringLiteral("singularity"));
    m_runtime->addItem(QStringLiteral("apptainer"), QStringLiteral("apptainer"));
    m_binds = new QLineEdit(this);
    m_binds->setAccessibleName(tr("Container bind mounts"));
    m_binds->setPlaceholderText(tr("e.g. /scratch,/projappl"));
    m_setup = new QPlainTextEdit(this);
    m_setup->setAccessibleName(tr("Setup lines"));
    m_setup->setPlaceholderText(tr("Shell lines run before the launch, one per line"));
    m_setup->setTabChangesFocus(true);
    m_setup->setMaximumHeight(m_setup->fontMetrics().lineSpacing() * 5);
    m_variables = new QTableWidget(0, 2, this);
    m_variables->setAccessibleName(tr("Environment variables"));
    m_variables->setHorizontalHeaderLabels({tr("Name"), tr("Value")});
    m_variables->horizontalHeader()->setStretchLastSection(true);
    m_variables->verticalHeader()->hide();
    m_variables->setMaximumHeight(m_variables->fontMetrics().lineSpacing() * 7);
    m_addVariable = new QPushButton(tr("Add variable"), this);
    m_addVariable->setAccessibleName(tr("Add variable"));
    m_removeVariable = new QPushButton(tr("Remove"), this);
    m_removeVariable->setAccessibleName(tr("Remove selected variable"));

    auto *container = new QHBoxLayout;
    container->addWidget(m_image, 1);
    container->addWidget(m_runtime);
    auto *varButtons = new QHBoxLayout;
    varButtons->addWidget(m_addVariable);
    varButtons->addWidget(m_removeVariable);
    varButtons->addStretch(1);
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Modules:"), m_modules);
    form->addRow(tr("Container:"), container);
    form->addRow(tr("Binds:"), m_binds);
    form->addRow(tr("Setup:"), m_setup);
    form->addRow(tr("Variables:"), m_variables);
    form->addRow(QString(), varButtons);

    // textChanged, not textEdited: a completion taken from the list is set
    // with setText() and is an edit too (setEnvironment's own are not: m_updating).
    connect(m_modules, &QLineEdit::textChanged, this, &EnvironmentEditor::changed);
    connect(m_image, &QLineEdit::textChanged, this, &EnvironmentEditor::changed);
    connect(m_binds, &QLineEdit::textEdited, this, &EnvironmentEditor::changed);
    connect(m_runtime, &QComboBox::currentIndexChanged, this, &EnvironmentEditor::changed);
    connect(m_setup, &QPlainTextEdit::textChanged, this, &EnvironmentEditor::changed);
    connect(m_variables, &QTableWidget::cellChanged, this, &EnvironmentEditor::changed);
    connect(m_addVariable, &QPushButton::clicked, this, [this] {
        addVariableRow({}, {});
        m_variables->setCurrentCell(m_variables->rowCount() - 1, 0);
        m_variables->editItem(m_variables->item(m_variables->rowCount() - 1, 0));
    });
    connect(m_removeVariable, &QPushButton::clicked, this, [this] {
        const int row = m_variables->currentRow();
        if (row >= 0) {
            m_variables->removeRow(row);
            changed();
        }
    });
}

void EnvironmentEditor::changed()
{
    if (!m_updating)
        Q_EMIT edited();
}

void EnvironmentEditor::addVariableRow(const QString &name, const QString &value)
{
    const bool was = m_updating;
    m_updating = true;
    const int row = m_variables->rowCount();
    m_variables->insertRow(row);
    m_variables->setItem(row, 0, new QTableWidgetItem(name));
    m_variables->setItem(row, 1, new QTableWidgetItem(value));
    m_updating = was;
}

JobEnvironment EnvironmentEditor::environment() const
{
    JobEnvironment env;
    env.modules = splitList(m_modules->text());
    env.container.image = m_image->text().trimmed();
    env.container.runtime = m_runtime->currentData().toString();
    env.container.binds = splitList(m_binds->text());
    for (const QString &line : m_setup->toPlainText().split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            env.setup << line;
    for (int r = 0; r < m_variables->rowCount(); ++r) {
        const QString name = m_variables->item(r, 0) ? m_variables->item(r, 0)->text().trimmed() : QString();
        const QString value = m_variables->item(r, 1) ? m_variables->item(r, 1)->text() : QString();
        if (!name.isEmpty())
            env.variables << qMakePair(name, value);
    }
    return env;
}

void EnvironmentEditor::setEnvironment(const JobEnvironment &env)
{
    m_updating = true;
    m_modules->setText(env.modules.join(QStringLiteral(", ")));
    m_image->setText(env.container.image);
    const int rt = m_runtime->findData(env.container.runtime);
    m_runtime->setCurrentIndex(rt >= 0 ? rt : 0);
    m_binds->setText(env.container.binds.join(QLatin1Char(',')));
    if (m_setup->toPlainText() != env.setup.join(QLatin1Char('\n')))
        m_setup->setPlainText(env.setup.join(QLatin1Char('\n')));
    m_variables->setRowCount(0);
    for (const auto &[name, value] : env.variables)
        addVariableRow(name, value);
    m_updating = false;
}

void EnvironmentEditor::setProfileHints(const ClusterProfile &p)
{
    m_modules->setPlaceholderText(p.defaultModules.isEmpty()
                                      ? tr("e.g. pytorch")
                                      : tr("site default: %1").arg(p.defaultModules.join(QStringLiteral(", "))));
    m_runtime->setItemText(0, p.containerRuntime.isEmpty() ? tr("site default")
                                                           : tr("site default (%1)").arg(p.containerRuntime));
    m_moduleCompleter->setWords(p.availableModules.value_or(QStringList()));
    m_imageCompleter->setWords(p.containerImages.value_or(QStringList()));
    const QString listed = p.sources.value(QStringLiteral("availableModules"));
    m_modules->setToolTip(
        p.availableModules
            ? tr("Modules to load, separated by commas or spaces. %n module(s) on the cluster (%1) complete as "
                 "you type; one it does not have is a warning.",
                 nullptr, int(p.availableModules->size()))
                  .arg(listed)
            : tr("Modules to load, separated by commas or spaces, e.g. pytorch/2.1. Discover the cluster to have "
                 "its modules completed and checked."));
    m_image->setToolTip(
        p.containerImages
            ? tr("%n image(s) in %1 complete as you type (%2).", nullptr, int(p.containerImages->size()))
                  .arg(p.containerDirs.join(QStringLiteral(", ")), p.sources.value(QStringLiteral("containerImages")))
            : tr("The path of a container image on the cluster. A profile's containerDirs are "
                 "listed when the cluster is discovered."));
}

QStringList EnvironmentEditor::moduleCompletions() const
{
    return m_moduleCompleter->words();
}

QStringList EnvironmentEditor::imageCompletions() const
{
    return m_imageCompleter->words();
}

QWidget *EnvironmentEditor::fieldWidget(const QString &field) const
{
    if (field == QLatin1String("environment.modules"))
        return m_modules;
    if (field.startsWith(QLatin1String("environment.container.runtime")))
        return m_runtime;
    if (field.startsWith(QLatin1String("environment.container.binds")))
        return m_binds;
    if (field.startsWith(QLatin1String("environment.container")))
        return m_image;
    if (field.startsWith(QLatin1String("environment.setup")))
        return m_setup;
    if (field.startsWith(QLatin1String("environment.variables")))
        return m_variables;
    return nullptr;
}

}   // namespace scalelab
