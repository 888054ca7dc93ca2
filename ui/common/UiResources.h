// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace scalelab {

// Registers the icons of resources.qrc. They live in the static scalelab_ui
// library, whose resource initialiser the linker may drop; every place that
// shows icons calls this (cheap after the first call).
void ensureUiResources();

}   // namespace scalelab
