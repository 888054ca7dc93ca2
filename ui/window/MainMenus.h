// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>

class QAction;
class QKeySequence;
class QMenu;

namespace scalelab {

class AppServices;
class MainWindow;

// The window's menu bar: File (with Recent specs and Run store), Edit, Job,
// Clusters, View and Help. Every action has an objectName (MainWindow::action
// finds it), its shortcuts and a tooltip naming the first of them; icons are
// set by applyIcons() after the first paint (the SVG engine loads then).
class MainMenus : public QObject {
    Q_OBJECT
public:
    MainMenus(MainWindow &window, AppServices &services);

    QAction *undo() const { return m_undo; }
    QAction *redo() const { return m_redo; }
    void applyIcons();
    // File ▸ Recent specs again from the settings (also each time it opens).
    void rebuildRecentMenu();

private:
    void buildFileMenu();
    void buildStoreMenu(QMenu *file);
    void buildEditMenu();
    void buildJobMenu();
    void buildClustersMenu();
    void buildViewMenu();
    void buildHelpMenu();
    void showAbout();
    QAction *addAction(QMenu *menu, const QString &name, const QString &text, const QList<QKeySequence> &keys,
                       const QString &icon = {});

    MainWindow &m_window;
    AppServices &m_services;
    QMenu *m_recentMenu = nullptr;
    QAction *m_undo = nullptr;
    QAction *m_redo = nullptr;
    QList<QPair<QPointer<QAction>, QString>> m_actionIcons;
};

}   // namespace scalelab
