// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/UiResources.h"

#include <QtGlobal>

static void initScaleLabUiResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace scalelab {

void ensureUiResources()
{
    static const bool once = [] {
        initScaleLabUiResources();
        return true;
    }();
    Q_UNUSED(once);
}

}   // namespace scalelab
