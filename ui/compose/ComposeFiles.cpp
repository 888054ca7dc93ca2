// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compose/ComposeFiles.h"

#include "core/base/AtomicFile.h"
#include "core/base/InputLimits.h"
#include "core/model/JobSpecJson.h"
#include "core/profiles/ProfileRegistry.h"
#include "core/scriptimport/ImportSummary.h"
#include "core/scriptimport/ScriptFile.h"
#include "core/scriptimport/ScriptImporter.h"
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "ui/common/RecentSpecs.h"
#include "ui/compose/DiagnosticsPanel.h"
#include "ui/compose/FormHistory.h"
#include "ui/compose/JobForm.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStandardPaths>
#include <QUndoStack>

namespace scalelab {

namespace {

// `path` is `folder` or inside it (both canonical; an absent folder holds nothing).
bool isInside(const QString &path, const QString &folder)
{
    const QString f = QDir(folder).canonicalPath();
    return !f.isEmpty() && (path == f || path.startsWith(f + QLatin1Char('/')));
}

}   // namespace

ComposeFiles::ComposeFiles(AppServices &services, JobForm *form, FormHistory *history, DiagnosticsPanel *diagnostics,
                           std::function<void(const JobSpec &)> loadSpec, QWidget *dialogParent)
    : QObject(dialogParent)
    , m_services(services)
    , m_form(form)
    , m_history(history)
    , m_diagnostics(diagnostics)
    , m_loadSpec(std::move(loadSpec))
    , m_dialogParent(dialogParent)
{}

bool ComposeFiles::isDroppable(const QString &path)
{
    const QString s = QFileInfo(path).suffix().toLower();
    return s == QLatin1String("sh") || s == QLatin1String("sbatch") || s == QLatin1String("slurm")
           || s == QLatin1String("json");
}

QString ComposeFiles::saveFolder() const
{
    if (!m_specPath.isEmpty()) {
        const QString dir = QFileInfo(m_specPath).absoluteDir().canonicalPath();
        const QString shipped = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/scalelab");
        if (!dir.isEmpty() && QFileInfo(dir).isWritable() && !isInside(dir, shipped)
            && !isInside(dir, RunStore::defaultDataDirectory()))
            return dir;
    }
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return !documents.isEmpty() && QFileInfo(documents).isDir() ? documents : QDir::homePath();
}

QString ComposeFiles::documentName() const
{
    return m_specPath.isEmpty() ? tr("Untitled") : QFileInfo(m_specPath).fileName();
}

void ComposeFiles::setSpecPath(const QString &path)
{
    m_specPath = path;
    Q_EMIT documentChanged();
}

// ---- Files -------------------------------------------------------------

void ComposeFiles::showFileProblems(const QString &title, const Diagnostics &diags)
{
    m_diagnostics->setImported(diags, title);
}

QString ComposeFiles::openSpecFile(const QString &path)
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
    m_loadSpec(*parsed.spec);
    m_history->reset(false);
    setSpecPath(path);
    RecentSpecs::add(path);
    Q_EMIT recentSpecsChanged();
    Q_EMIT message(tr("Opened %1.").arg(path));
    return {};
}

QString ComposeFiles::saveSpecFile(const QString &path)
{
    if (const auto saved = AtomicFile::write(path, jobSpecToJson(m_form->spec())); !saved) {
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

QString ComposeFiles::importScriptFile(const QString &path)
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

void ComposeFiles::importScriptText(const QString &text, const QString &sourceName)
{
    const ClusterProfile *profile = m_form->profile();
    if (!profile) {
        Q_EMIT message(tr("Choose a cluster profile before importing a script."));
        return;
    }
    // The same import as `scalelab import` (ScriptFile): the program beside the script is read too.
    ScriptImport imp = ScriptFile::importText(text, m_importPath, *profile);
    imp.diagnostics = InputLimits::capDiagnostics(imp.diagnostics, sourceName);
    m_form->keepPartitionAcrossProfiles(imp.spec.partition);
    m_loadSpec(imp.spec);   // the verdicts of the form's old spec go
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

void ComposeFiles::openSpecDialog()
{
    whenDiscardable(tr("opening another spec"), [this] {
        auto *dlg = new QFileDialog(m_dialogParent->window(), tr("Open job spec"), QFileInfo(m_specPath).absolutePath(),
                                    tr("Job specs (*.json);;All files (*)"));
        dlg->setFileMode(QFileDialog::ExistingFile);
        dlg->setAttribute(Qt::WA_DeleteOnClose);
        connect(dlg, &QFileDialog::fileSelected, this, [this](const QString &p) { openSpecFile(p); });
        dlg->open();
    });
}

void ComposeFiles::saveSpec()
{
    if (m_specPath.isEmpty())
        saveSpecAsDialog();
    else
        saveSpecFile(m_specPath);
}

void ComposeFiles::saveSpecAsDialog()
{
    askSaveAs(QStringLiteral("saveSpecAsDialog"), [] {});
}

void ComposeFiles::askSaveAs(const QString &objectName, std::function<void()> saved)
{
    const QString jobName = m_form->spec().jobName;
    const QString name = m_specPath.isEmpty() ? (jobName.isEmpty() ? QStringLiteral("job") : jobName)
                                              : QFileInfo(m_specPath).completeBaseName();
    auto *dlg = new QFileDialog(m_dialogParent->window(), tr("Save job spec"),
                                QDir(saveFolder()).filePath(name + QStringLiteral(".json")), tr("Job specs (*.json)"));
    dlg->setObjectName(objectName);
    dlg->setAcceptMode(QFileDialog::AcceptSave);
    dlg->setDefaultSuffix(QStringLiteral("json"));
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &QFileDialog::fileSelected, this, [this, saved](const QString &p) {
        if (saveSpecFile(p).isEmpty())
            saved();
    });
    dlg->open();
}

void ComposeFiles::importScriptDialog()
{
    whenDiscardable(tr("importing a script"), [this] {
        auto *dlg = new QFileDialog(m_dialogParent->window(), tr("Import sbatch script"), QString(),
                                    tr("Batch scripts (*.sh *.sbatch *.slurm);;All files (*)"));
        dlg->setObjectName(QStringLiteral("importScriptDialog"));
        dlg->setFileMode(QFileDialog::ExistingFile);
        dlg->setAttribute(Qt::WA_DeleteOnClose);
        connect(dlg, &QFileDialog::fileSelected, this, [this](const QString &p) { importScriptFile(p); });
        dlg->open();
    });
}

void ComposeFiles::openDropped(const QString &path)
{
    whenDiscardable(tr("opening %1").arg(QFileInfo(path).fileName()), [this, path] {
        if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
            openSpecFile(path);
        else
            importScriptFile(path);
    });
}

bool ComposeFiles::canReimport() const
{
    return m_diagnostics->hasImported() && !m_importText.isEmpty();
}

void ComposeFiles::reimport()
{
    importScriptText(m_importText, m_importName);
}

// ---- Unsaved changes and the next start -------------------------------------

QMessageBox *ComposeFiles::pendingQuestion() const
{
    return m_discardQuestion;
}

void ComposeFiles::whenDiscardable(const QString &action, std::function<void()> proceed)
{
    if (!m_history->isModified()) {
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
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, m_dialogParent->window());
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
            askSaveAs(QStringLiteral("saveBeforeDialog"), proceed);
        }
    });
    m_discardQuestion->open();
}

void ComposeFiles::cloneSpec(const JobSpec &spec)
{
    whenDiscardable(tr("replacing the form with the run's spec"), [this, spec] {
        m_loadSpec(spec);
        m_history->reset(true);   // a run's spec is not a saved file
        setSpecPath(QString());
    });
}

void ComposeFiles::rememberSession() const
{
    AppSettings::set(AppSettings::Key::LastSpecJson, QString::fromUtf8(jobSpecToJson(m_form->spec(), -1)));
    AppSettings::set(AppSettings::Key::LastSpecPath, m_specPath);
    AppSettings::set(AppSettings::Key::LastSpecModified, m_history->isModified());
}

void ComposeFiles::restoreLastSession()
{
    // A spec opened at start (scalelab --open) or edits made meanwhile win.
    if (!m_specPath.isEmpty() || m_history->isModified() || m_history->stack()->count() > 0)
        return;
    const QByteArray json = AppSettings::get(AppSettings::Key::LastSpecJson).toString().toUtf8();
    if (json.isEmpty())
        return;
    const auto parsed = parseJobSpec(json, tr("the last session's form"));
    if (!parsed.spec)
        return;   // an older ScaleLab's form: start fresh
    m_loadSpec(*parsed.spec);
    m_history->reset(AppSettings::get(AppSettings::Key::LastSpecModified).toBool());
    setSpecPath(AppSettings::get(AppSettings::Key::LastSpecPath).toString());
}

}   // namespace scalelab
