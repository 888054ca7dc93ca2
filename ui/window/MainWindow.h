// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>

#include <QHash>
#include <QMainWindow>

class QAction;
class QLabel;
class QTabWidget;
class QCloseEvent;

namespace scalelab {

class AppServices;
class ComposePlace;
class HelpDialog;
class MainMenus;
class StoreBanner;

// The window: three places (Compose, Jobs, Results), menus, shortcuts and a
// status bar with one connection line per cluster. Jobs and Results are
// built the first time they are shown, so the window appears quickly.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum Place { ComposeIndex = 0, JobsIndex = 1, ResultsIndex = 2 };

    explicit MainWindow(AppServices &services, QWidget *parent = nullptr);

    ComposePlace *compose();   // built on first use
    QTabWidget *places() const { return m_tabs; }
    StoreBanner *storeBanner() const { return m_storeBanner; }
    QWidget *place(int index);   // builds it when needed
    void showPlace(int index);
    QAction *action(const QString &name) const;   // by objectName, for tests
    QString connectionStatusText() const;

    // Connects the status bar to the cluster layer (once it exists).
    void attachClusters();

    // Clusters ▸ Connections; a failure to open says why in the status bar.
    void openConnections();
    // Help ▸ Guide (0) or Help ▸ Keyboard shortcuts (1); one dialog, raised again.
    void showHelp(int page);
    HelpDialog *helpDialog() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    // Asks before unsaved Compose changes are lost; remembers the form.
    void closeEvent(QCloseEvent *event) override;

Q_SIGNALS:
    // The first frame is on screen and the current place is built: the time
    // to start what the first frame need not wait for (the cluster layer).
    void firstFramePainted();

public Q_SLOTS:
    void setConnectionStatus(const QString &clusterId, const QString &text);

private:
    void applyIcons();
    void updateTitle();
    void connectUndo();

    AppServices &m_services;
    QTabWidget *m_tabs;
    ComposePlace *m_compose = nullptr;
    QStringList m_tabIcons;
    bool m_iconsApplied = false;
    QList<QWidget *> m_containers;   // one per place; the place is added inside when built
    QList<QWidget *> m_built;
    QHash<QString, QLabel *> m_connectionLabels;
    QObject *m_attachedClusters = nullptr;
    MainMenus *m_menus = nullptr;
    QPointer<HelpDialog> m_help;
    StoreBanner *m_storeBanner = nullptr;
    bool m_closeConfirmed = false;
};

}   // namespace scalelab
