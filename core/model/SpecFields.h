// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Names of job spec fields as they appear in spec JSON files, diagnostics
// (Diagnostic::field), fixes and the Compose form: one definition each, so a
// rename cannot leave one of the readers behind.
namespace scalelab::SpecField {

inline constexpr char cpusPerGpu[] = "cpusPerGpu";
inline constexpr char metricDirs[] = "monitoring.metricDirs";
inline constexpr char projectFolder[] = "project.folder";
inline constexpr char projectRemoteFolder[] = "project.remoteFolder";
inline constexpr char segmentsCount[] = "segments.count";
inline constexpr char segmentsSignalLead[] = "segments.signalLead";
inline constexpr char segmentsSignal[] = "segments.signal";
inline constexpr char segmentsRequeue[] = "segments.requeue";
inline constexpr char segmentsCheckpoint[] = "segments.checkpointSeconds";

}   // namespace scalelab::SpecField
