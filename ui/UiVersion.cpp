#include "UiVersion.h"
namespace scalelab::ui { const char *uiVersion() { return SCALELAB_VERSION; } }
