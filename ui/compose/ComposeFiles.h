// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

class QMessageBox;
class QWidget;

namespace scalelab {

class AppServices;
class DiagnosticsPanel;
class FormHistory;
class JobForm;

// Compose's file actions: spec files (open, save, save as, recent), imported
// sbatch scripts (read again on a profile switch), dropped files, the
// unsaved-changes question and the form kept across restarts. Owns the
// document's path and the last imported script; the form is replaced
// through `loadSpec` (the place's: it clears the verdicts of the old spec).
class ComposeFiles : public QObject {
    Q_OBJECT
public:
    ComposeFiles(AppServices &services, JobForm *form, FormHistory *history, DiagnosticsPanel *diagnostics,
                 std::function<void(const JobSpec &)> loadSpec, QWidget *dialogParent);

    QString specPath() const { return m_specPath; }
    // "train.json", or "Untitled" for a form never saved.
    QString documentName() const;
    // A file Compose takes when dropped: a script (.sh, .sbatch, .slurm) or a spec (.json).
    static bool isDroppable(const QString &path);
    // The folder Save as starts in: the open spec's own, unless it is one of
    // ScaleLab's (the shipped examples, the data folder) or cannot be written;
    // else the researcher's documents folder (or home), never the working directory.
    QString saveFolder() const;

    // Synchronous file work (spec files and scripts are small). "" = ok.
    QString openSpecFile(const QString &path);
    QString saveSpecFile(const QString &path);
    QString importScriptFile(const QString &path);
    void importScriptText(const QString &text, const QString &sourceName);
    // A dropped file: a spec is opened, a script imported (asking first when the form is unsaved).
    void openDropped(const QString &path);
    // The last imported script is still shown: a profile switch reads it again there.
    bool canReimport() const;
    void reimport();

    // Runs `proceed` at once when nothing is unsaved; otherwise asks (window-
    // modal, no nested loop) to save, discard or cancel. `action` ends the
    // question "Save the changes … before %1?".
    void whenDiscardable(const QString &action, std::function<void()> proceed);
    QMessageBox *pendingQuestion() const;
    // The form as it was when the window last closed (AppSettings).
    void restoreLastSession();
    void rememberSession() const;
    // A run's spec into the form ("Clone"): asks first when unsaved.
    void cloneSpec(const JobSpec &spec);

    void openSpecDialog();
    void saveSpec();
    void saveSpecAsDialog();
    void importScriptDialog();   // asks first when the form is unsaved, as Open does

Q_SIGNALS:
    void message(const QString &text);
    void recentSpecsChanged();
    void documentChanged();   // the file name changed (the window title follows)

private:
    void setSpecPath(const QString &path);
    void showFileProblems(const QString &title, const Diagnostics &diags);
    // A save dialog starting in saveFolder(); `saved` runs after a successful save.
    void askSaveAs(const QString &objectName, std::function<void()> saved);

    AppServices &m_services;
    JobForm *m_form;
    FormHistory *m_history;
    DiagnosticsPanel *m_diagnostics;
    std::function<void(const JobSpec &)> m_loadSpec;
    QWidget *m_dialogParent;
    QString m_specPath;
    QString m_importText;   // the last imported script, read again on a profile switch
    QString m_importName;
    QString m_importPath;   // its file, for the program beside it (ScriptFile)
    QPointer<QMessageBox> m_discardQuestion;
};

}   // namespace scalelab
