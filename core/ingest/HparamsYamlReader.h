// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/MetricFileData.h"

#include <QByteArray>

namespace scalelab {

// The run parameters Lightning's CSVLogger saves as hparams.yaml
// (save_hparams_to_yaml: yaml.dump of the module's hyperparameters), read as
// a small YAML subset: a flat mapping of `key: value` lines, plain or quoted
// ('…' or "…") scalars, `#` comments, a `---` document start. Not read (each
// named in a finding with its line): nested mappings (an indented line),
// block lists (`- item`), flow collections ({…} [ …]) kept as their text,
// multi-line scalars (| >), anchors and aliases (& *) and tags
// (`!!python/object` and the like): their keys are listed with what was left out.
class HparamsYamlReader {
public:
    static MetricFileResult read(const QString &path);
    static MetricFileResult parse(const QByteArray &data, const QString &name);
};

}   // namespace scalelab
