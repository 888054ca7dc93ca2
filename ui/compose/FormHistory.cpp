// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compose/FormHistory.h"

#include "ui/compose/JobForm.h"

#include <QApplication>
#include <QPointer>
#include <QUndoCommand>
#include <QUndoStack>
#include <QWidget>

namespace scalelab {

class FormEditCommand : public QUndoCommand {
public:
    FormEditCommand(FormHistory *history, JobSpec before, JobSpec after, QWidget *field)
        : m_history(history)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_field(field)
    {
        setText(field && !field->accessibleName().isEmpty() ? QObject::tr("edit of %1").arg(field->accessibleName())
                                                            : QObject::tr("edit"));
    }
    int id() const override { return 1; }
    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *o = static_cast<const FormEditCommand *>(other);
        // Steps in one field merge; a change of field starts a new step.
        if (!m_field || o->m_field != m_field)
            return false;
        m_after = o->m_after;
        return true;
    }
    void redo() override
    {
        // The first redo is the edit the researcher just made: the form holds it already.
        if (m_first) {
            m_first = false;
            return;
        }
        m_history->apply(m_after);
    }
    void undo() override { m_history->apply(m_before); }

private:
    FormHistory *m_history;
    JobSpec m_before;
    JobSpec m_after;
    QPointer<QWidget> m_field;
    bool m_first = true;
};

FormHistory::FormHistory(JobForm *form, QObject *parent)
    : QObject(parent)
    , m_form(form)
    , m_stack(new QUndoStack(this))
{
    m_current = form->spec();
    connect(m_stack, &QUndoStack::cleanChanged, this, [this] { emitIfChanged(); });
}

void FormHistory::record()
{
    const JobSpec now = m_form->spec();
    if (now == m_current)
        return;
    // The field being edited: the focused widget inside the form, if any.
    QWidget *field = QApplication::focusWidget();
    if (field && !m_form->isAncestorOf(field))
        field = nullptr;
    m_stack->push(new FormEditCommand(this, m_current, now, field));
    m_current = now;
    emitIfChanged();
}

void FormHistory::reset(bool modified)
{
    m_stack->clear();
    m_current = m_form->spec();
    m_baseModified = modified;
    emitIfChanged();
}

void FormHistory::markSaved()
{
    m_stack->setClean();
    m_baseModified = false;
    emitIfChanged();
}

bool FormHistory::isModified() const
{
    return m_baseModified || !m_stack->isClean();
}

void FormHistory::apply(const JobSpec &spec)
{
    m_form->setSpec(spec);
    m_current = spec;
    Q_EMIT applied();
}

void FormHistory::emitIfChanged()
{
    const bool now = isModified();
    if (now == m_lastModified)
        return;
    m_lastModified = now;
    Q_EMIT modifiedChanged(now);
}

}   // namespace scalelab
