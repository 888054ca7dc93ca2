// SPDX-License-Identifier: GPL-3.0-or-later
// The scaling report's tables and scripts as HTML for QTextDocument.
#include "ui/results/ScalingReport.h"

#include <algorithm>

namespace scalelab::report {

namespace {

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

// A value cell that never breaks: its spaces are no-break spaces, word joiners
// hold dashes ("1.81–4.17"), and a range goes on a line of its own under its
// median. The columns are given widths (QTextDocument otherwise shares the
// page equally and breaks values mid-word, "COMPLE/TED").
QString cell(const QString &text)
{
    QString html = esc(text);
    html.replace(QStringLiteral(" ("), QStringLiteral("\n("));
    html.replace(u' ', QChar(0xa0)).replace(QStringLiteral("–"), QStringLiteral("\u2060–\u2060"));
    html.replace(u'\n', QStringLiteral("<br>"));
    return QStringLiteral("<td><span style=\"font-size: 7pt;\">%1</span></td>").arg(html);
}

QString header(const QString &text, int widthPercent)
{
    return QStringLiteral("<th width=\"%1%\"><span style=\"font-size: 7pt;\">%2</span></th>")
        .arg(widthPercent)
        .arg(esc(text));
}

// Metric names up to 12 characters fit the narrowest column; a longer one
// ("test_accuracy") may break after an underscore (a zero-width space), never
// inside a word.
QString breakable(const QString &b)
{
    QStringList words = b.split(u' ');
    for (QString &w : words)
        if (w.size() > 12)
            w.replace(u'_', QStringLiteral("_\u200B"));
    return words.join(u' ');
}

QString basedOnRow(const ReportTable &t)
{
    QString html = QStringLiteral("<tr>");
    for (const ReportColumn &c : t.columns)
        html +=
            QStringLiteral("<td><span style=\"font-size: 7pt;\"><i>%1</i></span></td>").arg(esc(breakable(c.basedOn)));
    return html + QStringLiteral("</tr>");
}

QString rowHtml(const ReportTable &t, const ReportRow &r)
{
    QString html = QStringLiteral("<tr>");
    const qsizetype n = std::min(r.cells.size(), t.columns.size());
    for (int c = 0; c < n; ++c)
        html += cell(t.cellText(r.cells[c], c));
    if (n < t.columns.size())
        html += QStringLiteral("<td colspan=\"%1\"><span style=\"font-size: 7pt;\"><i>%2</i></span></td>")
                    .arg(t.columns.size() - n)
                    .arg(esc(r.note));
    return html + QStringLiteral("</tr>");
}

QString preHtml(const QString &text)
{
    // The size on a span: Qt gives <pre> its fixed font's own size over the block's style.
    return QStringLiteral("<pre><span style=\"font-family: 'DejaVu Sans Mono'; font-size: 7pt;\">%1</span></pre>")
        .arg(esc(text));
}

}   // namespace

QString tableHtml(const ReportTable &t, const QList<int> &widths)
{
    QString html = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"2\" width=\"100%\"><tr>");
    for (int c = 0; c < t.columns.size(); ++c)
        html += header(t.headerText(c), widths.value(c, 100 / int(t.columns.size())));
    html += QStringLiteral("</tr>");
    if (t.hasBasedOn())
        html += basedOnRow(t);
    for (const ReportRow &r : t.rows)
        html += rowHtml(t, r);
    html += QStringLiteral("</table>");
    for (const QString &n : t.notes)
        html += QStringLiteral("<p style=\"font-size: 7pt;\">%1</p>").arg(esc(n));
    return html;
}

QString conditionsHtml(const ReportTable &conditions)
{
    QString html = QStringLiteral("<table cellpadding=\"1\">");
    for (const ReportRow &r : conditions.rows)
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(esc(r.cells.value(0).text), esc(r.cells.value(1).text));
    return html + QStringLiteral("</table>");
}

QString wrapScript(const QString &script, int width)
{
    QStringList out;
    for (const QString &line : script.split(u'\n')) {
        if (line.size() <= width) {
            out << line;
            continue;
        }
        out << line.left(width);
        for (qsizetype at = width; at < line.size(); at += width - 2)
            out << QStringLiteral("↪ ") + line.mid(at, width - 2);
    }
    return out.join(u'\n');
}

QString scriptsHtml(const QList<ScriptVariant> &scripts)
{
    QString html = QStringLiteral("<h2>Job scripts</h2><p>Each distinct script is shown once: the first whole, the "
                                  "others as the lines that differ from it (- its line, + theirs, with line "
                                  "numbers). Lines longer than 84 characters continue on the next line after ↪.</p>");
    for (int i = 0; i < scripts.size(); ++i) {
        const ScriptVariant &v = scripts[i];
        if (i == 0) {
            html += QStringLiteral("<h3>Script of %1</h3>").arg(esc(v.runsText()));
            html += preHtml(v.script.isEmpty() ? QStringLiteral("(no script stored)") : wrapScript(v.script));
            continue;
        }
        const int changed = std::max(v.diff.added, v.diff.removed);
        html +=
            QStringLiteral("<h3>Script of %1: %2 line%3 differ%4 from the first</h3>")
                .arg(esc(v.runsText()))
                .arg(changed)
                .arg(changed == 1 ? QString() : QStringLiteral("s"), changed == 1 ? QStringLiteral("s") : QString());
        html += preHtml(wrapScript(ScriptVariants::changedLines(v.diff)));
    }
    return html;
}

}   // namespace scalelab::report
