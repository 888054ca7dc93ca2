// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QList>

class QAction;
class QTabWidget;
class QTableWidget;
class QTextBrowser;

namespace scalelab {

// Help ▸ Guide and Help ▸ Keyboard shortcuts: a short guide to the three
// places and a table of every shortcut, read from the window's own actions
// so the list cannot drift from the menus.
class HelpDialog : public QDialog {
    Q_OBJECT
public:
    enum Page { GuidePage = 0, ShortcutsPage = 1 };
    HelpDialog(const QList<QAction *> &actions, QWidget *parent = nullptr);

    void showPage(Page page);
    QTextBrowser *guide() const { return m_guide; }
    QTableWidget *shortcuts() const { return m_shortcuts; }

    // "Submit\tCtrl+Return" lines, one per action with a shortcut (for tests and the table).
    static QList<QPair<QString, QString>> shortcutRows(const QList<QAction *> &actions);
    static QString guideHtml();

private:
    QTabWidget *m_tabs;
    QTextBrowser *m_guide;
    QTableWidget *m_shortcuts;
};

}   // namespace scalelab
