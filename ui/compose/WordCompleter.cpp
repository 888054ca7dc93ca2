// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compose/WordCompleter.h"

#include <QLineEdit>
#include <QRegularExpression>
#include <QStringListModel>

namespace scalelab {

namespace {

// Where the last word of a comma or space separated list starts.
qsizetype lastWordStart(const QString &text)
{
    static const QRegularExpression sep(QStringLiteral("[,\\s]"));
    return text.lastIndexOf(sep) + 1;
}

}   // namespace

WordCompleter::WordCompleter(QObject *parent)
    : QCompleter(parent)
    , m_model(new QStringListModel(this))
{
    setModel(m_model);
    setCaseSensitivity(Qt::CaseInsensitive);
    setFilterMode(Qt::MatchContains);
    setCompletionMode(QCompleter::PopupCompletion);
    setMaxVisibleItems(12);
}

void WordCompleter::setWords(const QStringList &words)
{
    m_model->setStringList(words);
}

QStringList WordCompleter::words() const
{
    return m_model->stringList();
}

QStringList WordCompleter::splitPath(const QString &path) const
{
    return {path.mid(lastWordStart(path))};
}

QString WordCompleter::pathFromIndex(const QModelIndex &index) const
{
    const auto *edit = qobject_cast<const QLineEdit *>(widget());
    const QString typed = edit ? edit->text() : QString();
    return typed.left(lastWordStart(typed)) + index.data().toString();
}

}   // namespace scalelab
