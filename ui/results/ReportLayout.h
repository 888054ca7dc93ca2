// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

class QTextBlock;
class QTextDocument;

namespace scalelab {

// Page-level checks and fixes of a paginated QTextDocument (the PDF report):
// Qt's rich text has no "keep with next", so a heading that would end a page
// is given a page break before it once the document is laid out.
class ReportLayout {
public:
    // The page (0-based) a block starts on; the document must have a page size.
    static int pageOf(const QTextDocument &doc, const QTextBlock &block);
    // Headings (h1–h6) whose next block starts on a later page, by their text.
    static QStringList orphanedHeadings(const QTextDocument &doc);
    // Moves each orphaned heading to the next page; returns how many moved.
    static int keepHeadingsWithNext(QTextDocument &doc);
    // Tables wider than the page (their first cell's text each): must be none.
    static QStringList tablesWiderThanPage(const QTextDocument &doc);
    // Lines outside tables that run past the page's right edge (a script
    // line in <pre>, which never wraps), by their first 40 characters.
    static QStringList linesWiderThanPage(const QTextDocument &doc);
    // Table cells whose first character is a digit or "–" (a number) laid out
    // on more lines than they have line breaks: a number broken inside its cell.
    static QStringList brokenNumberCells(const QTextDocument &doc);
};

}   // namespace scalelab
