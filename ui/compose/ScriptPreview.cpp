// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compose/ScriptPreview.h"

#include "core/base/AtomicFile.h"
#include "ui/compose/ScriptHighlighter.h"

#include "ui/common/AfterFirstPaint.h"

#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QStyle>
#include <QVBoxLayout>

namespace scalelab {

ScriptPreview::ScriptPreview(QWidget *parent)
    : QWidget(parent)
{
    m_title = new QLabel(tr("<b>sbatch script</b>"), this);
    m_copy = new QPushButton(tr("Copy"), this);
    m_copy->setAccessibleName(tr("Copy script"));
    m_copy->setToolTip(tr("Copy the script to the clipboard (Ctrl+Shift+C)"));
    m_save = new QPushButton(tr("Save as…"), this);
    // Icons (the SVG engine and image plugins) once the preview is on screen.
    new AfterFirstPaint(this, [this] {
        m_copy->setIcon(QIcon(QStringLiteral(":/scalelab/icons/copy.svg")));
        m_save->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    });
    m_save->setAccessibleName(tr("Save script as"));
    m_save->setToolTip(tr("Save the script to a file"));
    m_editor = new QPlainTextEdit(this);
    m_editor->setReadOnly(true);
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setAccessibleName(tr("Script preview"));
    m_editor->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_highlighter = new ScriptHighlighter(m_editor->document());

    auto *top = new QHBoxLayout;
    top->addWidget(m_title);
    top->addStretch(1);
    top->addWidget(m_copy);
    top->addWidget(m_save);
    auto *lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addLayout(top);
    lay->addWidget(m_editor, 1);

    connect(m_copy, &QPushButton::clicked, this, &ScriptPreview::copyToClipboard);
    connect(m_save, &QPushButton::clicked, this, &ScriptPreview::saveAs);
}

void ScriptPreview::setScript(const QString &script)
{
    if (script == m_editor->toPlainText())
        return;
    // Keep the reader's place while the script changes under them.
    const int v = m_editor->verticalScrollBar()->value();
    const int h = m_editor->horizontalScrollBar()->value();
    m_editor->setPlainText(script);
    m_editor->verticalScrollBar()->setValue(v);
    m_editor->horizontalScrollBar()->setValue(h);
}

QString ScriptPreview::script() const
{
    return m_editor->toPlainText();
}

void ScriptPreview::copyToClipboard()
{
    QApplication::clipboard()->setText(script());
    Q_EMIT message(tr("Script copied to the clipboard."));
}

void ScriptPreview::saveAs()
{
    auto *dlg = new QFileDialog(window(), tr("Save sbatch script"), m_suggestedName,
                                tr("sbatch scripts (*.sbatch *.sh);;All files (*)"));
    dlg->setAcceptMode(QFileDialog::AcceptSave);
    dlg->setDefaultSuffix(QStringLiteral("sbatch"));
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    const QString text = script();
    connect(dlg, &QFileDialog::fileSelected, this, [this, text](const QString &path) {
        if (const auto saved = AtomicFile::write(path, text.toUtf8()); !saved) {
            Q_EMIT message(tr("Could not save: %1").arg(saved.errorText()));
            return;
        }
        Q_EMIT message(tr("Script saved to %1.").arg(path));
    });
    dlg->open();
}

void ScriptPreview::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        m_highlighter->setDarkBackground(palette().color(QPalette::Base).lightness() < 128);
    QWidget::changeEvent(event);
}

}   // namespace scalelab
