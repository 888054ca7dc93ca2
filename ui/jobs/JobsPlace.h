// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QSet>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLayout;
class QLineEdit;
class QPushButton;
class QTimer;
class QTreeView;

namespace scalelab {

class AlertBanner;
class AppServices;
class ClusterService;
class JobsActions;
class JobsModel;
class RunDetailsView;

// The Jobs place: every run, grouped by study, with its live state, and the
// selected run's details. On AppServices::runsChanged the changed runs are read
// again off the GUI thread and patched in; the buttons' actions are
// JobsActions', which go to the ClusterService (which may appear after this
// widget: it is looked up when needed). The message line says what came of an
// action or a read; a message about a run goes when another row (or none, the
// run still listed) is selected, or when that run's state moves on.
class JobsPlace : public QWidget {
    Q_OBJECT
public:
    explicit JobsPlace(AppServices &services, QWidget *parent = nullptr);

    JobsModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    RunDetailsView *details() const { return m_details; }
    QLineEdit *filterEdit() const { return m_filter; }
    QLabel *messageLabel() const { return m_message; }
    // The run the message line is about, 0 = none (a store error, a submit from Compose).
    qint64 messageRunId() const { return m_messageRun; }
    AlertBanner *alertBanner() const { return m_banner; }
    QPushButton *withdrawButton() const { return m_withdraw; }
    QPushButton *hideButton() const { return m_hide; }
    QPushButton *addToStudyButton() const { return m_addToStudy; }
    // The selected resubmitted point joins the study of the run it repeats.
    void addSelectedToStudy();
    QCheckBox *showHiddenCheck() const { return m_showHidden; }

    // The selected unsent run is withdrawn (never sent), on the pool; the
    // message line says what came of it.
    void withdrawSelected();
    // Hides the selected run (or shows it again when it is hidden).
    void toggleHiddenSelected();

    qint64 selectedRunId() const;
    bool selectRun(qint64 runId);
    // Reads the store on a pool thread; the model says loaded() when shown.
    void reload();
    // A read (the tree, the selected run's details) or one of the window's
    // store writes still under way.
    bool isLoading() const;

protected:
    void showEvent(QShowEvent *event) override;

private:
    void buildFilter();
    QLayout *buildButtons();
    void buildView();
    void connectButtons();
    void attachClusters();
    ClusterService *clusters();
    void onSelectionChanged();
    void updateButtons();
    void showMessage(const QString &text, bool error = false, qint64 runId = 0, bool settles = false);
    void checkMessage();
    QString stateKey(qint64 runId) const;
    void tick();
    void connectModel();
    void expandStudies();
    void expandNew(const QModelIndex &parent, int first, int last);
    void onLoaded(const QString &error);
    void attachLive(ClusterService *cm);

    AppServices &m_services;
    JobsModel *m_model;
    JobsActions *m_actions;
    QTreeView *m_view;
    RunDetailsView *m_details;
    QLineEdit *m_filter;
    QLabel *m_message;
    AlertBanner *m_banner;
    QPushButton *m_cancel;
    QPushButton *m_dryRun;
    QPushButton *m_resubmit;
    QPushButton *m_clone;
    QPushButton *m_refresh;
    QPushButton *m_withdraw;
    QPushButton *m_hide;
    QPushButton *m_addToStudy;
    QCheckBox *m_showHidden;
    QTimer *m_messageExpiry;
    QTimer *m_tick;
    QPointer<ClusterService> m_attached;
    QSet<qint64> m_collapsedStudies;
    qint64 m_keepSelected = 0;   // the run selected when the model was reset
    qint64 m_messageRun = 0;   // the run the message is about
    QString m_messageState;   // that run's state (stateKey) when the message was said
    bool m_messageSettles = false;   // its state is taken at the next read (the action changed it)
};

}   // namespace scalelab
