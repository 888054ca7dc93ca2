// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCompleter>
#include <QStringList>

class QStringListModel;

namespace scalelab {

// Completes the last word of a list typed into one line ("cuda/12.2, pyt"
// offers pytorch/2.4.1 ...) from a list of words, matching anywhere in the
// word; the words before it stay as typed.
class WordCompleter : public QCompleter {
    Q_OBJECT
public:
    explicit WordCompleter(QObject *parent = nullptr);

    void setWords(const QStringList &words);
    QStringList words() const;

    QStringList splitPath(const QString &path) const override;
    QString pathFromIndex(const QModelIndex &index) const override;

private:
    QStringListModel *m_model;
};

}   // namespace scalelab
