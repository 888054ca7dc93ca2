// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>

namespace scalelab {

// A scaling study: a spec template swept over GPU counts; runs point to it.
struct StudyRecord {
    qint64 id = 0;
    QString name;
    QDateTime created;   // UTC
    QByteArray specTemplateJson;
    QString notes;

    bool operator==(const StudyRecord &) const = default;
};

}   // namespace scalelab
