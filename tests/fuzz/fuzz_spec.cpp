// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: a job spec JSON, then rendering and validating it when it parses.
#include "FuzzSupport.h"
#include "core/compose/SbatchRenderer.h"
#include "core/model/JobSpecJson.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const JobSpecParseResult r = parseJobSpec(fuzz::bytes(data, size), QStringLiteral("fuzz.json"));
    if (r.spec) {
        JobSpec spec = *r.spec;
        spec.profile = fuzz::profile().id;
        renderAndValidate(spec, fuzz::profile());
        jobSpecToJson(spec);
    }
    return 0;
}
