// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/MetricFileData.h"

#include <QByteArray>

namespace scalelab {

class MetricFileCollector;

// TensorBoard event files (events.out.tfevents.*): TFRecord records
// (TfRecordReader, both CRCs checked) each holding one Event protobuf
// (TensorBoardEvent.proto: the field numbers of TensorBoard's event.proto,
// summary.proto and tensor.proto). Each Summary.Value with a tag gives one
// value at the event's step: `simple_value` (TF1 summaries, PyTorch's
// SummaryWriter.add_scalar) or a one-element numeric `tensor` (TF2
// tf.summary.scalar: tensor_content; PyTorch new_style: float_val; float,
// double, half, bfloat16, int32, int64). A tag whose first value names a
// plugin other than "scalars" (histograms, images, text, hparams) is not
// read. A torn last record is read up to the tear, with a note.
class TensorBoardEventReader {
public:
    // `tagPrefix` is put before every tag ("validation/" for Keras' per-split
    // folders); "" for none.
    static MetricFileResult read(const QString &path, const QString &tagPrefix = {});
    static MetricFileResult parse(const QByteArray &data, const QString &name, const QString &tagPrefix = {});
    // Read into `out` (several files of one run in one result).
    static void readInto(const QString &path, const QString &tagPrefix, MetricFileCollector &out);
    static void parseInto(const QByteArray &data, const QString &name, const QString &tagPrefix,
                          MetricFileCollector &out);
};

}   // namespace scalelab
