// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compose/DiagnosticsPanel.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace scalelab {

namespace {

enum Column { MessageCol, FieldCol, FixCol };
constexpr int DiagIndexRole = Qt::UserRole + 1;   // index into the section's list
constexpr int ImportedRole = Qt::UserRole + 2;

QIcon severityIcon(const QStyle *style, Severity s)
{
    switch (s) {
    case Severity::Error:
        return style->standardIcon(QStyle::SP_MessageBoxCritical);
    case Severity::Warning:
        return style->standardIcon(QStyle::SP_MessageBoxWarning);
    case Severity::Info:
        break;
    }
    return style->standardIcon(QStyle::SP_MessageBoxInformation);
}

// Room for a button such as "Fix: use partition gpumedium"; longer labels are elided (full in the tooltip).
int fixColumnWidth(const QWidget *w)
{
    return w->fontMetrics().horizontalAdvance(QStringLiteral("Fix: use partition gpumedium"))
           + 4 * w->fontMetrics().averageCharWidth();
}

}   // namespace

DiagnosticsPanel::DiagnosticsPanel(QWidget *parent)
    : QWidget(parent)
{
    m_summary = new QLabel(this);
    m_summary->setAccessibleName(tr("Diagnostics summary"));
    // A table rather than a tree: it wraps long messages to the column width.
    m_tree = new QTableWidget(0, 3, this);
    m_tree->setAccessibleName(tr("Diagnostics"));
    m_tree->setHorizontalHeaderLabels({tr("Finding"), tr("Field"), tr("Fix")});
    m_tree->verticalHeader()->hide();
    m_tree->setWordWrap(true);
    m_tree->setTextElideMode(Qt::ElideNone);
    m_tree->setShowGrid(false);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_tree->horizontalHeader()->setStretchLastSection(false);
    m_tree->horizontalHeader()->setSectionResizeMode(MessageCol, QHeaderView::Stretch);
    m_tree->horizontalHeader()->setSectionResizeMode(FieldCol, QHeaderView::ResizeToContents);
    // Fixed: a finding's Fix buttons coming or going never moves the other columns.
    m_tree->horizontalHeader()->setSectionResizeMode(FixCol, QHeaderView::Fixed);
    m_tree->horizontalHeader()->resizeSection(FixCol, fixColumnWidth(m_tree));
    connect(m_tree->horizontalHeader(), &QHeaderView::sectionResized, m_tree, [this](int col) {
        if (col == MessageCol)
            m_tree->resizeRowsToContents();
    });
    auto *lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(m_summary);
    lay->addWidget(m_tree, 1);

    auto activate = [this](QTableWidgetItem *cell) {
        QTableWidgetItem *item = cell ? m_tree->item(cell->row(), MessageCol) : nullptr;
        if (!item || !item->data(DiagIndexRole).isValid())
            return;
        const int i = item->data(DiagIndexRole).toInt();
        const int source = item->data(ImportedRole).toInt();   // 0 this job, 1 imported, 2 import summary
        const Diagnostics &list = source == 2 ? m_importSummary : source == 1 ? m_imported : m_current;
        if (i >= 0 && i < list.size())
            Q_EMIT activated(list[i]);
    };
    connect(m_tree, &QTableWidget::itemClicked, this, activate);
    connect(m_tree, &QTableWidget::itemActivated, this, activate);
    rebuild();
}

void DiagnosticsPanel::setDiagnostics(const Diagnostics &diags, const QList<QList<Fix>> &remedies)
{
    if (diags == m_current && remedies == m_remedies)
        return;   // most keystrokes change nothing here; keep the selection
    m_current = diags;
    m_remedies = remedies;
    rebuild();
}

void DiagnosticsPanel::setImported(const Diagnostics &diags, const QString &title, const Diagnostics &summary)
{
    m_imported = diags;
    m_importSummary = summary;
    m_importSource = title;
    rebuild();
}

void DiagnosticsPanel::clearImported()
{
    if (!hasImported())
        return;
    m_imported.clear();
    m_importSummary.clear();
    m_importSource.clear();
    rebuild();
}

// Counted over every row shown (the imported script's findings too); only
// this job's errors block submit.
QString DiagnosticsPanel::summaryText() const
{
    Diagnostics shown = m_current;
    if (hasImported())
        shown << m_imported << m_importSummary;
    const int e = countOf(shown, Severity::Error);
    const int w = countOf(shown, Severity::Warning);
    if (e == 0 && w == 0)
        return tr("No errors or warnings: ready to submit.");
    const QString errors = e == 1 ? tr("1 error") : tr("%1 errors").arg(e);
    const QString warnings = w == 1 ? tr("1 warning") : tr("%1 warnings").arg(w);
    if (hasErrors(m_current))
        return tr("%1, %2 — errors block submit.").arg(errors, warnings);
    if (e > 0)
        return tr("%1, %2 — in the imported script; the form as filled can be submitted.").arg(errors, warnings);
    return tr("%1: submit will ask first.").arg(warnings);
}

QTableWidgetItem *DiagnosticsPanel::itemForRule(const QString &rule) const
{
    for (int r = 0; r < m_tree->rowCount(); ++r) {
        QTableWidgetItem *item = m_tree->item(r, MessageCol);
        if (!item || !item->data(DiagIndexRole).isValid() || item->data(ImportedRole).toBool())
            continue;
        const int idx = item->data(DiagIndexRole).toInt();
        if (idx >= 0 && idx < m_current.size() && m_current[idx].rule == rule)
            return item;
    }
    return nullptr;
}

QPushButton *DiagnosticsPanel::fixButtonForRule(const QString &rule) const
{
    return fixButtonsForRule(rule).value(0);
}

QList<QPushButton *> DiagnosticsPanel::fixButtonsForRule(const QString &rule) const
{
    QTableWidgetItem *item = itemForRule(rule);
    QWidget *cell = item ? m_tree->cellWidget(item->row(), FixCol) : nullptr;
    return cell ? cell->findChildren<QPushButton *>(Qt::FindDirectChildrenOnly) : QList<QPushButton *>{};
}

void DiagnosticsPanel::rebuild()
{
    m_tree->clearContents();
    m_tree->setRowCount(0);
    m_summary->setText(summaryText());
    if (hasImported())
        addSection(m_importSource, m_imported, true, false);
    if (hasImported() && !m_importSummary.isEmpty())
        addSection(tr("What the import changed or dropped"), m_importSummary, true, false);
    addSection(tr("This job"), m_current, false, true);
    m_tree->resizeRowsToContents();
    // Row heights depend on the wrapped width, final only once laid out.
    QTimer::singleShot(0, m_tree, &QTableWidget::resizeRowsToContents);
}

void DiagnosticsPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    QTimer::singleShot(0, m_tree, &QTableWidget::resizeRowsToContents);
}

void DiagnosticsPanel::addSection(const QString &title, const Diagnostics &diags, bool imported, bool fixable)
{
    auto addRow = [this](QTableWidgetItem *first) {
        const int row = m_tree->rowCount();
        m_tree->insertRow(row);
        m_tree->setItem(row, MessageCol, first);
        return row;
    };
    auto *section = new QTableWidgetItem(title);
    QFont bold = section->font();
    bold.setBold(true);
    section->setFont(bold);
    section->setFlags(Qt::ItemIsEnabled);
    m_tree->setSpan(addRow(section), 0, 1, 3);
    if (diags.isEmpty()) {
        auto *none = new QTableWidgetItem(tr("No findings."));
        none->setFlags(Qt::ItemIsEnabled);
        m_tree->setSpan(addRow(none), 0, 1, 3);
    }
    for (int i = 0; i < diags.size(); ++i) {
        const Diagnostic &d = diags[i];
        QString text = d.message;
        if (imported && d.line > 0)
            text = tr("line %1: %2").arg(d.line).arg(d.message);
        auto *item = new QTableWidgetItem(severityIcon(style(), d.severity), text);
        item->setData(DiagIndexRole, i);
        item->setData(ImportedRole, !imported ? 0 : &diags == &m_importSummary ? 2 : 1);
        item->setToolTip(QStringLiteral("%1 [%2]: %3").arg(severityName(d.severity), d.rule, d.message));
        item->setData(Qt::AccessibleTextRole, QStringLiteral("%1: %2").arg(severityName(d.severity), text));
        const int row = addRow(item);
        auto *field = new QTableWidgetItem(d.field);
        field->setData(Qt::AccessibleTextRole, tr("Field %1").arg(d.field));
        m_tree->setItem(row, FieldCol, field);
        // Imported findings are about the script; only the profile switch
        // ("this looks like a LUMI script") is a change to the form.
        const QList<Fix> fixes = fixable && i < m_remedies.size() ? m_remedies.at(i)
                                 : (fixable || d.rule == QLatin1String("site-recognised")) && d.fix.isValid()
                                     ? QList<Fix>{d.fix}
                                     : QList<Fix>{};
        if (!fixes.isEmpty())
            m_tree->setCellWidget(row, FixCol, fixCell(d.rule, fixes));
    }
}

// One button per remedy, stacked; the first is named "fix-<rule>", the others "fix-<rule>-2", ...
QWidget *DiagnosticsPanel::fixCell(const QString &rule, const QList<Fix> &fixes)
{
    auto *cell = new QWidget(m_tree);
    auto *lay = new QVBoxLayout(cell);
    lay->setContentsMargins(1, 1, 1, 1);
    lay->setSpacing(2);
    const int room = m_tree->horizontalHeader()->sectionSize(FixCol) - 4 * fontMetrics().averageCharWidth();
    for (int k = 0; k < fixes.size(); ++k) {
        const Fix fix = fixes[k];
        const QString text = tr("Fix: %1").arg(fix.label);
        auto *button = new QPushButton(fontMetrics().elidedText(text, Qt::ElideRight, room), cell);
        button->setAccessibleName(text);
        button->setToolTip(tr("Apply: %1").arg(fix.label));
        button->setObjectName(k == 0 ? QStringLiteral("fix-") + rule
                                     : QStringLiteral("fix-%1-%2").arg(rule).arg(k + 1));
        connect(button, &QPushButton::clicked, this, [this, fix] { Q_EMIT fixRequested(fix); });
        lay->addWidget(button);
    }
    return cell;
}

}   // namespace scalelab
