// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/NumberFormat.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace scalelab {

// One cell of a report table: a number (with the min–max range of repeats),
// or text where there is no number; `note` follows either ("(+1†)", "†").
struct ReportCell {
    std::optional<double> value, low, high;
    QString text;
    QString note;

    static ReportCell number(std::optional<double> v, QString note = {});
    static ReportCell ranged(std::optional<double> v, std::optional<double> lo, std::optional<double> hi);
    static ReportCell words(QString text);
    bool hasRange() const { return value && low && high && *low != *high; }
};

// One column: its title and unit, the metric it is based on, and the
// decimals all its numbers are printed with (chosen from its values).
struct ReportColumn {
    QString header;   // "Runtime"
    QString unit;   // "s": shown in the header, "Runtime [s]"
    QString suffix;   // "×", " %": shown after each number (not in CSV, whose header names it)
    QString basedOn;   // "train_time_s median"; "" = nothing to say
    int decimals = 0;
};

// A row; when it has fewer cells than the table has columns, `note` fills the rest
// ("no completed run: not measured").
struct ReportRow {
    QList<ReportCell> cells;
    QString note;
};

// A table of the scaling report, the one model its PDF, Markdown and CSV forms are made from.
struct ReportTable {
    QString id;   // "strong-scaling", "runs", ...
    QString title;
    QList<ReportColumn> columns;
    QList<ReportRow> rows;
    QStringList notes;   // sentences printed under the table

    // Gives column `col` the decimals that show `significant` digits of its values.
    void fitDecimals(int col, int significant, int maxDecimals = 6);
    QString headerText(int col) const;   // "Runtime [s]"
    // "2.99 (1.81–4.17)", "1.99×", "1 (+1†)", "–" for nothing; numbers never in `e` notation.
    QString cellText(const ReportCell &cell, int col, Grouping grouping = Grouping::Thousands) const;
    bool hasBasedOn() const;
    // A GitHub-style pipe table with its title as a heading and its notes below.
    QString markdown() const;
    // RFC 4180 text: one header line, numbers without separators or units,
    // a range as two more columns ("Runtime min [s]", "Runtime max [s]").
    QString csv() const;
};

}   // namespace scalelab
