// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <utility>

namespace scalelab {

// A value or an error text: the run store's calls never throw.
template <typename T>
struct StoreResult {
    T value{};
    QString error;   // empty on success

    bool ok() const { return error.isEmpty(); }
    static StoreResult failure(QString e) { StoreResult r; r.error = std::move(e); return r; }
};

} // namespace scalelab
