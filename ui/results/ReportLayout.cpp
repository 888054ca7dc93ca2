// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/ReportLayout.h"

#include <QAbstractTextDocumentLayout>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>

#include <cmath>

namespace scalelab {

namespace {

// What a heading must stay with: the block after it (a paragraph, or a table's first cell).
QTextBlock nextContent(const QTextBlock &block)
{
    return block.next();
}

QList<QTextTable *> tables(const QTextDocument &doc)
{
    QList<QTextTable *> out;
    QList<QTextFrame *> todo{doc.rootFrame()};
    while (!todo.isEmpty()) {
        QTextFrame *frame = todo.takeFirst();
        if (auto *table = qobject_cast<QTextTable *>(frame))
            out << table;
        todo << frame->childFrames();
    }
    return out;
}

}   // namespace

int ReportLayout::pageOf(const QTextDocument &doc, const QTextBlock &block)
{
    const qreal pageHeight = doc.pageSize().height();
    const QRectF rect = doc.documentLayout()->blockBoundingRect(block);
    // A block's top margin may reach back over the page's end: its first line is what is printed.
    qreal top = rect.top();
    if (block.layout() && block.layout()->lineCount() > 0)
        top += block.layout()->lineAt(0).y();
    return pageHeight > 0 ? int(std::floor(top / pageHeight)) : 0;
}

QStringList ReportLayout::orphanedHeadings(const QTextDocument &doc)
{
    QStringList out;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
        if (b.blockFormat().headingLevel() <= 0)
            continue;
        const QTextBlock next = nextContent(b);
        if (next.isValid() && pageOf(doc, next) > pageOf(doc, b))
            out << b.text();
    }
    return out;
}

int ReportLayout::keepHeadingsWithNext(QTextDocument &doc)
{
    int moved = 0;
    // One heading at a time, from the top: moving one shifts every later block.
    for (int guard = 0; guard < 1000; ++guard) {
        QTextBlock orphan;
        for (QTextBlock b = doc.begin(); b.isValid() && !orphan.isValid(); b = b.next())
            if (b.blockFormat().headingLevel() > 0 && nextContent(b).isValid()
                && pageOf(doc, nextContent(b)) > pageOf(doc, b)
                && !(b.blockFormat().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore))
                orphan = b;
        if (!orphan.isValid())
            break;
        QTextBlockFormat f = orphan.blockFormat();
        f.setPageBreakPolicy(f.pageBreakPolicy() | QTextFormat::PageBreak_AlwaysBefore);
        QTextCursor(orphan).setBlockFormat(f);
        ++moved;
    }
    return moved;
}

QStringList ReportLayout::tablesWiderThanPage(const QTextDocument &doc)
{
    QStringList out;
    const qreal width = doc.pageSize().width();
    for (QTextTable *t : tables(doc))
        if (doc.documentLayout()->frameBoundingRect(t).right() > width + 0.5)
            out << t->cellAt(0, 0).firstCursorPosition().block().text();
    return out;
}

QStringList ReportLayout::linesWiderThanPage(const QTextDocument &doc)
{
    QStringList out;
    const qreal width = doc.pageSize().width();
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
        if (QTextCursor(b).currentTable() || !b.layout())
            continue;
        const qreal left = doc.documentLayout()->blockBoundingRect(b).left();
        for (int i = 0; i < b.layout()->lineCount(); ++i) {
            const QTextLine line = b.layout()->lineAt(i);
            if (left + line.x() + line.naturalTextWidth() > width + 0.5)
                out << b.text().mid(line.textStart(), 40);
        }
    }
    return out;
}

QStringList ReportLayout::brokenNumberCells(const QTextDocument &doc)
{
    QStringList out;
    for (QTextTable *t : tables(doc))
        for (int r = 0; r < t->rows(); ++r)
            for (int c = 0; c < t->columns(); ++c) {
                const QTextBlock b = t->cellAt(r, c).firstCursorPosition().block();
                const QString text = b.text();
                // Numbers are written with no-break spaces only; a sentence (with spaces) may wrap.
                if (text.isEmpty() || !(text.front().isDigit() || text.front() == QChar(0x2013)) || text.contains(u' '))
                    continue;
                const int breaks = int(text.count(QChar::LineSeparator));
                if (b.layout() && b.layout()->lineCount() > breaks + 1)
                    out << text;
            }
    return out;
}

}   // namespace scalelab
