// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/MainWindow.h"

#include "ui/common/AfterFirstPaint.h"
#include "ui/common/AppServices.h"
#include "ui/compose/ComposeFiles.h"
#include "ui/compose/ComposePlace.h"
#include "ui/compose/FormHistory.h"
#include "ui/window/HelpDialog.h"
#include "ui/window/MainMenus.h"
#include "ui/common/UiResources.h"
#include "ui/window/StoreBanner.h"

#include "ui/jobs/JobsPlace.h"
#include "ui/results/ResultsPlace.h"
#include "ui/common/ClusterService.h"

#include <QAction>
#include <QCloseEvent>
#include <QUndoStack>
#include <QApplication>
#include <QLabel>
#include <QMenuBar>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QPointer>
#include <QTimer>
#include <QVBoxLayout>

namespace scalelab {

MainWindow::MainWindow(AppServices &services, QWidget *parent)
    : QMainWindow(parent)
    , m_services(services)
{
    ensureUiResources();
    setWindowTitle(tr("Untitled[*] — ScaleLab"));
    setAccessibleName(tr("ScaleLab"));
    m_tabs = new QTabWidget(this);
    m_tabs->setAccessibleName(tr("Places"));
    m_tabs->setDocumentMode(true);
    const QStringList names{tr("&Compose"), tr("&Jobs"), tr("&Results")};
    const QStringList icons{QStringLiteral("compose"), QStringLiteral("jobs"), QStringLiteral("results")};
    for (int i = 0; i < 3; ++i) {
        auto *container = new QWidget(this);
        auto *lay = new QVBoxLayout(container);
        lay->setContentsMargins(0, 0, 0, 0);
        m_containers << container;
        m_built << nullptr;
        m_tabs->addTab(container, names[i]);
        m_tabIcons << QStringLiteral(":/scalelab/icons/%1.svg").arg(icons[i]);
        m_tabs->setTabToolTip(i, tr("Ctrl+%1").arg(i + 1));
    }
    // The store banner above the places: opening (on the pool), busy, damaged.
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    m_storeBanner = new StoreBanner(services, central);
    centralLayout->addWidget(m_storeBanner);
    centralLayout->addWidget(m_tabs, 1);
    setCentralWidget(central);
    connect(&services, &AppServices::storeTaskFinished, this,
            [this](const QString &message) { statusBar()->showMessage(message, 30000); });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int i) { place(i); });
    connect(&services, &AppServices::showPlaceRequested, this, &MainWindow::showPlace);
    connect(&services, &AppServices::openSpecRequested, this, [this] { showPlace(ComposeIndex); });
    // The places are built once the empty window has painted (or when asked
    // for earlier): the window appears as fast as a bare one, the form a
    // moment later.
    m_tabs->installEventFilter(this);

    m_menus = new MainMenus(*this, m_services);
    statusBar()->setAccessibleName(tr("Status"));
    attachClusters();
    resize(1280, 800);
}

QWidget *MainWindow::place(int index)
{
    if (index < 0 || index >= m_built.size())
        return nullptr;
    if (!m_built[index]) {
        QWidget *w = nullptr;
        if (index == ComposeIndex) {
            m_compose = new ComposePlace(m_services, m_containers[index]);
            connect(m_compose, &ComposePlace::message, this,
                    [this](const QString &t) { statusBar()->showMessage(t, 8000); });
            connect(m_compose, &ComposePlace::recentSpecsChanged, m_menus, &MainMenus::rebuildRecentMenu);
            connect(m_compose, &ComposePlace::documentChanged, this, &MainWindow::updateTitle);
            m_compose->updateActions();
            connectUndo();
            // The form of the last session, once this one is on screen.
            new AfterFirstPaint(m_compose, [this] { m_compose->files()->restoreLastSession(); });
            updateTitle();
            // Opening the store (SQLite, its check, migrations) waits until the
            // form has painted, and runs on the pool: the banner says how it went.
            new AfterFirstPaint(m_compose, [this] {
                connect(&m_services, &AppServices::storeStateChanged, this, [this] {
                    if (m_services.storeState() != AppServices::StoreState::Failed)
                        return;
                    // Damage (at open or found later) is said whole; other failures are the open's.
                    statusBar()->showMessage(
                        m_services.storeDamaged()
                            ? m_services.storeError()
                            : tr("The run store could not be opened: %1").arg(m_services.storeError()),
                        30000);
                });
                m_services.openStoreInBackground();
            });
            w = m_compose;
        } else if (index == JobsIndex) {
            w = new JobsPlace(m_services, m_containers[index]);
        } else {
            w = new ResultsPlace(m_services, m_containers[index]);
        }
        m_containers[index]->layout()->addWidget(w);
        m_built[index] = w;
    }
    return m_built[index];
}

void MainWindow::showPlace(int index)
{
    if (index < 0 || index >= m_tabs->count())
        return;
    place(index);
    m_tabs->setCurrentIndex(index);
}

QAction *MainWindow::action(const QString &name) const
{
    return findChild<QAction *>(name);
}

void MainWindow::openConnections()
{
    if (const auto opened = m_services.openConnections(this); !opened)
        statusBar()->showMessage(tr("Connections cannot be edited: %1").arg(opened.errorText()), 15000);
}

void MainWindow::attachClusters()
{
    ClusterService *cm = m_services.clusters();
    if (cm && cm != m_attachedClusters) {
        m_attachedClusters = cm;
        connect(cm, &ClusterService::connectionStatus, this, &MainWindow::setConnectionStatus);
        connect(cm, &ClusterService::clusterMessage, this, [this](const QString &clusterId, const QString &text) {
            statusBar()->showMessage(clusterId.isEmpty() ? text : tr("%1: %2").arg(clusterId, text), 15000);
        });
    }
    if (m_compose)
        m_compose->updateActions();
}

HelpDialog *MainWindow::helpDialog() const
{
    return m_help;
}

void MainWindow::showHelp(int page)
{
    if (!m_help) {
        QList<QAction *> actions;
        for (QAction *top : menuBar()->actions())
            if (QMenu *menu = top->menu())
                for (QAction *a : menu->actions())
                    if (!a->isSeparator() && !a->menu())
                        actions << a;
        m_help = new HelpDialog(actions, this);
        m_help->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_help->showPage(HelpDialog::Page(page));
    m_help->show();
    m_help->raise();
}

void MainWindow::applyIcons()
{
    // SVG icons load the SVG icon engine: a few milliseconds kept out of the
    // time to the first window.
    if (m_iconsApplied)
        return;
    m_iconsApplied = true;
    setWindowIcon(QIcon(QStringLiteral(":/scalelab/icon.svg")));
    for (int i = 0; i < m_tabIcons.size(); ++i)
        m_tabs->setTabIcon(i, QIcon(m_tabIcons[i]));
    m_menus->applyIcons();
}

void MainWindow::updateTitle()
{
    if (!m_compose)
        return;
    // "[*]" is where Qt draws the modified mark.
    setWindowTitle(tr("%1[*] — ScaleLab").arg(m_compose->files()->documentName()));
    setWindowModified(m_compose->isModified());
}

void MainWindow::connectUndo()
{
    QUndoStack *stack = m_compose->history()->stack();
    m_menus->undo()->setEnabled(stack->canUndo());
    m_menus->redo()->setEnabled(stack->canRedo());
    connect(stack, &QUndoStack::canUndoChanged, m_menus->undo(), &QAction::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, m_menus->redo(), &QAction::setEnabled);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_compose && !m_closeConfirmed && m_compose->isModified()) {
        event->ignore();
        m_compose->files()->whenDiscardable(tr("quitting"), [this] {
            m_closeConfirmed = true;
            close();
        });
        return;
    }
    if (m_compose)
        m_compose->files()->rememberSession();
    m_closeConfirmed = false;
    QMainWindow::closeEvent(event);
}

ComposePlace *MainWindow::compose()
{
    place(ComposeIndex);
    return m_compose;
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_tabs && event->type() == QEvent::Paint) {
        m_tabs->removeEventFilter(this);
        QTimer::singleShot(0, this, [this] {
            QWidget *current = place(m_tabs->currentIndex());
            // The SVG icon engine and image plugins load once the place is on screen.
            new AfterFirstPaint(current, [this] { applyIcons(); });
            Q_EMIT firstFramePainted();
        });
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::setConnectionStatus(const QString &clusterId, const QString &text)
{
    QLabel *label = m_connectionLabels.value(clusterId);
    if (!label) {
        label = new QLabel(this);
        label->setAccessibleName(tr("Connection to %1").arg(clusterId));
        statusBar()->addPermanentWidget(label);
        m_connectionLabels.insert(clusterId, label);
    }
    label->setText(text);
    label->setToolTip(text);
}

QString MainWindow::connectionStatusText() const
{
    QStringList out;
    for (auto *l : m_connectionLabels)
        out << l->text();
    out.sort();
    return out.join(QLatin1Char('\n'));
}

}   // namespace scalelab
