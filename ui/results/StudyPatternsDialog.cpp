// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/StudyPatternsDialog.h"

#include "core/ingest/LogMetricExtractor.h"
#include "core/ingest/StudyMetricPatterns.h"
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/RunInBackground.h"
#include "ui/common/StoreTaskQueue.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace scalelab {

StudyPatternsDialog::StudyPatternsDialog(AppServices &services, qint64 studyId, QWidget *parent)
    : QDialog(parent)
    , m_services(services)
    , m_studyId(studyId)
{
    setWindowTitle(tr("Metric patterns of the study"));
    auto *layout = new QVBoxLayout(this);
    auto *help = new QLabel(tr("Each pattern reads one number from the job output: the first capture group of the "
                               "regular expression (RE2 syntax: no backreferences or lookarounds, so a pattern "
                               "always runs in time linear in the log), e.g. <code>val_f1=([0-9.]+)</code>. At most "
                               "100 patterns. Runs are re-read after saving."),
                            this);
    help->setWordWrap(true);
    layout->addWidget(help);
    m_table = new QTableWidget(0, 4, this);
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Regex"), tr("Unit"), tr("Aggregation")});
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    layout->addWidget(m_table, 1);
    auto *rowButtons = new QHBoxLayout;
    auto *add = new QPushButton(tr("Add pattern"), this);
    auto *remove = new QPushButton(tr("Remove selected"), this);
    rowButtons->addWidget(add);
    rowButtons->addWidget(remove);
    rowButtons->addStretch(1);
    layout->addLayout(rowButtons);
    layout->addWidget(builtinReaders(), 1);
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
    layout->addWidget(m_error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    layout->addWidget(buttons);
    connect(add, &QPushButton::clicked, this, [this] { addRow({}, {}, {}, QStringLiteral("last")); });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_table->currentRow() >= 0)
            m_table->removeRow(m_table->currentRow());
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &StudyPatternsDialog::save);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_save = buttons->button(QDialogButtonBox::Save);
    m_save->setEnabled(false);   // until the study's patterns are read
    m_error->setText(tr("Reading the study's patterns…"));
    resize(820, 560);

    RunStore *store = &services.store();   // AppServices waits for the pool before the store goes
    runInBackground(
        this,
        [store, studyId] {
            Result<StudyRecord> study = store->study(studyId);
            store->closeThreadConnection();   // this pool thread may be reused by others
            return study;
        },
        [this](const Result<StudyRecord> &study) { showStudy(study); });
}

void StudyPatternsDialog::showStudy(const Result<StudyRecord> &study)
{
    m_busy = false;
    if (!study.ok()) {
        m_error->setText(study.errorText());
        return;   // Save stays off: the notes were not read, so they are not overwritten
    }
    m_error->clear();
    const StudyNotesContent notes = StudyMetricPatterns::read(study.value().notes);
    m_text = notes.text;
    for (const MetricPattern &p : notes.patterns)
        addRow(p.name, p.regex, p.unit, LogMetricExtractor::aggregationId(p.aggregation));
    m_save->setEnabled(true);
}

// The built-in readers, read-only: the same table `scalelab metrics --list-readers` prints.
QWidget *StudyPatternsDialog::builtinReaders()
{
    const QList<MetricPattern> rules = LogMetricExtractor::builtinPatterns();
    auto *box =
        new QGroupBox(tr("Built-in readers (%1): each reads these lines without a pattern").arg(rules.size()), this);
    auto *boxLayout = new QVBoxLayout(box);
    auto *table = new QTableWidget(int(rules.size()), 5, box);
    table->setObjectName(QStringLiteral("builtinReaders"));
    table->setHorizontalHeaderLabels({tr("Rule"), tr("Metric"), tr("Unit"), tr("Meaning"), tr("Example line")});
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
    for (int r = 0; r < int(rules.size()); ++r) {
        const MetricPattern &p = rules[r];
        const QStringList cells{p.rule, p.ambiguous ? tr("(ambiguous: named, never stored)") : p.name, p.unit,
                                p.meaning, p.example};
        for (int c = 0; c < int(cells.size()); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setToolTip(cells[c]);
            table->setItem(r, c, item);
        }
    }
    boxLayout->addWidget(table);
    return box;
}

void StudyPatternsDialog::addRow(const QString &name, const QString &regex, const QString &unit,
                                 const QString &aggregation)
{
    const int r = m_table->rowCount();
    m_table->insertRow(r);
    m_table->setItem(r, 0, new QTableWidgetItem(name));
    m_table->setItem(r, 1, new QTableWidgetItem(regex));
    m_table->setItem(r, 2, new QTableWidgetItem(unit));
    auto *agg = new QComboBox(m_table);
    agg->addItems({QStringLiteral("last"), QStringLiteral("mean"), QStringLiteral("max"), QStringLiteral("min"),
                   QStringLiteral("per-rank-sum")});
    agg->setCurrentText(aggregation);
    m_table->setCellWidget(r, 3, agg);
}

void StudyPatternsDialog::save()
{
    QList<MetricPattern> patterns;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        MetricPattern p;
        p.name = m_table->item(r, 0) ? m_table->item(r, 0)->text().trimmed() : QString();
        p.regex = m_table->item(r, 1) ? m_table->item(r, 1)->text() : QString();
        p.unit = m_table->item(r, 2) ? m_table->item(r, 2)->text().trimmed() : QString();
        if (auto *agg = qobject_cast<QComboBox *>(m_table->cellWidget(r, 3)))
            p.aggregation = LogMetricExtractor::aggregationFromId(agg->currentText()).value_or(MetricAggregation::Last);
        if (p.name.isEmpty() && p.regex.isEmpty())
            continue;
        patterns << p;
    }
    // Let the extractor judge the patterns (regex syntax, capture group).
    const LogMetricExtractor check(patterns, false);
    QStringList problems;
    for (const Diagnostic &d : check.patternDiagnostics())
        if (d.severity == Severity::Error)
            problems << d.message;
    if (!problems.isEmpty()) {
        m_error->setText(problems.join(QLatin1Char('\n')));
        return;
    }
    m_busy = true;
    m_save->setEnabled(false);
    m_error->setText(tr("Saving…"));
    m_services.storeTasks().run(
        this,
        [id = m_studyId, notes = StudyMetricPatterns::write(m_text, patterns)](RunStore &store) {
            return store.setStudyNotes(id, notes);
        },
        [this](const Result<void> &written) {
            m_busy = false;
            if (!written) {
                m_error->setText(written.errorText());
                m_save->setEnabled(true);
                return;
            }
            Q_EMIT saved(m_studyId);
            accept();
        });
}

}   // namespace scalelab
