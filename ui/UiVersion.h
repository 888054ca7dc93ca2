#pragma once
// Placeholder so the ui target has a translation unit until the widgets land.
namespace scalelab::ui { const char *uiVersion(); }
