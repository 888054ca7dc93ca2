// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/RunComparisonView.h"

#include "core/model/JobSpecJson.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSet>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cmath>

namespace scalelab {

namespace {

// Accounting fields compared as text (numbers live in the metrics).
QList<QPair<QString, QString>> accountingFields(const RunMetricsRow &r)
{
    QList<QPair<QString, QString>> f;
    const auto &a = r.accounting;
    f << qMakePair(QObject::tr("cluster"), r.run.clusterAlias) << qMakePair(QObject::tr("partition"), r.run.partition)
      << qMakePair(QObject::tr("framework"), r.run.framework) << qMakePair(QObject::tr("job id"), r.run.jobId)
      << qMakePair(QObject::tr("state"), a ? a->stateText : r.stateText())
      << qMakePair(QObject::tr("exit code"), a ? a->exitCode : QString())
      << qMakePair(QObject::tr("elapsed"), a ? a->elapsed : QString())
      << qMakePair(QObject::tr("AllocTRES"), a ? a->allocTres : QString())
      << qMakePair(QObject::tr("MaxRSS"), a ? a->maxRss : QString())
      << qMakePair(QObject::tr("node list"), a ? a->nodeList : QString())
      << qMakePair(QObject::tr("submit"), a ? a->submit : QString())
      << qMakePair(QObject::tr("start"), a ? a->start : QString())
      << qMakePair(QObject::tr("end"), a ? a->end : QString());
    return f;
}

}   // namespace

RunComparisonView::RunComparisonView(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_hint = new QLabel(this);
    m_hint->setWordWrap(true);
    layout->addWidget(m_hint);
    auto *tabs = new QTabWidget(this);
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("comparisonTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tabs->addTab(m_table, tr("Metrics and accounting"));

    auto *diffs = new QWidget(this);
    auto *dl = new QVBoxLayout(diffs);
    auto *pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Compare the base run with:"), diffs));
    m_other = new QComboBox(diffs);
    pick->addWidget(m_other, 1);
    dl->addLayout(pick);
    auto *split = new QTabWidget(diffs);
    m_script = new QTextBrowser(diffs);
    m_script->setObjectName(QStringLiteral("scriptDiff"));
    m_env = new QTextBrowser(diffs);
    m_env->setObjectName(QStringLiteral("environmentDiff"));
    split->addTab(m_script, tr("Job script"));
    split->addTab(m_env, tr("Environment"));
    dl->addWidget(split, 1);
    tabs->addTab(diffs, tr("Script and environment diff"));
    layout->addWidget(tabs, 1);
    connect(m_other, &QComboBox::currentIndexChanged, this, [this] { refreshDiffs(); });
    setRows({});
}

QString RunComparisonView::delta(double base, double value)
{
    const double d = value - base;
    QString s = QStringLiteral("%1%2").arg(d >= 0 ? QStringLiteral("+") : QString(), QString::number(d, 'g', 4));
    if (base != 0 && std::isfinite(base))
        s += QStringLiteral(" (%1%2 %)")
                 .arg(d >= 0 ? QStringLiteral("+") : QString())
                 .arg(100.0 * d / std::abs(base), 0, 'f', 1);
    return s;
}

QStringList RunComparisonView::environmentLines(const RunRecord &run)
{
    if (run.specJson.isEmpty())
        return {tr("(no job spec stored)")};
    const JobSpecParseResult parsed = parseJobSpec(run.specJson);
    if (!parsed.spec)
        return {tr("(the stored job spec cannot be read: %1)")
                    .arg(parsed.errors.isEmpty() ? QString() : parsed.errors.first().message)};
    const JobEnvironment &e = parsed.spec->environment;
    QStringList l;
    for (const QString &m : e.modules)
        l << QStringLiteral("module load %1").arg(m);
    for (const auto &v : e.variables)
        l << QStringLiteral("export %1=%2").arg(v.first, v.second);
    if (!e.container.image.isEmpty())
        l << QStringLiteral("container: %1 %2")
                 .arg(e.container.runtime.isEmpty() ? QStringLiteral("(profile runtime)") : e.container.runtime,
                      e.container.image);
    for (const QString &b : e.container.binds)
        l << QStringLiteral("container bind: %1").arg(b);
    for (const QString &s : e.setup)
        l << QStringLiteral("setup: %1").arg(s);
    return l;
}

void RunComparisonView::setRows(const QList<RunMetricsRow> &rows)
{
    m_rows = rows;
    m_hint->setText(rows.size() < 2
                        ? tr("Select two or more runs in the table (Ctrl+click) to compare them.")
                        : tr("Differences are to the base run %1 (the first selected).").arg(rows.first().run.id));
    // Rows: accounting text fields, then every metric any run has.
    QStringList metricNames;
    QSet<QString> seen;
    for (const RunMetricsRow &r : rows)
        for (auto it = r.metrics.constBegin(); it != r.metrics.constEnd(); ++it)
            if (!seen.contains(it.key())) {
                seen.insert(it.key());
                metricNames << it.key();
            }
    metricNames.sort();
    const int accRows = rows.isEmpty() ? 0 : int(accountingFields(rows.first()).size());
    m_table->clear();
    m_table->setColumnCount(int(rows.size()));
    m_table->setRowCount(accRows + int(metricNames.size()));
    QStringList headers;
    for (const RunMetricsRow &r : rows)
        headers << tr("run %1 (%2 GPUs)").arg(r.run.id).arg(r.run.gpus);
    m_table->setHorizontalHeaderLabels(headers);
    QStringList vheaders;
    for (int c = 0; c < rows.size(); ++c) {
        const auto fields = accountingFields(rows[c]);
        for (int i = 0; i < fields.size(); ++i) {
            if (c == 0)
                vheaders << fields[i].first;
            auto *item = new QTableWidgetItem(fields[i].second);
            if (c > 0 && fields[i].second != accountingFields(rows.first())[i].second)
                item->setBackground(QColor(255, 243, 205));
            m_table->setItem(i, c, item);
        }
    }
    for (int m = 0; m < metricNames.size(); ++m) {
        const QString &name = metricNames[m];
        QString unit;
        for (const RunMetricsRow &r : rows)
            if (r.metrics.contains(name))
                unit = r.metrics.value(name).unit;
        vheaders << (unit.isEmpty() ? name : QStringLiteral("%1 [%2]").arg(name, unit));
        const auto base = rows.isEmpty() ? std::nullopt : rows.first().value(name);
        for (int c = 0; c < rows.size(); ++c) {
            const auto v = rows[c].value(name);
            QString text = v ? QString::number(*v, 'g', 6) : QStringLiteral("–");
            if (c > 0 && v && base)
                text += QStringLiteral("   Δ ") + delta(*base, *v);
            auto *item = new QTableWidgetItem(text);
            item->setData(Qt::UserRole, v ? QVariant(*v) : QVariant());
            m_table->setItem(accRows + m, c, item);
        }
    }
    m_table->setVerticalHeaderLabels(vheaders);

    const QSignalBlocker block(m_other);
    m_other->clear();
    for (int i = 1; i < rows.size(); ++i)
        m_other->addItem(
            tr("run %1 (job %2, %3 GPUs)").arg(rows[i].run.id).arg(rows[i].run.jobId).arg(rows[i].run.gpus), i);
    refreshDiffs();
}

void RunComparisonView::setOtherRun(int index)
{
    const int i = m_other->findData(index);
    if (i >= 0)
        m_other->setCurrentIndex(i);
    refreshDiffs();
}

TextDiffResult RunComparisonView::scriptDiff() const
{
    const int other = m_other->currentData().toInt();
    if (m_rows.size() < 2 || other <= 0 || other >= m_rows.size())
        return {};
    return TextDiff::diff(m_rows.first().run.script, m_rows[other].run.script);
}

TextDiffResult RunComparisonView::environmentDiff() const
{
    const int other = m_other->currentData().toInt();
    if (m_rows.size() < 2 || other <= 0 || other >= m_rows.size())
        return {};
    return TextDiff::diffLines(environmentLines(m_rows.first().run), environmentLines(m_rows[other].run));
}

QString RunComparisonView::diffHtml(const TextDiffResult &d)
{
    QString html =
        QStringLiteral("<p>%1</p><pre style=\"font-family: monospace;\">")
            .arg(d.identical() ? tr("Identical.") : tr("%1 line(s) removed, %2 added.").arg(d.removed).arg(d.added));
    for (const DiffLine &l : d.lines) {
        const QString text = l.text.toHtmlEscaped();
        switch (l.kind) {
        case DiffLine::Kind::Same:
            html += QStringLiteral("  %1\n").arg(text);
            break;
        case DiffLine::Kind::Removed:
            html += QStringLiteral("<span style=\"background:#ffd7d5;\">- %1</span>\n").arg(text);
            break;
        case DiffLine::Kind::Added:
            html += QStringLiteral("<span style=\"background:#d4f7d4;\">+ %1</span>\n").arg(text);
            break;
        }
    }
    return html + QStringLiteral("</pre>");
}

void RunComparisonView::refreshDiffs()
{
    if (m_rows.size() < 2) {
        m_script->setHtml(tr("<p>Select two or more runs.</p>"));
        m_env->setHtml(tr("<p>Select two or more runs.</p>"));
        return;
    }
    m_script->setHtml(diffHtml(scriptDiff()));
    m_env->setHtml(diffHtml(environmentDiff()));
}

}   // namespace scalelab
