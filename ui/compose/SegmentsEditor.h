// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace scalelab {

// The job form's part for a run longer than the time limit (JobSpec::segments):
// one job, a number of segments or "until done"; the signal, its lead before
// the limit and --requeue. setSegments → segments() gives the spec back; the
// validator's findings on these fields show under them (showFindings).
class SegmentsEditor : public QWidget {
    Q_OBJECT
public:
    explicit SegmentsEditor(QWidget *parent = nullptr);

    SegmentSpec segments() const;
    void setSegments(const SegmentSpec &segments);   // does not emit edited()
    // Spec field key ("segments.count", ...) -> the widget editing it.
    QWidget *fieldWidget(const QString &field) const;
    // The findings whose field is one of these, in words under the fields.
    void showFindings(const Diagnostics &diagnostics);
    QLabel *findingsLabel() const { return m_findings; }

Q_SIGNALS:
    void edited();

private:
    enum Mode { Off = 0, Fixed = 1, UntilDone = 2 };
    void createFields();
    void updateEnabled();
    void changed();

    QComboBox *m_mode;
    QSpinBox *m_count;
    QComboBox *m_signal;
    QSpinBox *m_lead;
    QSpinBox *m_checkpoint;
    QCheckBox *m_requeue;
    QLabel *m_findings;
    bool m_updating = false;
};

}   // namespace scalelab
