// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// qcustomplot.h uses Qt's `signals`, `slots`, `emit` and `foreach` keywords,
// which the project turns off (QT_NO_KEYWORDS, set by scalelab_core): map
// them to the Q_ macros for this one header and remove them again.
#ifndef signals
#define signals Q_SIGNALS
#define SCALELAB_QCP_UNDEF_SIGNALS
#endif
#ifndef slots
#define slots Q_SLOTS
#define SCALELAB_QCP_UNDEF_SLOTS
#endif
#ifndef emit
#define emit Q_EMIT
#define SCALELAB_QCP_UNDEF_EMIT
#endif
#ifndef foreach
#define foreach Q_FOREACH
#define SCALELAB_QCP_UNDEF_FOREACH
#endif

#include <qcustomplot.h>

#ifdef SCALELAB_QCP_UNDEF_SIGNALS
#undef signals
#undef SCALELAB_QCP_UNDEF_SIGNALS
#endif
#ifdef SCALELAB_QCP_UNDEF_SLOTS
#undef slots
#undef SCALELAB_QCP_UNDEF_SLOTS
#endif
#ifdef SCALELAB_QCP_UNDEF_EMIT
#undef emit
#undef SCALELAB_QCP_UNDEF_EMIT
#endif
#ifdef SCALELAB_QCP_UNDEF_FOREACH
#undef foreach
#undef SCALELAB_QCP_UNDEF_FOREACH
#endif
