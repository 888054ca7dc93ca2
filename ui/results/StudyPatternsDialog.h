// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTableWidget;

namespace scalelab {

class AppServices;
struct StudyRecord;

// Edits a study's user-defined log metrics (name, regex, unit,
// last|mean|max|min), kept in the study's notes (StudyMetricPatterns).
// Non-modal: open() it; `saved` fires after the notes were written. The
// study is read and its notes written on backgroundPool() (the window's
// StoreTaskQueue): Save is off until the patterns are read.
class StudyPatternsDialog : public QDialog {
    Q_OBJECT
public:
    StudyPatternsDialog(AppServices &services, qint64 studyId, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    QPushButton *saveButton() const { return m_save; }
    QLabel *errorLabel() const { return m_error; }
    // The study's patterns are being read, or the notes written.
    bool isLoading() const { return m_busy; }

Q_SIGNALS:
    void saved(qint64 studyId);

private:
    void addRow(const QString &name, const QString &regex, const QString &unit, const QString &aggregation);
    void save();
    void showStudy(const Result<StudyRecord> &study);
    QWidget *builtinReaders();

    AppServices &m_services;
    QPushButton *m_save = nullptr;
    bool m_busy = true;
    qint64 m_studyId = 0;
    QString m_text;
    QTableWidget *m_table = nullptr;
    QLabel *m_error = nullptr;
};

}   // namespace scalelab
