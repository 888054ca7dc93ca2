// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/ClusterService.h"

// The interface's meta-object lives with it, on the window's side of the
// module boundary.
