// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: the whole output of the one-round-trip discovery script
// (sections behind the nonce marker), through every section's parser, the
// profile builder (with and without a known site) and the profile writer:
// the path `scalelab discover` and "Add your cluster" take.
#include "FuzzSupport.h"
#include "core/discovery/DiscoveryScript.h"
#include "core/discovery/ProfileJson.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // The corpus files carry this nonce in their markers ("@@scalelab-fuzz@@").
    static const DiscoveryScript script(QStringLiteral("fuzz"));
    const DiscoveryScript::Parsed parsed =
        script.parse(fuzz::bytes(data, size), QStringLiteral("fuzz"), QStringLiteral("2026-01-01"));
    const BuiltProfile built = ProfileBuilder::build(parsed.input, nullptr);
    ProfileJson::write(built.profile);
    ProfileBuilder::build(parsed.input, &fuzz::profile());
    ProfileBuilder::matchSite(parsed.input, {fuzz::profile()});
    return 0;
}
