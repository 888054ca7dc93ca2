// SPDX-License-Identifier: GPL-3.0-or-later
// ComposePlace: spec files, imported scripts, drops, the unsaved-changes
// prompt and the form kept across restarts.
#include "ui/compose/ComposePlace.h"

#include "core/base/AtomicFile.h"
#include "core/base/InputLimits.h"
#include "core/model/JobSpecJson.h"
#include "core/profiles/ProfileRegistry.h"
#include "core/scriptimport/ImportSummary.h"
#include "core/scriptimport/ScriptFile.h"
#include "core/scriptimport/ScriptImporter.h"
#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "ui/common/RecentSpecs.h"
#include "ui/compose/DiagnosticsPanel.h"
#include "ui/compose/FormHistory.h"
#include "ui/compose/JobForm.h"

#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QUndoStack>

namespace scalelab {

namespace {

bool isDroppable(const QString &path)
{
    const QString s = QFileInfo(path).suffix().toLower();
    return s == QLatin1String("sh") || s == QLatin1String("sbatch") || s == QLatin1String("slurm")
           || s == QLatin1String("json");
}

}   // namespace

// ---- Files -------------------------------------------------------------

void ComposePlace::showFileProblems(const QString &title, const Diagnostics &diags)
{
    m_diagnostics->setImported(diags, title);
}

QString ComposePlace::openSpecFile(const QString &path)
{
    const auto read = InputLimits::readFile(path, tr("job spec"));
    if (!read.ok) {
        showFileProblems(tr("Spec file %1 could not be opened").arg(QFileInfo(path).fileName()), {read.problem});
        Q_EMIT message(read.problem.message);
        return read.problem.message;
    }
    const auto parsed = parseJobSpec(read.data, path);
    if (!parsed.spec) {
        showFileProblems(tr("Spec file %1 could not be opened").arg(QFileInfo(path).fileName()), parsed.errors);
        const QString err = parsed.errors.value(0).message;
        Q_EMIT message(err);
        return err.isEmpty() ? tr("invalid spec") : err;
    }
    loadSpec(*parsed.spec);
    m_history->reset(false);
    setSpecPath(path);
    RecentSpecs::add(path);
    Q_EMIT recentSpecsChanged();
    Q_EMIT message(tr("Opened %1.").arg(path));
    return {};
}

QString ComposePlace::saveSpecFile(const QString &path)
{
    if (const auto saved = AtomicFile::write(path, jobSpecToJson(spec())); !saved) {
        const QString err = tr("Could not save: %1").arg(saved.errorText());
        Q_EMIT message(err);
        return err;
    }
    m_history->markSaved();
    setSpecPath(path);
    RecentSpecs::add(path);
    Q_EMIT recentSpecsChanged();
    Q_EMIT message(tr("Saved %1.").arg(path));
    return {};
}

QString ComposePlace::importScriptFile(const QString &path)
{
    const auto read = InputLimits::readFile(path, tr("script"));
    if (!read.ok) {
        showFileProblems(tr("Script %1 could not be imported").arg(QFileInfo(path).fileName()), {read.problem});
        Q_EMIT message(read.problem.message);
        return read.problem.message;
    }
    m_importPath = path;
    importScriptText(ScriptFile::decode(read.data), QFileInfo(path).fileName());
    return {};
}

void ComposePlace::importScriptText(const QString &text, const QString &sourceName)
{
    const ClusterProfile *profile = m_form->profile();
    if (!profile) {
        Q_EMIT message(tr("Choose a cluster profile before importing a script."));
        return;
    }
    // The same import as `scalelab import` (ScriptFile): the program beside the script is read too.
    clearVerdicts();
    ScriptImport imp = ScriptFile::importText(text, m_importPath, *profile);
    imp.diagnostics = InputLimits::capDiagnostics(imp.diagnostics, sourceName);
    m_form->keepPartitionAcrossProfiles(imp.spec.partition);
    m_form->setSpec(imp.spec);
    rerender();
    // The script may name another site: offer the switch rather than
    // replacing its partition with this profile's default.
    if (const auto site = recogniseSite(imp, m_services.profiles().profiles(), profile->id)) {
        imp.diagnostics.prepend(
            finding(Severity::Info, QStringLiteral("site-recognised"), QStringLiteral("profile"), 0,
                    tr("This looks like a %1 script (%2) — switch profile?")
                        .arg(site->profileName, site->reasons.join(QStringLiteral(", "))),
                    Fix{QStringLiteral("profile"), site->profileId, tr("switch to %1").arg(site->profileName)}));
    }
    m_importText = text;
    m_importName = sourceName;
    m_diagnostics->setImported(imp.diagnostics, tr("Imported script %1 (until the next edit)").arg(sourceName),
                               imp.summary);
    m_history->reset(true);
    setSpecPath(QString());
    Q_EMIT message(tr("Imported %1: %n finding(s).", nullptr, int(imp.diagnostics.size())).arg(sourceName));
}

void ComposePlace::openSpecDialog()
{
    whenDiscardable(tr("opening another spec"), [this] {
        auto *dlg = new QFileDialog(window(), tr("Open job spec"), QFileInfo(m_specPath).absolutePath(),
                                    tr("Job specs (*.json);;All files (*)"));
        dlg->setFileMode(QFileDialog::ExistingFile);
        dlg->setAttribute(Qt::WA_DeleteOnClose);
        connect(dlg, &QFileDialog::fileSelected, this, [this](const QString &p) { openSpecFile(p); });
        dlg->open();
    });
}

void ComposePlace::saveSpec()
{
    if (m_specPath.isEmpty())
        saveSpecAsDialog();
    else
        saveSpecFile(m_specPath);
}

void ComposePlace::saveSpecAsDialog()
{
    const JobSpec s = spec();
    auto *dlg = new QFileDialog(window(), tr("Save job spec"),
                                m_specPath.isEmpty() ? (s.jobName.isEmpty() ? QStringLiteral("job") : s.jobName)
                                                           + QStringLiteral(".json")
                                                     : m_specPath,
                                tr("Job specs (*.json)"));
    dlg->setAcceptMode(QFileDialog::AcceptSave);
    dlg->setDefaultSuffix(QStringLiteral("json"));
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &QFileDialog::fileSelected, this, [this](const QString &p) { saveSpecFile(p); });
    dlg->open();
}

void ComposePlace::importScriptDialog()
{
    auto *dlg = new QFileDialog(window(), tr("Import sbatch script"), QString(),
                                tr("Batch scripts (*.sh *.sbatch *.slurm);;All files (*)"));
    dlg->setFileMode(QFileDialog::ExistingFile);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &QFileDialog::fileSelected, this, [this](const QString &p) { importScriptFile(p); });
    dlg->open();
}

void ComposePlace::dragEnterEvent(QDragEnterEvent *event)
{
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile() && isDroppable(urls.first().toLocalFile()))
        event->acceptProposedAction();
}

void ComposePlace::dropEvent(QDropEvent *event)
{
    const QString path = event->mimeData()->urls().value(0).toLocalFile();
    if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        openSpecFile(path);
    else
        importScriptFile(path);
    event->acceptProposedAction();
}

// ---- Unsaved changes and the next start -------------------------------------

QMessageBox *ComposePlace::pendingQuestion() const
{
    return m_discardQuestion;
}

void ComposePlace::whenDiscardable(const QString &action, std::function<void()> proceed)
{
    if (!isModified()) {
        proceed();
        return;
    }
    if (m_discardQuestion) {
        m_discardQuestion->raise();   // already asking
        return;
    }
    m_discardQuestion =
        new QMessageBox(QMessageBox::Warning, tr("Unsaved changes"),
                        tr("The job form (%1) has changes that are not saved in a spec file.\nSave them before %2?")
                            .arg(documentName(), action),
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, window());
    m_discardQuestion->setObjectName(QStringLiteral("unsavedChanges"));
    m_discardQuestion->setDefaultButton(QMessageBox::Save);
    m_discardQuestion->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_discardQuestion, &QMessageBox::finished, this, [this, proceed](int result) {
        if (result == QMessageBox::Discard) {
            proceed();
        } else if (result == QMessageBox::Save) {
            if (!m_specPath.isEmpty()) {
                if (saveSpecFile(m_specPath).isEmpty())
                    proceed();
                return;
            }
            // Never saved: the file dialog first, then go on if it was saved.
            auto *dlg = new QFileDialog(window(), tr("Save job spec"), documentName() + QStringLiteral(".json"),
                                        tr("Job specs (*.json)"));
            dlg->setObjectName(QStringLiteral("saveBeforeDialog"));
            dlg->setAcceptMode(QFileDialog::AcceptSave);
            dlg->setDefaultSuffix(QStringLiteral("json"));
            dlg->setAttribute(Qt::WA_DeleteOnClose);
            connect(dlg, &QFileDialog::fileSelected, this, [this, proceed](const QString &p) {
                if (saveSpecFile(p).isEmpty())
                    proceed();
            });
            dlg->open();
        }
    });
    m_discardQuestion->open();
}

void ComposePlace::cloneSpec(const JobSpec &spec)
{
    whenDiscardable(tr("replacing the form with the run's spec"), [this, spec] {
        loadSpec(spec);
        m_history->reset(true);   // a run's spec is not a saved file
        setSpecPath(QString());
    });
}

void ComposePlace::rememberSession() const
{
    AppSettings::set(AppSettings::Key::LastSpecJson, QString::fromUtf8(jobSpecToJson(spec(), -1)));
    AppSettings::set(AppSettings::Key::LastSpecPath, m_specPath);
    AppSettings::set(AppSettings::Key::LastSpecModified, isModified());
}

void ComposePlace::restoreLastSession()
{
    // A spec opened at start (scalelab --open) or edits made meanwhile win.
    if (!m_specPath.isEmpty() || isModified() || m_history->stack()->count() > 0)
        return;
    const QByteArray json = AppSettings::get(AppSettings::Key::LastSpecJson).toString().toUtf8();
    if (json.isEmpty())
        return;
    const auto parsed = parseJobSpec(json, tr("the last session's form"));
    if (!parsed.spec)
        return;   // an older ScaleLab's form: start fresh
    loadSpec(*parsed.spec);
    m_history->reset(AppSettings::get(AppSettings::Key::LastSpecModified).toBool());
    setSpecPath(AppSettings::get(AppSettings::Key::LastSpecPath).toString());
}

}   // namespace scalelab
