// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/client/RemoteExecutor.h"

namespace scalelab {

namespace {
struct StepName {
    SubmitStep step;
    const char *id;
};
constexpr StepName kSteps[] = {
    {SubmitStep::DirectoryStored, "directory-stored"}, {SubmitStep::ObjectsPackSent, "objects-pack-sent"},
    {SubmitStep::SnapshotSent, "snapshot-sent"},       {SubmitStep::SnapshotLaidOut, "snapshot-laid-out"},
    {SubmitStep::ScriptUploaded, "script-uploaded"},   {SubmitStep::UnknownStored, "unknown-stored"},
    {SubmitStep::SbatchReturned, "sbatch-returned"},   {SubmitStep::OutcomeStored, "outcome-stored"},
};
}   // namespace

QString submitStepId(SubmitStep step)
{
    for (const StepName &s : kSteps)
        if (s.step == step)
            return QString::fromLatin1(s.id);
    return {};
}

std::optional<SubmitStep> submitStepFromId(const QString &id)
{
    for (const StepName &s : kSteps)
        if (id == QLatin1String(s.id))
            return s.step;
    return std::nullopt;
}

}   // namespace scalelab
