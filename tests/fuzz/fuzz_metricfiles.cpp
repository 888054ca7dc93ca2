// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: the frameworks' metric file readers (trainer_state.json,
// Lightning metrics.csv and hparams.yaml, W&B history and summary, an MLflow
// metric file, TensorBoard TFRecord framing and Event protobufs), each on the
// same bytes.
#include "FuzzSupport.h"
#include "core/ingest/HparamsYamlReader.h"
#include "core/ingest/LightningCsvReader.h"
#include "core/ingest/MetricFileCollector.h"
#include "core/ingest/MlflowRunReader.h"
#include "core/ingest/TensorBoardEventReader.h"
#include "core/ingest/TrainerStateReader.h"
#include "core/ingest/WandbRunReader.h"
#include "core/model/MetricNames.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString name = QStringLiteral("fuzz");
    (void)TrainerStateReader::parse(bytes, name);
    (void)LightningCsvReader::parse(bytes, name);
    (void)HparamsYamlReader::parse(bytes, name);
    (void)WandbRunReader::parseHistory(bytes, name);
    (void)WandbRunReader::parseSummary(bytes, name);
    (void)TensorBoardEventReader::parse(bytes, name);
    MetricFileCollector out(QStringLiteral("mlflow"), metric::SourceMlflow);
    MlflowRunReader::parseMetric(bytes, name, name, out);
    return 0;
}
