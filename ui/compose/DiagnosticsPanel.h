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
// Activating a row asks to focus its field; a row's Fix button asks to apply it.
class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(QWidget *parent = nullptr);

    void setDiagnostics(const Diagnostics &diags);
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
    QPushButton *fixButtonForRule(const QString &rule) const;
    QString summaryText() const;

Q_SIGNALS:
    void activated(const scalelab::Diagnostic &diag);
    void fixRequested(const scalelab::Fix &fix);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuild();
    void addSection(const QString &title, const Diagnostics &diags, bool imported, bool fixable);

    QTableWidget *m_tree;
    QLabel *m_summary;
    Diagnostics m_current;
    Diagnostics m_imported;
    QString m_importSource;
    Diagnostics m_importSummary;
};

}   // namespace scalelab
