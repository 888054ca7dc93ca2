// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QLabel;
class QTableWidget;

namespace scalelab {

class RunStore;

// Edits a study's user-defined log metrics (name, regex, unit,
// last|mean|max|min), kept in the study's notes (StudyMetricPatterns).
// Non-modal: open() it; `saved` fires after the notes were written.
class StudyPatternsDialog : public QDialog {
    Q_OBJECT
public:
    StudyPatternsDialog(RunStore &store, qint64 studyId, QWidget *parent = nullptr);

Q_SIGNALS:
    void saved(qint64 studyId);

private:
    void addRow(const QString &name, const QString &regex, const QString &unit, const QString &aggregation);
    void save();
    QWidget *builtinReaders();

    RunStore &m_store;
    qint64 m_studyId = 0;
    QString m_text;
    QTableWidget *m_table = nullptr;
    QLabel *m_error = nullptr;
};

}   // namespace scalelab
