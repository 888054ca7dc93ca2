// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compose/SegmentsEditor.h"

#include "core/model/SpecFields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

namespace scalelab {

SegmentsEditor::SegmentsEditor(QWidget *parent)
    : QWidget(parent)
{
    createFields();
    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_mode, 1);
    row->addWidget(m_count);
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("S&egments:"), row);
    form->addRow(tr("Si&gnal:"), m_signal);
    form->addRow(tr("Signal &lead:"), m_lead);
    form->addRow(tr("Checkpoint ta&kes:"), m_checkpoint);
    form->addRow(QString(), m_requeue);
    form->addRow(QString(), m_findings);
    for (QComboBox *c : {m_mode, m_signal})
        connect(c, &QComboBox::currentIndexChanged, this, &SegmentsEditor::changed);
    for (QSpinBox *s : {m_count, m_lead, m_checkpoint})
        connect(s, &QSpinBox::valueChanged, this, &SegmentsEditor::changed);
    connect(m_requeue, &QCheckBox::toggled, this, &SegmentsEditor::changed);
    updateEnabled();
}

void SegmentsEditor::createFields()
{
    auto named = [](auto *w, const QString &name, const char *field, const QString &tip) {
        w->setAccessibleName(name);
        w->setObjectName(QLatin1String(field));
        w->setToolTip(tip);
        return w;
    };
    m_mode = named(new QComboBox(this), tr("Segments"), SpecField::segmentsCount,
                   tr("A run longer than the partition's time limit: a chain of jobs, each resuming from the "
                      "checkpoint the one before left"));
    m_mode->addItem(tr("One job"));
    m_mode->addItem(tr("A number of segments"));
    m_mode->addItem(tr("Until the work is done"));
    m_count = named(new QSpinBox(this), tr("Number of segments"), "segments.countValue",
                    tr("Up to this many jobs; one not needed ends at once"));
    m_count->setRange(1, SegmentSpec::kMaxSegments);
    m_count->setValue(3);
    m_signal = named(new QComboBox(this), tr("Signal before the limit"), SpecField::segmentsSignal,
                     tr("The signal the training gets before the limit, to checkpoint"));
    m_signal->addItem(tr("USR1 (Lightning's auto-requeue)"), QStringLiteral("USR1"));
    m_signal->addItem(tr("USR2 (submitit)"), QStringLiteral("USR2"));
    m_lead = named(new QSpinBox(this), tr("Signal lead"), SpecField::segmentsSignalLead,
                   tr("Seconds before the time limit the signal comes: longer than a checkpoint takes"));
    m_lead->setRange(0, 7 * 24 * 3600);
    m_lead->setSuffix(tr(" s before the limit"));
    m_lead->setValue(SegmentSpec{}.signalLeadSeconds);
    m_checkpoint = named(new QSpinBox(this), tr("Checkpoint time"), SpecField::segmentsCheckpoint,
                         tr("How long the training takes to write its checkpoint, as measured: the signal lead "
                            "must cover it"));
    m_checkpoint->setRange(0, 24 * 3600);
    m_checkpoint->setSuffix(tr(" s"));
    m_checkpoint->setSpecialValueText(tr("not known"));
    m_requeue = named(new QCheckBox(tr("Requeue a segment after a node failure (--requeue)"), this), tr("Requeue"),
                      SpecField::segmentsRequeue,
                      tr("Slurm may start a segment again when its node fails; the training resumes from its "
                         "checkpoint"));
    m_findings = new QLabel(this);
    m_findings->setObjectName(QStringLiteral("segments.findings"));
    m_findings->setWordWrap(true);
    m_findings->setVisible(false);
}

SegmentSpec SegmentsEditor::segments() const
{
    const int mode = m_mode->currentIndex();
    if (mode == Off)
        return SegmentSpec{};   // one job: the spec carries no segments
    SegmentSpec g;
    g.untilDone = mode == UntilDone;
    g.count = mode == Fixed ? m_count->value() : 0;
    g.signal = m_signal->currentData().toString();
    g.signalLeadSeconds = m_lead->value();
    g.requeue = m_requeue->isChecked();
    g.checkpointSeconds = m_checkpoint->value();
    return g;
}

void SegmentsEditor::setSegments(const SegmentSpec &g)
{
    m_updating = true;
    m_mode->setCurrentIndex(g.untilDone ? UntilDone : g.count >= 1 ? Fixed : Off);
    if (g.count >= 1) {
        // Never clamp what a spec holds: the validator explains a count too high.
        m_count->setMaximum(std::max(SegmentSpec::kMaxSegments, g.count));
        m_count->setValue(g.count);
    }
    if (g.enabled()) {
        int i = m_signal->findData(g.signal);
        if (i < 0) {   // a signal the validator refuses stays, named, until another is chosen
            m_signal->addItem(tr("%1 (not allowed)").arg(g.signal), g.signal);
            i = m_signal->count() - 1;
        }
        m_signal->setCurrentIndex(i);
        m_lead->setValue(g.signalLeadSeconds);
        m_requeue->setChecked(g.requeue);
        m_checkpoint->setMaximum(std::max(24 * 3600, g.checkpointSeconds));
        m_checkpoint->setValue(g.checkpointSeconds);
    }
    updateEnabled();
    m_updating = false;
}

QWidget *SegmentsEditor::fieldWidget(const QString &field) const
{
    if (field == QLatin1String(SpecField::segmentsCount))
        return m_mode->currentIndex() == Fixed ? static_cast<QWidget *>(m_count) : m_mode;
    if (field == QLatin1String(SpecField::segmentsSignal))
        return m_signal;
    if (field == QLatin1String(SpecField::segmentsSignalLead))
        return m_lead;
    if (field == QLatin1String(SpecField::segmentsRequeue))
        return m_requeue;
    if (field == QLatin1String(SpecField::segmentsCheckpoint))
        return m_checkpoint;
    if (field == QLatin1String("segments"))
        return m_mode;
    return nullptr;
}

void SegmentsEditor::showFindings(const Diagnostics &diagnostics)
{
    QStringList lines;
    bool error = false;
    for (const Diagnostic &d : diagnostics) {
        if (d.severity == Severity::Info || (!fieldWidget(d.field) && !d.rule.startsWith(QLatin1String("segments-"))))
            continue;
        error = error || d.severity == Severity::Error;
        lines << (d.severity == Severity::Error ? tr("Error: %1") : tr("Warning: %1")).arg(d.message);
    }
    const QString text = lines.join(QLatin1Char('\n'));
    if (m_findings->text() != text)
        m_findings->setText(text);
    // The diagnostic colours the form frames a field with (JobForm::focusField).
    m_findings->setStyleSheet(
        lines.isEmpty()
            ? QString()
            : QStringLiteral("color: %1;").arg(error ? QStringLiteral("#d32f2f") : QStringLiteral("#ef8c00")));
    m_findings->setVisible(!lines.isEmpty());
}

void SegmentsEditor::updateEnabled()
{
    const int mode = m_mode->currentIndex();
    m_count->setEnabled(mode == Fixed);
    const QList<QWidget *> fields{m_signal, m_lead, m_checkpoint, m_requeue};
    for (QWidget *w : fields)
        w->setEnabled(mode != Off);
}

void SegmentsEditor::changed()
{
    updateEnabled();
    if (!m_updating)
        Q_EMIT edited();
}

}   // namespace scalelab
