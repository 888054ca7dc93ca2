// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace scalelab {

// Colours an sbatch script: #SBATCH lines, comments, exports, quoted strings
// and $variables. Colours are picked from the palette's lightness so both
// light and dark themes stay legible.
class ScriptHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit ScriptHighlighter(QTextDocument *document);

    // Re-picks the colours (after a palette change) and rehighlights.
    void setDarkBackground(bool dark);

protected:
    void highlightBlock(const QString &text) override;

private:
    QTextCharFormat m_directive;
    QTextCharFormat m_directiveValue;
    QTextCharFormat m_comment;
    QTextCharFormat m_keyword;
    QTextCharFormat m_string;
    QTextCharFormat m_variable;
    QRegularExpression m_variableRe;
    QRegularExpression m_keywordRe;
};

}   // namespace scalelab
