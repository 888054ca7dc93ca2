// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/HelpDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace scalelab {

QString HelpDialog::guideHtml()
{
    return tr("<h2>ScaleLab in five steps</h2>"
              "<ol>"
              "<li><b>Connect</b> (Clusters ▸ Connections…, Ctrl+K): pick your site's profile and either an alias of "
              "your OpenSSH config or host, user and key file. The list shows each configured cluster and whether "
              "it is connected.</li>"
              "<li><b>Compose</b> (Ctrl+1): choose profile and partition, the total GPUs, framework and the program's "
              "path <i>on the cluster</i>. The sbatch script on the right follows every edit; errors and warnings "
              "below it name the field and offer a fix (click a finding to jump to its field). Edits can be undone "
              "(Edit ▸ Undo, Ctrl+Z). Save the form as a spec file (Ctrl+S); an existing script can be imported "
              "(Ctrl+I) or dropped on the window. Under the partition: what the job costs at most (GPU-hours, "
              "billing units when the profile knows the site's weights) and <b>When would it start?</b>, which "
              "asks Slurm for every partition that fits.</li>"
              "<li><b>Dry run</b> (Ctrl+Shift+Return) asks Slurm whether it would accept the job "
              "(<tt>sbatch --test-only</tt>) and checks that the program exists on the cluster. <b>Submit</b> "
              "(Ctrl+Return) sends it; a <b>scaling study</b> sends the same job over several GPU counts.</li>"
              "<li><b>Watch</b> in Jobs (Ctrl+2): the state of every run, the output of the selected one, why a "
              "pending one waits and when Slurm expects it to start and, for a failed job, the line that says why. "
              "Cancel, resubmit, clone to Compose, withdraw a run that was never "
              "sent, or hide runs you no longer want to see (View ▸ Show hidden runs brings them back).</li>"
              "<li><b>Compare</b> in Results (Ctrl+3): speedup, efficiency, throughput and GPU use of a study's runs, "
              "and a PDF report.</li>"
              "</ol>"
              "<p>Everything the window does is also a command: run <tt>scalelab help</tt> in a terminal.</p>");
}

QList<QPair<QString, QString>> HelpDialog::shortcutRows(const QList<QAction *> &actions)
{
    QList<QPair<QString, QString>> rows;
    for (QAction *a : actions) {
        if (!a || a->shortcuts().isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            if (const QString text = k.toString(QKeySequence::NativeText); !text.isEmpty())
                keys << text;
        if (keys.isEmpty())
            continue;   // a standard key this platform does not define (Preferences on Linux)
        rows.append({a->text().remove(QLatin1Char('&')).remove(QStringLiteral("…")), keys.join(tr(" or "))});
    }
    return rows;
}

HelpDialog::HelpDialog(const QList<QAction *> &actions, QWidget *parent)
    : QDialog(parent)
    , m_tabs(new QTabWidget(this))
    , m_guide(new QTextBrowser(this))
    , m_shortcuts(new QTableWidget(this))
{
    setWindowTitle(tr("ScaleLab help"));
    setObjectName(QStringLiteral("helpDialog"));
    m_guide->setObjectName(QStringLiteral("helpGuide"));
    m_guide->setOpenExternalLinks(true);
    m_guide->setHtml(guideHtml());

    const auto rows = shortcutRows(actions);
    m_shortcuts->setObjectName(QStringLiteral("helpShortcuts"));
    m_shortcuts->setColumnCount(2);
    m_shortcuts->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
    m_shortcuts->setRowCount(int(rows.size()));
    m_shortcuts->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_shortcuts->verticalHeader()->hide();
    m_shortcuts->horizontalHeader()->setStretchLastSection(true);
    for (int i = 0; i < rows.size(); ++i) {
        m_shortcuts->setItem(i, 0, new QTableWidgetItem(rows[i].first));
        m_shortcuts->setItem(i, 1, new QTableWidgetItem(rows[i].second));
    }
    m_shortcuts->resizeColumnToContents(0);

    m_tabs->addTab(m_guide, tr("&Guide"));
    m_tabs->addTab(m_shortcuts, tr("&Keyboard shortcuts"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *lay = new QVBoxLayout(this);
    lay->addWidget(m_tabs);
    lay->addWidget(buttons);
    resize(620, 520);
}

void HelpDialog::showPage(Page page)
{
    m_tabs->setCurrentIndex(int(page));
}

}   // namespace scalelab
