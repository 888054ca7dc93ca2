// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: a cluster profile JSON.
#include "FuzzSupport.h"
#include "core/profiles/ProfileLoader.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    loadProfile(fuzz::bytes(data, size), QStringLiteral("fuzz.json"));
    return 0;
}
