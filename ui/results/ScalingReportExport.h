// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/RunMetricsTable.h"

#include <QObject>
#include <QString>

class QWidget;

namespace scalelab {

class AppServices;
struct ReportInput;

// Results' "Scaling report…": the file dialog (PDF, Markdown or CSV), then the
// store read and the writing on pool threads; only the charts (widgets) and
// the HTML are made on the GUI thread, in milliseconds.
class ScalingReportExport : public QObject {
    Q_OBJECT
public:
    ScalingReportExport(AppServices &services, QWidget *dialogParent);

    // Asks for a file, then write(); the suffix of the filter chosen unless the name has one of the three.
    void ask(qint64 studyId, HiddenRuns hidden);
    // A PDF, or the Markdown tables or strong-scaling CSV when `path` ends in .md or .csv.
    void write(qint64 studyId, HiddenRuns hidden, const QString &path);
    bool isWriting() const { return m_writing > 0; }

Q_SIGNALS:
    void started(const QString &path);
    void finished(const QString &path, const QString &error);   // error "" = written

private:
    void print(const QString &path, const ReportInput &input);
    void done(const QString &path, const QString &error);

    AppServices &m_services;
    QWidget *m_dialogParent;
    int m_writing = 0;
};

}   // namespace scalelab
