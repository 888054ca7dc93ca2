// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QMessageBox;
class QPushButton;

namespace scalelab {

class AppServices;
class ComposeFiles;
class DiagnosticsPanel;
class FormHistory;
class JobForm;
class ProfileDriftBanner;
class ScriptPreview;
struct ClusterProfile;

// The Compose place: the job form, the live sbatch preview and the
// diagnostics. Every edit re-renders and re-validates synchronously (a few
// microseconds). Submit, dry run and the start estimate; the file actions
// (spec files, imported scripts) are ComposeFiles, which the place owns.
class ComposePlace : public QWidget {
    Q_OBJECT
public:
    explicit ComposePlace(AppServices &services, QWidget *parent = nullptr);

    JobForm *form() const { return m_form; }
    ScriptPreview *preview() const { return m_preview; }
    DiagnosticsPanel *diagnosticsPanel() const { return m_diagnostics; }
    QPushButton *submitButton() const { return m_submit; }
    QPushButton *dryRunButton() const { return m_dryRun; }
    QPushButton *studyButton() const { return m_study; }
    ProfileDriftBanner *driftBanner() const { return m_drift; }
    JobSpec spec() const;
    // Spec files, imported scripts, the unsaved-changes question, the form kept across restarts.
    ComposeFiles *files() const { return m_files; }

    // The spec into the form; the verdicts of the old one go.
    void loadSpec(const JobSpec &spec);
    // Called when the cluster layer appears or goes (enables submit).
    void updateActions();

    // Undo/redo and the modified mark (FormHistory).
    FormHistory *history() const { return m_history; }
    bool isModified() const;

public Q_SLOTS:
    void submit();
    void dryRun();
    void copyScript();
    void openStudy();
    void applyFix(const scalelab::Fix &fix);
    void focusDiagnostic(const scalelab::Diagnostic &diag);

Q_SIGNALS:
    void message(const QString &text);
    void recentSpecsChanged();
    // The file name or the modified mark changed (the window title follows).
    void documentChanged();

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    QWidget *buildSplit(QWidget *formScroll);
    void connectSignals();
    void rerender();
    void onEdited();
    void connectClusters();
    void afterUndoRedo();
    void estimateStart();
    void showCost(const JobSpec &spec, const ClusterProfile *profile, const QString &script);
    void onDryRunFinished(const QString &verdict, bool ok);
    // Banners and the dry-run finding belong to the spec they describe: a
    // file open, an import or a profile switch clears them.
    void clearVerdicts();

    AppServices &m_services;
    JobForm *m_form;
    ScriptPreview *m_preview;
    DiagnosticsPanel *m_diagnostics;
    QPushButton *m_submit;
    QPushButton *m_dryRun;
    QPushButton *m_study;
    QLabel *m_verdict;
    ProfileDriftBanner *m_drift;
    Diagnostics m_current;
    QPointer<QMessageBox> m_confirm;
    FormHistory *m_history = nullptr;
    ComposeFiles *m_files = nullptr;
    QObject *m_connectedClusters = nullptr;
    QString m_estimatedScript;   // the script the shown (or asked) start estimate is of
    QString m_dryRunScript;   // the script the asked (or shown) dry run is of
    Diagnostic m_dryRunFinding;   // its verdict, shown while the script is the same
    QString m_shownProfile;   // the profile the banner was written for
};

}   // namespace scalelab
