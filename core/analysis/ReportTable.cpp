// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/ReportTable.h"

#include "core/base/CsvText.h"

#include <utility>

namespace scalelab {

namespace {

QString mdField(const QString &s)
{
    return QString(s).replace(u'|', QStringLiteral("\\|")).replace(u'\n', u' ');
}

QString withUnit(const QString &header, const QString &unit)
{
    return unit.isEmpty() ? header : QStringLiteral("%1 [%2]").arg(header, unit);
}

}   // namespace

ReportCell ReportCell::number(std::optional<double> v, QString note)
{
    ReportCell c;
    c.value = v;
    c.note = std::move(note);
    return c;
}

ReportCell ReportCell::ranged(std::optional<double> v, std::optional<double> lo, std::optional<double> hi)
{
    ReportCell c;
    c.value = v;
    c.low = lo;
    c.high = hi;
    return c;
}

ReportCell ReportCell::words(QString text)
{
    ReportCell c;
    c.text = std::move(text);
    return c;
}

void ReportTable::fitDecimals(int col, int significant, int maxDecimals)
{
    QList<double> values;
    for (const ReportRow &r : rows)
        if (col < r.cells.size())
            for (const auto &v : {r.cells[col].value, r.cells[col].low, r.cells[col].high})
                if (v)
                    values << *v;
    columns[col].decimals = NumberFormat::decimalsFor(values, significant, maxDecimals);
}

QString ReportTable::headerText(int col) const
{
    return withUnit(columns[col].header, columns[col].unit);
}

QString ReportTable::cellText(const ReportCell &cell, int col, Grouping grouping) const
{
    const ReportColumn &c = columns[col];
    QString text;
    if (cell.value) {
        auto f = [&](double v) { return NumberFormat::fixed(v, c.decimals, grouping); };
        text = f(*cell.value) + c.suffix;
        if (cell.hasRange())
            text += QStringLiteral(" (%1–%2)").arg(f(*cell.low), f(*cell.high));
    } else {
        text = cell.text.isEmpty() ? QStringLiteral("–") : cell.text;
    }
    return cell.note.isEmpty() ? text : QStringLiteral("%1 %2").arg(text, cell.note);
}

bool ReportTable::hasBasedOn() const
{
    for (const ReportColumn &c : columns)
        if (!c.basedOn.isEmpty())
            return true;
    return false;
}

QString ReportTable::markdown() const
{
    QStringList head, rule, based;
    for (int c = 0; c < columns.size(); ++c) {
        head << mdField(headerText(c));
        rule << (c == 0 ? QStringLiteral("---") : QStringLiteral("---:"));
        based << (columns[c].basedOn.isEmpty() ? QString() : QStringLiteral("*%1*").arg(mdField(columns[c].basedOn)));
    }
    auto line = [](const QStringList &cells) {
        return QStringLiteral("| %1 |\n").arg(cells.join(QStringLiteral(" | ")));
    };
    QString md = QStringLiteral("## %1\n\n").arg(title) + line(head) + line(rule);
    if (hasBasedOn())
        md += line(based);
    for (const ReportRow &r : rows) {
        QStringList cells;
        for (int c = 0; c < r.cells.size() && c < columns.size(); ++c)
            cells << mdField(cellText(r.cells[c], c));
        if (cells.size() < columns.size())
            cells << mdField(r.note);
        while (cells.size() < columns.size())
            cells << QString();
        md += line(cells);
    }
    for (const QString &n : notes)
        md += QStringLiteral("\n%1\n").arg(n);
    return md;
}

QString ReportTable::csv() const
{
    QList<bool> ranged(columns.size(), false);
    for (const ReportRow &r : rows)
        for (int c = 0; c < r.cells.size() && c < columns.size(); ++c)
            ranged[c] = ranged[c] || r.cells[c].hasRange();
    QStringList head;
    for (int c = 0; c < columns.size(); ++c) {
        const QString unit = columns[c].unit.isEmpty() ? columns[c].suffix.trimmed() : columns[c].unit;
        head << CsvText::field(withUnit(columns[c].header, unit));
        if (ranged[c])
            head << CsvText::field(withUnit(columns[c].header + QStringLiteral(" min"), unit))
                 << CsvText::field(withUnit(columns[c].header + QStringLiteral(" max"), unit));
    }
    head << QStringLiteral("Note");
    QString out = head.join(u',') + QStringLiteral("\r\n");
    for (const ReportRow &r : rows) {
        QStringList fields;
        QStringList rowNotes{r.note};
        for (int c = 0; c < columns.size(); ++c) {
            const ReportCell cell = c < r.cells.size() ? r.cells[c] : ReportCell();
            auto f = [&](std::optional<double> v) {
                return v ? NumberFormat::fixed(*v, columns[c].decimals, Grouping::None) : QString();
            };
            fields << CsvText::field(cell.value ? f(cell.value) : cell.text);
            if (ranged[c])
                fields << f(cell.hasRange() ? cell.low : cell.value) << f(cell.hasRange() ? cell.high : cell.value);
            rowNotes << cell.note;
        }
        rowNotes.removeAll(QString());
        fields << CsvText::field(rowNotes.join(u' '));
        out += fields.join(u',') + QStringLiteral("\r\n");
    }
    return out;
}

}   // namespace scalelab
