// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;
class QTableWidgetItem;

namespace scalelab {

// Findings about the job being composed, and (after an import, until the next
// edit) the findings about the imported script with their line numbers.
// Activating a row asks to focus its field; a row's Fix buttons (one per
// remedy, in a column of fixed width) ask to apply theirs.
class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(QWidget *parent = nullptr);

    // `remedies[i]`: the fixes offered for diags[i] (FindingRemedies); none given: each one's own fix.
    void setDiagnostics(const Diagnostics &diags, const QList<QList<Fix>> &remedies = {});
    // `summary`: what the import changed or dropped, in a section of its own.
    void setImported(const Diagnostics &diags, const QString &title, const Diagnostics &summary = {});
    void clearImported();
    bool hasImported() const { return !m_imported.isEmpty() || !m_importSource.isEmpty(); }

    const Diagnostics &diagnostics() const { return m_current; }
    const Diagnostics &importedDiagnostics() const { return m_imported; }   // the imported script's, by line
    const Diagnostics &importSummaryDiagnostics() const { return m_importSummary; }
    QTableWidget *tree() const { return m_tree; }
    // The row of the first current diagnostic with this rule (tests, focus).
    QTableWidgetItem *itemForRule(const QString &rule) const;
    QPushButton *fixButtonForRule(const QString &rule) const;   // its first
    QList<QPushButton *> fixButtonsForRule(const QString &rule) const;
    QString summaryText() const;

Q_SIGNALS:
    void activated(const scalelab::Diagnostic &diag);
    void fixRequested(const scalelab::Fix &fix);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuild();
    void addSection(const QString &title, const Diagnostics &diags, bool imported, bool fixable);
    QWidget *fixCell(const QString &rule, const QList<Fix> &fixes);

    QTableWidget *m_tree;
    QLabel *m_summary;
    Diagnostics m_current;
    QList<QList<Fix>> m_remedies;
    Diagnostics m_imported;
    QString m_importSource;
    Diagnostics m_importSummary;
};

}   // namespace scalelab
