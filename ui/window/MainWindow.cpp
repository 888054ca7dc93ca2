// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/MainWindow.h"

#include "ui/common/AfterFirstPaint.h"
#include "ui/window/DiagnosticsDialog.h"
#include "ui/common/AppServices.h"
#include "ui/compose/ComposePlace.h"
#include "ui/compose/ProfileDriftBanner.h"
#include "ui/common/RecentSpecs.h"
#include "ui/common/UiResources.h"
#include "ui/window/SettingsDialog.h"

#include "ui/jobs/JobsPlace.h"
#include "ui/results/ResultsPlace.h"
#include "ui/common/ClusterService.h"

#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QPointer>
#include <QTimer>
#include <QVBoxLayout>

namespace scalelab {

MainWindow::MainWindow(AppServices &services, QWidget *parent) : QMainWindow(parent), m_services(services)
{
    ensureUiResources();
    setWindowTitle(tr("ScaleLab"));
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
    setCentralWidget(m_tabs);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int i) { place(i); });
    connect(&services, &AppServices::showPlaceRequested, this, &MainWindow::showPlace);
    connect(&services, &AppServices::openSpecRequested, this, [this] { showPlace(ComposeIndex); });
    // The places are built once the empty window has painted (or when asked
    // for earlier): the window appears as fast as a bare one, the form a
    // moment later.
    m_tabs->installEventFilter(this);

    buildMenus();
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
            connect(m_compose, &ComposePlace::message, this, [this](const QString &t) { statusBar()->showMessage(t, 8000); });
            connect(m_compose, &ComposePlace::recentSpecsChanged, this, &MainWindow::rebuildRecentMenu);
            m_compose->updateActions();
            // Opening the store (SQLite, migrations) waits until the form has
            // painted; a broken store is reported then.
            new AfterFirstPaint(m_compose, [this] {
                if (const QString error = m_services.storeError(); !error.isEmpty())
                    statusBar()->showMessage(tr("The run store could not be opened: %1").arg(error));
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

QAction *MainWindow::addAction(QMenu *menu, const QString &name, const QString &text, const QList<QKeySequence> &keys,
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

QAction *MainWindow::action(const QString &name) const
{
    return findChild<QAction *>(name);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    connect(addAction(file, QStringLiteral("openSpec"), tr("&Open spec…"), {QKeySequence::Open}), &QAction::triggered, this,
            [this] {
                showPlace(ComposeIndex);
                compose()->openSpecDialog();
            });
    connect(addAction(file, QStringLiteral("saveSpec"), tr("&Save spec"), {QKeySequence::Save}), &QAction::triggered, this,
            [this] { compose()->saveSpec(); });
    connect(addAction(file, QStringLiteral("saveSpecAs"), tr("Save spec &as…"), {QKeySequence(tr("Ctrl+Shift+S"))}),
            &QAction::triggered, this, [this] { compose()->saveSpecAsDialog(); });
    m_recentMenu = file->addMenu(tr("&Recent specs"));
    m_recentMenu->setObjectName(QStringLiteral("recentSpecs"));
    // Filled when opened (reading settings is kept out of start-up).
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    connect(addAction(file, QStringLiteral("importScript"), tr("&Import sbatch script…"), {QKeySequence(tr("Ctrl+I"))}),
            &QAction::triggered, this, [this] {
                showPlace(ComposeIndex);
                compose()->importScriptDialog();
            });
    file->addSeparator();
    auto *quit = addAction(file, QStringLiteral("quit"), tr("&Quit"), {QKeySequence::Quit, QKeySequence(tr("Ctrl+Q"))});
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu *job = menuBar()->addMenu(tr("&Job"));
    connect(addAction(job, QStringLiteral("submit"), tr("&Submit"), {QKeySequence(tr("Ctrl+Return")), QKeySequence(tr("Ctrl+Enter"))},
                      QStringLiteral(":/scalelab/icons/submit.svg")),
            &QAction::triggered, this, [this] { compose()->submit(); });
    connect(addAction(job, QStringLiteral("dryRun"), tr("&Dry run"),
                      {QKeySequence(tr("Ctrl+Shift+Return")), QKeySequence(tr("Ctrl+Shift+Enter"))},
                      QStringLiteral(":/scalelab/icons/dryrun.svg")),
            &QAction::triggered, this, [this] { compose()->dryRun(); });
    connect(addAction(job, QStringLiteral("copyScript"), tr("&Copy script"), {QKeySequence(tr("Ctrl+Shift+C"))},
                      QStringLiteral(":/scalelab/icons/copy.svg")),
            &QAction::triggered, this, [this] { compose()->copyScript(); });
    connect(addAction(job, QStringLiteral("study"), tr("Scaling s&tudy…"), {}, QStringLiteral(":/scalelab/icons/study.svg")),
            &QAction::triggered, this, [this] {
                showPlace(ComposeIndex);
                compose()->openStudy();
            });

    QMenu *clusters = menuBar()->addMenu(tr("&Clusters"));
    connect(addAction(clusters, QStringLiteral("connections"), tr("&Connections…"), {QKeySequence(tr("Ctrl+K"))}),
            &QAction::triggered, this, &MainWindow::openConnections);
    connect(addAction(clusters, QStringLiteral("addCluster"), tr("&Add cluster…"), {}), &QAction::triggered, this,
            [this] {
                if (const QString e = m_services.openAddCluster(this); !e.isEmpty())
                    statusBar()->showMessage(tr("Cannot add a cluster: %1").arg(e), 15000);
            });
    connect(addAction(clusters, QStringLiteral("refreshProfile"), tr("&Refresh profile from cluster"), {}),
            &QAction::triggered, this, [this] {
                showPlace(ComposeIndex);
                compose()->driftBanner()->refresh();
            });
    connect(addAction(clusters, QStringLiteral("settings"), tr("&Settings…"), {QKeySequence::Preferences}),
            &QAction::triggered, this, [this] {
                auto *d = new SettingsDialog(m_services, this);
                d->setAttribute(Qt::WA_DeleteOnClose);
                d->open();
            });

    QMenu *view = menuBar()->addMenu(tr("&View"));
    const QStringList placeNames{tr("&Compose"), tr("&Jobs"), tr("&Results")};
    const QStringList ids{QStringLiteral("showCompose"), QStringLiteral("showJobs"), QStringLiteral("showResults")};
    for (int i = 0; i < 3; ++i)
        connect(addAction(view, ids[i], placeNames[i], {QKeySequence(tr("Ctrl+%1").arg(i + 1))}), &QAction::triggered,
                this, [this, i] { showPlace(i); });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    connect(addAction(help, QStringLiteral("diagnostics"), tr("&Diagnostics…"), {}), &QAction::triggered, this, [this] {
        auto *d = new DiagnosticsDialog(this);
        d->setAttribute(Qt::WA_DeleteOnClose);
        d->open();
    });
    auto *about = addAction(help, QStringLiteral("about"), tr("&About ScaleLab"), {});
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &MainWindow::showAbout);
}

void MainWindow::openConnections()
{
    if (const QString error = m_services.openConnections(this); !error.isEmpty())
        statusBar()->showMessage(tr("Connections cannot be edited: %1").arg(error), 15000);
}

void MainWindow::rebuildRecentMenu()
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
            showPlace(ComposeIndex);
            if (!QFileInfo::exists(path)) {
                RecentSpecs::remove(path);
                statusBar()->showMessage(tr("%1 no longer exists; removed from the recent specs.").arg(path), 8000);
                return;
            }
            compose()->openSpecFile(path);
        });
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none yet)"))->setEnabled(false);
    else {
        m_recentMenu->addSeparator();
        connect(m_recentMenu->addAction(tr("Clear list")), &QAction::triggered, this, [] { RecentSpecs::clear(); });
    }
}

void MainWindow::showAbout()
{
    auto *box = new QMessageBox(QMessageBox::Information, tr("About ScaleLab"),
                                tr("<b>ScaleLab %1</b><p>Compose multi-GPU Slurm jobs, submit them over SSH, watch them "
                                   "and compare finished runs: speedup, efficiency, GPU utilisation and accuracy.</p>")
                                    .arg(QApplication::applicationVersion()),
                                QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setIconPixmap(QIcon(QStringLiteral(":/scalelab/icon.svg")).pixmap(64, 64));
    box->open();
}

void MainWindow::attachClusters()
{
    ClusterService *cm = m_services.clusters();
    if (cm && cm != m_attachedClusters) {
        m_attachedClusters = cm;
        connect(cm, &ClusterService::connectionStatus, this, &MainWindow::setConnectionStatus);
    }
    if (m_compose)
        m_compose->updateActions();
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
    for (const auto &[action, icon] : m_actionIcons)
        if (action)
            action->setIcon(QIcon(icon));
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

} // namespace scalelab
