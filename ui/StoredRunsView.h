#pragma once

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace scalelab {

class AppServices;

// A plain list of the stored runs: what the window shows in the Jobs and
// Results places when those places are not part of the build. Loads after
// it is first shown, and again when the store changes.
class StoredRunsView : public QWidget {
    Q_OBJECT
public:
    StoredRunsView(AppServices &services, const QString &title, QWidget *parent = nullptr);

    void reload();
    QTreeWidget *tree() const { return m_tree; }

protected:
    void showEvent(QShowEvent *event) override;

private:
    void cloneSelected();

    AppServices &m_services;
    QTreeWidget *m_tree;
    QLabel *m_status;
    bool m_loaded = false;
};

} // namespace scalelab
