// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/JobSpec.h"

#include <QObject>

class QUndoStack;

namespace scalelab {

class JobForm;

// Undo/redo of the job form and whether it differs from what was last
// opened or saved. Each edit is a snapshot of the whole JobSpec (a few
// hundred bytes); consecutive edits in the same field (typing a path, wheel
// steps of a focused spin box) merge into one step.
class FormHistory : public QObject {
    Q_OBJECT
public:
    FormHistory(JobForm *form, QObject *parent = nullptr);

    QUndoStack *stack() const { return m_stack; }
    // After every edit of the form (not after setSpec of undo/redo itself).
    void record();
    // A new starting point (opened, cloned, imported): no undo across it.
    // `modified` = the form holds something that is not saved in a file.
    void reset(bool modified);
    void markSaved();
    bool isModified() const;
    JobSpec current() const { return m_current; }

Q_SIGNALS:
    void modifiedChanged(bool modified);
    // Undo or redo put a snapshot into the form.
    void applied();

private:
    friend class FormEditCommand;
    void apply(const JobSpec &spec);
    void emitIfChanged();

    JobForm *m_form;
    QUndoStack *m_stack;
    JobSpec m_current;
    bool m_baseModified = false;
    bool m_lastModified = false;
};

}   // namespace scalelab
