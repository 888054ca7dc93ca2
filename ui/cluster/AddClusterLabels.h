// SPDX-License-Identifier: GPL-3.0-or-later
// The labels the pages of "Add your cluster" share.
#pragma once

#include <QLabel>

namespace scalelab::addcluster {

// Plain text that wraps.
inline QLabel *wrapped(const QString &text, QWidget *parent)
{
    auto *l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setTextFormat(Qt::PlainText);
    return l;
}

// Where a page says what is wrong with its fields (red).
inline QLabel *problemLabel(QWidget *parent)
{
    auto *l = wrapped(QString(), parent);
    l->setObjectName(QStringLiteral("problemLabel"));
    l->setStyleSheet(QStringLiteral("color: #c62828;"));
    return l;
}

}   // namespace scalelab::addcluster
