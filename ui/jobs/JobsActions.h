// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/JobSpec.h"

#include <QObject>
#include <QString>

#include <optional>

class QWidget;

namespace scalelab {

class AppServices;
class JobsModel;

// What Jobs' buttons do to one run: cancel (asked first), dry run, resubmit,
// clone to Compose, withdraw an unsent run, hide or show it, put a resubmitted
// point into its study. The store writes run on the pool
// (AppServices::storeTasks); the views read the run again when it is done.
// Each outcome is said through message(), tied to the run it is about.
class JobsActions : public QObject {
    Q_OBJECT
public:
    JobsActions(AppServices &services, JobsModel &model, QWidget *dialogParent);

    void cancel(qint64 runId);
    void dryRun(qint64 runId);
    void resubmit(qint64 runId);
    void clone(qint64 runId);
    void withdraw(qint64 runId);
    void toggleHidden(qint64 runId);
    void addToStudy(qint64 runId);

    // The cluster layer's answers, said when they are for a run asked from
    // here (a dry run or submit from Compose is not Jobs' to tell).
    void onDryRunFinished(const QString &verdict, bool ok);
    // The run a submit's answer is about: the one resubmitted from here, else 0.
    qint64 takeResubmitted();

Q_SIGNALS:
    // `runId` 0: about no one run. `settles`: the action changes the run
    // itself, so the state it reaches next is the one the message describes.
    void message(const QString &text, bool error, qint64 runId, bool settles);
    void runJoinedStudy(qint64 runId);

private:
    // The run's stored spec; when it cannot be read, a message says why.
    std::optional<JobSpec> storedSpec(qint64 runId, const QByteArray &specJson);

    AppServices &m_services;
    JobsModel &m_model;
    QWidget *m_dialogParent;
    qint64 m_dryRunOf = 0;   // a dry run asked from here, for this run
    qint64 m_resubmitOf = 0;
};

}   // namespace scalelab
