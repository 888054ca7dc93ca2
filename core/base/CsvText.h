// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab {

// CSV as RFC 4180 writes it: a field with a comma, a quote or a line break
// is quoted, its quotes doubled; any other field is written as it is.
class CsvText {
public:
    static QString field(const QString &text);
};

}   // namespace scalelab
