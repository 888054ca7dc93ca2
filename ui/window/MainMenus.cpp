// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/MainMenus.h"

#include "ui/common/AppServices.h"
#include "ui/common/RecentSpecs.h"
#include "ui/compose/ComposeFiles.h"
#include "ui/compose/ComposePlace.h"
#include "ui/compose/FormHistory.h"
#include "ui/compose/ProfileDriftBanner.h"
#include "ui/window/DiagnosticsDialog.h"
#include "ui/window/HelpDialog.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SettingsDialog.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QIcon>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QUndoStack>

namespace scalelab {

MainMenus::MainMenus(MainWindow &window, AppServices &services)
    : QObject(&window)
    , m_window(window)
    , m_services(services)
{
    buildFileMenu();
    buildEditMenu();
    buildJobMenu();
    buildClustersMenu();
    buildViewMenu();
    buildHelpMenu();
}

void MainMenus::applyIcons()
{
    for (const auto &[action, icon] : m_actionIcons)
        if (action)
            action->setIcon(QIcon(icon));
}

void MainMenus::buildFileMenu()
{
    QMenu *file = m_window.menuBar()->addMenu(tr("&File"));
    connect(addAction(file, QStringLiteral("openSpec"), tr("&Open spec…"), {QKeySequence::Open}), &QAction::triggered,
            this, [this] {
                m_window.showPlace(MainWindow::ComposeIndex);
                m_window.compose()->files()->openSpecDialog();
            });
    connect(addAction(file, QStringLiteral("saveSpec"), tr("&Save spec"), {QKeySequence::Save}), &QAction::triggered,
            this, [this] { m_window.compose()->files()->saveSpec(); });
    connect(addAction(file, QStringLiteral("saveSpecAs"), tr("Save spec &as…"), {QKeySequence(tr("Ctrl+Shift+S"))}),
            &QAction::triggered, this, [this] { m_window.compose()->files()->saveSpecAsDialog(); });
    m_recentMenu = file->addMenu(tr("&Recent specs"));
    m_recentMenu->setObjectName(QStringLiteral("recentSpecs"));
    // Filled when opened (reading settings is kept out of start-up).
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainMenus::rebuildRecentMenu);
    connect(addAction(file, QStringLiteral("importScript"), tr("&Import sbatch script…"), {QKeySequence(tr("Ctrl+I"))}),
            &QAction::triggered, this, [this] {
                m_window.showPlace(MainWindow::ComposeIndex);
                m_window.compose()->files()->importScriptDialog();
            });
    buildStoreMenu(file);
    file->addSeparator();
    // One key only: QKeySequence::Quit is Ctrl+Q on Linux, and the same key
    // bound twice makes Qt drop both ("Ambiguous shortcut overload").
    auto *quit = addAction(file, QStringLiteral("quit"), tr("&Quit"), {QKeySequence(Qt::CTRL | Qt::Key_Q)});
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, &m_window, &QWidget::close);
}

void MainMenus::buildEditMenu()
{
    QMenu *edit = m_window.menuBar()->addMenu(tr("&Edit"));
    m_undo = addAction(edit, QStringLiteral("undo"), tr("&Undo"), {QKeySequence::Undo});
    m_redo = addAction(edit, QStringLiteral("redo"), tr("&Redo"), {QKeySequence::Redo});
    m_undo->setEnabled(false);
    m_redo->setEnabled(false);
    connect(m_undo, &QAction::triggered, this, [this] { m_window.compose()->history()->stack()->undo(); });
    connect(m_redo, &QAction::triggered, this, [this] { m_window.compose()->history()->stack()->redo(); });
}

void MainMenus::buildJobMenu()
{
    QMenu *job = m_window.menuBar()->addMenu(tr("&Job"));
    connect(addAction(job, QStringLiteral("submit"), tr("&Submit"),
                      {QKeySequence(tr("Ctrl+Return")), QKeySequence(tr("Ctrl+Enter"))},
                      QStringLiteral(":/scalelab/icons/submit.svg")),
            &QAction::triggered, this, [this] { m_window.compose()->submit(); });
    connect(addAction(job, QStringLiteral("dryRun"), tr("&Dry run"),
                      {QKeySequence(tr("Ctrl+Shift+Return")), QKeySequence(tr("Ctrl+Shift+Enter"))},
                      QStringLiteral(":/scalelab/icons/dryrun.svg")),
            &QAction::triggered, this, [this] { m_window.compose()->dryRun(); });
    connect(addAction(job, QStringLiteral("copyScript"), tr("&Copy script"), {QKeySequence(tr("Ctrl+Shift+C"))},
                      QStringLiteral(":/scalelab/icons/copy.svg")),
            &QAction::triggered, this, [this] { m_window.compose()->copyScript(); });
    connect(addAction(job, QStringLiteral("study"), tr("Scaling s&tudy…"), {},
                      QStringLiteral(":/scalelab/icons/study.svg")),
            &QAction::triggered, this, [this] {
                m_window.showPlace(MainWindow::ComposeIndex);
                m_window.compose()->openStudy();
            });
}

void MainMenus::buildClustersMenu()
{
    QMenu *clusters = m_window.menuBar()->addMenu(tr("&Clusters"));
    connect(addAction(clusters, QStringLiteral("connections"), tr("&Connections…"), {QKeySequence(tr("Ctrl+K"))}),
            &QAction::triggered, &m_window, &MainWindow::openConnections);
    connect(addAction(clusters, QStringLiteral("addCluster"), tr("&Add cluster…"), {}), &QAction::triggered, this,
            [this] {
                if (const auto opened = m_services.openAddCluster(&m_window); !opened)
                    m_window.statusBar()->showMessage(tr("Cannot add a cluster: %1").arg(opened.errorText()), 15000);
            });
    connect(addAction(clusters, QStringLiteral("refreshProfile"), tr("&Refresh profile from cluster"), {}),
            &QAction::triggered, this, [this] {
                m_window.showPlace(MainWindow::ComposeIndex);
                m_window.compose()->driftBanner()->refresh();
            });
    connect(addAction(clusters, QStringLiteral("settings"), tr("&Settings…"), {QKeySequence::Preferences}),
            &QAction::triggered, this, [this] {
                auto *d = new SettingsDialog(m_services, &m_window);
                d->setAttribute(Qt::WA_DeleteOnClose);
                d->open();
            });
}

void MainMenus::buildViewMenu()
{
    QMenu *view = m_window.menuBar()->addMenu(tr("&View"));
    const QStringList placeNames{tr("&Compose"), tr("&Jobs"), tr("&Results")};
    const QStringList ids{QStringLiteral("showCompose"), QStringLiteral("showJobs"), QStringLiteral("showResults")};
    for (int i = 0; i < 3; ++i)
        connect(addAction(view, ids[i], placeNames[i], {QKeySequence(tr("Ctrl+%1").arg(i + 1))}), &QAction::triggered,
                this, [this, i] { m_window.showPlace(i); });
}

void MainMenus::buildHelpMenu()
{
    QMenu *help = m_window.menuBar()->addMenu(tr("&Help"));
    connect(addAction(help, QStringLiteral("guide"), tr("&Guide"), {QKeySequence::HelpContents}), &QAction::triggered,
            this, [this] { m_window.showHelp(HelpDialog::GuidePage); });
    connect(addAction(help, QStringLiteral("shortcuts"), tr("&Keyboard shortcuts"), {QKeySequence(tr("Ctrl+/"))}),
            &QAction::triggered, this, [this] { m_window.showHelp(HelpDialog::ShortcutsPage); });
    connect(addAction(help, QStringLiteral("diagnostics"), tr("&Diagnostics…"), {}), &QAction::triggered, this, [this] {
        auto *d = new DiagnosticsDialog(&m_window);
        d->setAttribute(Qt::WA_DeleteOnClose);
        d->open();
    });
    help->addSeparator();
    auto *about = addAction(help, QStringLiteral("about"), tr("&About ScaleLab"), {});
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &MainMenus::showAbout);
}

void MainMenus::buildStoreMenu(QMenu *file)
{
    // The same core calls as `scalelab store check|backup|restore`, on the pool.
    QMenu *store = file->addMenu(tr("Run s&tore"));
    store->setObjectName(QStringLiteral("runStore"));
    connect(addAction(store, QStringLiteral("storeCheck"), tr("&Check"), {}), &QAction::triggered, this, [this] {
        m_window.statusBar()->showMessage(tr("Checking the run store…"));
        m_services.runStoreTask(AppServices::StoreTask::Check);
    });
    connect(addAction(store, QStringLiteral("storeBackup"), tr("&Back up now"), {}), &QAction::triggered, this, [this] {
        m_window.statusBar()->showMessage(tr("Backing up the run store…"));
        m_services.runStoreTask(AppServices::StoreTask::Backup);
    });
    connect(addAction(store, QStringLiteral("storeRestore"), tr("&Restore last backup…"), {}), &QAction::triggered,
            this, [this] {
                auto *ask = new QMessageBox(QMessageBox::Question, tr("Restore the run store"),
                                            tr("Put the newest backup in place of the run store? The store as it is "
                                               "now is kept beside it. Close other ScaleLab windows first."),
                                            QMessageBox::Yes | QMessageBox::Cancel, &m_window);
                ask->setAttribute(Qt::WA_DeleteOnClose);
                connect(ask, &QMessageBox::buttonClicked, this, [this, ask](QAbstractButton *b) {
                    if (ask->standardButton(b) != QMessageBox::Yes)
                        return;
                    m_window.statusBar()->showMessage(tr("Restoring the run store…"));
                    m_services.runStoreTask(AppServices::StoreTask::RestoreLatest);
                });
                ask->open();
            });
}

QAction *MainMenus::addAction(QMenu *menu, const QString &name, const QString &text, const QList<QKeySequence> &keys,
                              const QString &icon)
{
    auto *a = menu->addAction(text);
    a->setObjectName(name);
    a->setShortcuts(keys);
    a->setShortcutContext(Qt::WindowShortcut);
    if (!icon.isEmpty())
        m_actionIcons << qMakePair(QPointer<QAction>(a), icon);   // set after the first paint
    QString tip = QString(text).remove(QLatin1Char('&'));
    if (!keys.isEmpty())
        tip += QStringLiteral(" (%1)").arg(keys.first().toString(QKeySequence::NativeText));
    a->setToolTip(tip);
    return a;
}

void MainMenus::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = RecentSpecs::list();
    for (const QString &path : recent) {
        QAction *a = m_recentMenu->addAction(QFileInfo(path).fileName());
        a->setToolTip(path);
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            m_window.showPlace(MainWindow::ComposeIndex);
            if (!QFileInfo::exists(path)) {
                RecentSpecs::remove(path);
                m_window.statusBar()->showMessage(tr("%1 no longer exists; removed from the recent specs.").arg(path),
                                                  8000);
                return;
            }
            m_window.compose()->files()->whenDiscardable(
                tr("opening %1").arg(QFileInfo(path).fileName()),
                [this, path] { m_window.compose()->files()->openSpecFile(path); });
        });
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none yet)"))->setEnabled(false);
    else {
        m_recentMenu->addSeparator();
        connect(m_recentMenu->addAction(tr("Clear list")), &QAction::triggered, this, [] { RecentSpecs::clear(); });
    }
}

void MainMenus::showAbout()
{
    auto *box =
        new QMessageBox(QMessageBox::Information, tr("About ScaleLab"),
                        tr("<b>ScaleLab %1</b><p>Compose multi-GPU Slurm jobs, submit them over SSH, watch them "
                           "and compare finished runs: speedup, efficiency, GPU utilisation and accuracy.</p>")
                            .arg(QApplication::applicationVersion()),
                        QMessageBox::Ok, &m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setIconPixmap(QIcon(QStringLiteral(":/scalelab/icon.svg")).pixmap(64, 64));
    box->open();
}

}   // namespace scalelab
