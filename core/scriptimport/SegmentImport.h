// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/scriptimport/ScriptImporter.h"

namespace scalelab {

// A script ScaleLab rendered for a run longer than the time limit, read back
// as JobSpec::segments (SegmentScript's lines): the prologue's export names
// the segments (and the checkpoint's time), the function that queues the next
// one means "until-done", and
// --signal=B:USR1|USR2@lead and --requeue become the segment fields instead of
// options the spec carries, so render → import gives the spec back. A script
// without that prologue keeps its --signal and --requeue as they are.
class SegmentImport {
public:
    static void read(ScriptImport &imp);
};

}   // namespace scalelab
