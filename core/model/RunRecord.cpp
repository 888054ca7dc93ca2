// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/RunRecord.h"

namespace scalelab {

QString submitStateId(SubmitState s)
{
    switch (s) {
    case SubmitState::Intent:
        return QStringLiteral("intent");
    case SubmitState::Uploaded:
        return QStringLiteral("uploaded");
    case SubmitState::Submitted:
        return QStringLiteral("submitted");
    case SubmitState::Rejected:
        return QStringLiteral("rejected");
    case SubmitState::Unknown:
        return QStringLiteral("unknown");
    case SubmitState::Reconciled:
        return QStringLiteral("reconciled");
    }
    return {};
}

std::optional<SubmitState> submitStateFromId(const QString &id)
{
    for (auto s : {SubmitState::Intent, SubmitState::Uploaded, SubmitState::Submitted, SubmitState::Rejected,
                   SubmitState::Unknown, SubmitState::Reconciled})
        if (submitStateId(s) == id)
            return s;
    return std::nullopt;
}

}   // namespace scalelab
