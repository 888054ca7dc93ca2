// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QPlainTextEdit;
class QPushButton;
class QLabel;

namespace scalelab {

class ScriptHighlighter;

// The rendered sbatch script, read-only and highlighted, with Copy and Save as.
class ScriptPreview : public QWidget {
    Q_OBJECT
public:
    explicit ScriptPreview(QWidget *parent = nullptr);

    void setScript(const QString &script);
    QString script() const;
    QPlainTextEdit *editor() const { return m_editor; }
    void setSuggestedFileName(const QString &name) { m_suggestedName = name; }

public Q_SLOTS:
    void copyToClipboard();
    void saveAs();

Q_SIGNALS:
    void message(const QString &text);   // for the status bar

protected:
    void changeEvent(QEvent *event) override;

private:
    QPlainTextEdit *m_editor;
    ScriptHighlighter *m_highlighter;
    QPushButton *m_copy;
    QPushButton *m_save;
    QLabel *m_title;
    QString m_suggestedName = QStringLiteral("job.sbatch");
};

}   // namespace scalelab
