// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/CsvText.h"

namespace scalelab {

QString CsvText::field(const QString &text)
{
    if (!text.contains(u',') && !text.contains(u'"') && !text.contains(u'\n') && !text.contains(u'\r'))
        return text;
    return u'"' + QString(text).replace(QStringLiteral("\""), QStringLiteral("\"\"")) + u'"';
}

}   // namespace scalelab
