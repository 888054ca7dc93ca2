#include "DiagnosticsPanel.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace scalelab {

namespace {

enum Column { MessageCol, FieldCol, FixCol };
constexpr int DiagIndexRole = Qt::UserRole + 1;   // index into the section's list
constexpr int ImportedRole = Qt::UserRole + 2;

QIcon severityIcon(const QStyle *style, Severity s)
{
    switch (s) {
    case Severity::Error: return style->standardIcon(QStyle::SP_MessageBoxCritical);
    case Severity::Warning: return style->standardIcon(QStyle::SP_MessageBoxWarning);
    case Severity::Info: break;
    }
    return style->standardIcon(QStyle::SP_MessageBoxInformation);
}

} // namespace

DiagnosticsPanel::DiagnosticsPanel(QWidget *parent) : QWidget(parent)
{
    m_summary = new QLabel(this);
    m_summary->setAccessibleName(tr("Diagnostics summary"));
    m_tree = new QTreeWidget(this);
    m_tree->setAccessibleName(tr("Diagnostics"));
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({tr("Finding"), tr("Field"), tr("Fix")});
    m_tree->setRootIsDecorated(false);
    m_tree->setWordWrap(true);
    m_tree->setUniformRowHeights(false);
    m_tree->setTextElideMode(Qt::ElideNone);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(MessageCol, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(FieldCol, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(FixCol, QHeaderView::ResizeToContents);
    auto *lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(m_summary);
    lay->addWidget(m_tree, 1);

    auto activate = [this](QTreeWidgetItem *item) {
        if (!item || !item->data(MessageCol, DiagIndexRole).isValid())
            return;
        const int i = item->data(MessageCol, DiagIndexRole).toInt();
        const Diagnostics &list = item->data(MessageCol, ImportedRole).toBool() ? m_imported : m_current;
        if (i >= 0 && i < list.size())
            Q_EMIT activated(list[i]);
    };
    connect(m_tree, &QTreeWidget::itemClicked, this, activate);
    connect(m_tree, &QTreeWidget::itemActivated, this, activate);
    rebuild();
}

void DiagnosticsPanel::setDiagnostics(const Diagnostics &diags)
{
    if (diags == m_current)
        return;   // most keystrokes change nothing here; keep the selection
    m_current = diags;
    rebuild();
}

void DiagnosticsPanel::setImported(const Diagnostics &diags, const QString &title)
{
    m_imported = diags;
    m_importSource = title;
    rebuild();
}

void DiagnosticsPanel::clearImported()
{
    if (!hasImported())
        return;
    m_imported.clear();
    m_importSource.clear();
    rebuild();
}

QString DiagnosticsPanel::summaryText() const
{
    const int e = countOf(m_current, Severity::Error);
    const int w = countOf(m_current, Severity::Warning);
    if (e == 0 && w == 0)
        return tr("No errors or warnings: ready to submit.");
    return tr("%n error(s)", nullptr, e) + QStringLiteral(", ") + tr("%n warning(s)", nullptr, w);
}

QTreeWidgetItem *DiagnosticsPanel::itemForRule(const QString &rule) const
{
    for (int s = 0; s < m_tree->topLevelItemCount(); ++s) {
        QTreeWidgetItem *section = m_tree->topLevelItem(s);
        for (int i = 0; i < section->childCount(); ++i) {
            QTreeWidgetItem *item = section->child(i);
            if (item->data(MessageCol, ImportedRole).toBool())
                continue;
            const int idx = item->data(MessageCol, DiagIndexRole).toInt();
            if (idx >= 0 && idx < m_current.size() && m_current[idx].rule == rule)
                return item;
        }
    }
    return nullptr;
}

void DiagnosticsPanel::rebuild()
{
    m_tree->clear();
    m_summary->setText(summaryText());
    if (hasImported())
        addSection(m_importSource, m_imported, true, false);
    addSection(tr("This job"), m_current, false, true);
    m_tree->expandAll();
}

void DiagnosticsPanel::addSection(const QString &title, const Diagnostics &diags, bool imported, bool fixable)
{
    auto *section = new QTreeWidgetItem(m_tree, {title});
    QFont bold = section->font(MessageCol);
    bold.setBold(true);
    section->setFont(MessageCol, bold);
    section->setFirstColumnSpanned(true);
    section->setFlags(Qt::ItemIsEnabled);
    if (diags.isEmpty()) {
        auto *none = new QTreeWidgetItem(section, {tr("No findings.")});
        none->setFlags(Qt::ItemIsEnabled);
    }
    for (int i = 0; i < diags.size(); ++i) {
        const Diagnostic &d = diags[i];
        QString text = d.message;
        if (imported && d.line > 0)
            text = tr("line %1: %2").arg(d.line).arg(d.message);
        auto *item = new QTreeWidgetItem(section, {text, d.field});
        item->setIcon(MessageCol, severityIcon(style(), d.severity));
        item->setData(MessageCol, DiagIndexRole, i);
        item->setData(MessageCol, ImportedRole, imported);
        item->setToolTip(MessageCol, QStringLiteral("%1 [%2]: %3").arg(severityName(d.severity), d.rule, d.message));
        item->setData(MessageCol, Qt::AccessibleTextRole,
                      QStringLiteral("%1: %2").arg(severityName(d.severity), text));
        if (fixable && d.fix.isValid()) {
            auto *button = new QPushButton(tr("Fix: %1").arg(d.fix.label), m_tree);
            button->setAccessibleName(tr("Fix: %1").arg(d.fix.label));
            button->setToolTip(tr("Apply: %1").arg(d.fix.label));
            button->setObjectName(QStringLiteral("fix-") + d.rule);
            const Fix fix = d.fix;
            connect(button, &QPushButton::clicked, this, [this, fix] { Q_EMIT fixRequested(fix); });
            m_tree->setItemWidget(item, FixCol, button);
        }
    }
}

} // namespace scalelab
