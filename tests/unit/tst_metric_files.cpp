// SPDX-License-Identifier: GPL-3.0-or-later
// The frameworks' own metric files: Hugging Face trainer_state.json,
// Lightning metrics.csv + hparams.yaml, TensorBoard event files (TFRecord
// framing with both masked CRC-32C checks, Event/Summary protobufs written
// here through protobuf's own serializer), MLflow's file store and W&B run
// files (fixtures in tests/data/metricfiles, README there cites each format).
// Each reader maps names to the project's, names file/line/field on bad
// input, and ingest prefers these values over the job output's.
#include "core/ingest/Crc32c.h"
#include "core/ingest/HparamsYamlReader.h"
#include "core/ingest/IngestService.h"
#include "core/ingest/LightningCsvReader.h"
#include "core/ingest/MetricFileCollector.h"
#include "core/ingest/MetricFileScanner.h"
#include "core/ingest/MlflowRunReader.h"
#include "core/ingest/TensorBoardEventReader.h"
#include "core/ingest/TfRecordReader.h"
#include "core/ingest/TrainerStateReader.h"
#include "core/ingest/WandbRunReader.h"
#include "core/model/MetricNames.h"
#include "core/slurm/SacctParser.h"
#include "core/store/RunStore.h"

#include "TensorBoardEvent.pb.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace scalelab;

namespace {

const QString kData = QStringLiteral(SCALELAB_TEST_DATA_DIR "/metricfiles");

QByteArray framed(const scalelab_tb::Event &e)
{
    std::string bytes;
    if (!e.SerializeToString(&bytes))
        return {};
    return TfRecordReader::frame(QByteArrayView(bytes.data(), qsizetype(bytes.size())));
}

scalelab_tb::Event simple(qint64 step, const char *tag, float v)
{
    scalelab_tb::Event e;
    e.set_wall_time(1764151200.0 + double(step));
    e.set_step(step);
    auto *value = e.mutable_summary()->add_value();
    value->set_tag(tag);
    value->set_simple_value(v);
    return e;
}

// TF2 tf.summary.scalar: a rank-0 DT_FLOAT tensor in tensor_content, the
// "scalars" plugin named on the tag's first value.
scalelab_tb::Event tf2Scalar(qint64 step, const char *tag, float v, bool withMetadata)
{
    scalelab_tb::Event e;
    e.set_step(step);
    auto *value = e.mutable_summary()->add_value();
    value->set_tag(tag);
    if (withMetadata)
        value->mutable_metadata()->mutable_plugin_data()->set_plugin_name("scalars");
    auto *t = value->mutable_tensor();
    t->set_dtype(1);
    char bytes[4];
    qToLittleEndian<float>(v, bytes);
    t->set_tensor_content(std::string(bytes, 4));
    return e;
}

// PyTorch SummaryWriter.add_scalar(new_style=True): float_val.
scalelab_tb::Event torchNewStyle(qint64 step, const char *tag, float v)
{
    scalelab_tb::Event e;
    e.set_step(step);
    auto *value = e.mutable_summary()->add_value();
    value->set_tag(tag);
    value->mutable_metadata()->mutable_plugin_data()->set_plugin_name("scalars");
    value->mutable_tensor()->set_dtype(1);
    value->mutable_tensor()->add_float_val(v);
    return e;
}

QByteArray tensorBoardFile()
{
    scalelab_tb::Event version;
    version.set_file_version("brain.Event:2");
    QByteArray out = framed(version);
    for (int step = 1; step <= 3; ++step) {
        out += framed(simple(step * 100, "train/loss", 2.0f / float(step)));
        out += framed(tf2Scalar(step * 100, "eval/loss", 1.5f / float(step), step == 1));
        out += framed(torchNewStyle(step * 100, "Accuracy/test", 0.25f * float(step)));
    }
    // A histogram tag: its plugin is not "scalars", so it is not a metric.
    scalelab_tb::Event hist = torchNewStyle(300, "weights/fc1", 7.0f);
    hist.mutable_summary()->mutable_value(0)->mutable_metadata()->mutable_plugin_data()->set_plugin_name("histograms");
    out += framed(hist);
    return out;
}

}   // namespace

class TestMetricFiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void crc32cKnownVectors();
    void tfRecordFramingChecksBothCrcs();
    void tensorBoardScalarsOfEveryWriter();
    void tensorBoardTornLastRecordIsReadUpToTheTear();
    void trainerStateLogHistory();
    void trainerStateNotJsonNamesTheLine();
    void lightningCsvWithRewrittenHeader();
    void lightningBadValueNamesLineAndField();
    void hparamsFlatSubset();
    void mlflowRun();
    void wandbRun();
    void scannerReadsNewestRunOfEachFormat();
    void ingestPrefersMetricFilesOverTheLog();
    void cliMetricsReadsAFolder();
};

void TestMetricFiles::crc32cKnownVectors()
{
    // RFC 3720 appendix B.4 and the common check value.
    QCOMPARE(Crc32c::of("123456789"), 0xE3069283u);
    QCOMPARE(Crc32c::of(QByteArray(32, '\0')), 0x8A9136AAu);
    QCOMPARE(Crc32c::of(QByteArray(32, '\xff')), 0x62A8AB43u);
    QByteArray ascending(32, '\0');
    for (int i = 0; i < 32; ++i)
        ascending[i] = char(i);
    QCOMPARE(Crc32c::of(ascending), 0x46DD794Eu);
    // The mask TFRecord applies: rotate right 15, add 0xa282ead8.
    QCOMPARE(Crc32c::masked(0), 0xa282ead8u);
    QCOMPARE(Crc32c::masked(0xE3069283u), ((0xE3069283u >> 15) | (0xE3069283u << 17)) + 0xa282ead8u);
}

void TestMetricFiles::tfRecordFramingChecksBothCrcs()
{
    const QByteArray a = TfRecordReader::frame("first"), b = TfRecordReader::frame("second"),
                     c = TfRecordReader::frame("third");
    QCOMPARE(a.size(), 12 + 5 + 4);
    const QByteArray three = a + b + c;
    const TfRecordScan ok = TfRecordReader::scan(three, QStringLiteral("f"));
    QCOMPARE(ok.records.size(), 3);
    QCOMPARE(ok.records[1].data.toByteArray(), QByteArray("second"));
    QVERIFY(ok.diagnostics.isEmpty());

    // A flipped data byte: that record is skipped, the next one is read.
    QByteArray badData = a + b + c;
    badData[a.size() + 12] = 'S';
    const TfRecordScan d = TfRecordReader::scan(badData, QStringLiteral("f"));
    QCOMPARE(d.records.size(), 2);
    QCOMPARE(d.records[1].data.toByteArray(), QByteArray("third"));
    QCOMPARE(d.diagnostics.size(), 1);
    QCOMPARE(d.diagnostics[0].rule, QStringLiteral("tfrecord-crc"));
    QVERIFY2(d.diagnostics[0].message.contains(QStringLiteral("record 2 at byte 21")),
             qPrintable(d.diagnostics[0].message));

    // A flipped length CRC: nothing after it can be framed.
    QByteArray badLength = a + b + c;
    badLength[a.size() + 8] = char(badLength[a.size() + 8] ^ 1);
    const TfRecordScan l = TfRecordReader::scan(badLength, QStringLiteral("f"));
    QCOMPARE(l.records.size(), 1);
    QCOMPARE(l.diagnostics.size(), 1);
    QCOMPARE(l.diagnostics[0].field, QStringLiteral("length"));
    QVERIFY(!l.torn);
}

void TestMetricFiles::tensorBoardScalarsOfEveryWriter()
{
    const MetricFileResult r =
        TensorBoardEventReader::parse(tensorBoardFile(), QStringLiteral("events.out.tfevents.1"));
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(r.diagnostics.value(0).message));
    QCOMPARE(r.metrics.size(), 3);
    const FileMetric *train = r.find(metric::TrainLoss);
    QVERIFY(train);
    QCOMPARE(train->key, QStringLiteral("train/loss"));
    QCOMPARE(train->source, metric::SourceTensorBoard);
    QCOMPARE(train->steps, (QVector<double>{100, 200, 300}));
    QCOMPARE(train->values[1], double(2.0f / 2.0f));
    const FileMetric *eval = r.find(metric::EvalLoss);
    QVERIFY(eval);   // TF2 tensor_content, metadata on the first value only
    QCOMPARE(eval->count, 3);
    QCOMPARE(eval->value, double(1.5f / 3.0f));
    const FileMetric *acc = r.find(metric::TestAccuracy);
    QVERIFY(acc);   // PyTorch new_style float_val
    QCOMPARE(acc->value, 0.75);
    QCOMPARE(acc->rule, QStringLiteral("tensorboard.accuracy_test"));
    QVERIFY(!r.find(QStringLiteral("weights_fc1")));
}

void TestMetricFiles::tensorBoardTornLastRecordIsReadUpToTheTear()
{
    QByteArray bytes = tensorBoardFile();
    const QByteArray last = framed(simple(400, "train/loss", 0.125f));
    bytes += last.left(last.size() - 3);   // the writer was still writing
    const MetricFileResult r = TensorBoardEventReader::parse(bytes, QStringLiteral("events.out.tfevents.1"));
    const FileMetric *train = r.find(metric::TrainLoss);
    QVERIFY(train);
    QCOMPARE(train->count, 3);
    QCOMPARE(r.diagnostics.size(), 1);
    QCOMPARE(r.diagnostics[0].rule, QStringLiteral("tfrecord-torn"));
    QCOMPARE(r.diagnostics[0].severity, Severity::Info);
    QVERIFY2(r.diagnostics[0].message.startsWith(QStringLiteral("events.out.tfevents.1: record 12 at byte")),
             qPrintable(r.diagnostics[0].message));
}

void TestMetricFiles::trainerStateLogHistory()
{
    const MetricFileResult r = TrainerStateReader::read(kData + QStringLiteral("/hf-output/trainer_state.json"));
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(r.diagnostics.value(0).message));
    const FileMetric *loss = r.find(metric::TrainLoss);
    QVERIFY(loss);
    // The curve is the logged "loss" per step; the value is the closing average.
    QCOMPARE(loss->steps, (QVector<double>{10, 20, 30, 40}));
    QCOMPARE(loss->values, (QVector<double>{2.3026, 1.75, 1.125, 0.875}));
    QCOMPARE(loss->value, 1.5131);
    QCOMPARE(loss->key, QStringLiteral("train_loss"));
    const FileMetric *eval = r.find(metric::EvalLoss);
    QVERIFY(eval);
    QCOMPARE(eval->steps, (QVector<double>{20, 40}));
    QCOMPARE(eval->value, 0.9375);
    QCOMPARE(r.find(metric::TrainTimeS)->value, 125.5);
    QCOMPARE(r.find(metric::TrainTimeS)->values.size(), 0);   // a total, not a curve
    QCOMPARE(r.find(metric::SamplesPerS)->value, 40.797);
    QCOMPARE(r.find(QStringLiteral("learning_rate"))->values.size(), 4);
    QVERIFY(!r.find(QStringLiteral("epoch")));
    bool batch = false;
    for (const RunParameter &p : r.parameters)
        batch = batch || (p.key == QLatin1String("train_batch_size") && p.value == QLatin1String("16"));
    QVERIFY(batch);
}

void TestMetricFiles::trainerStateNotJsonNamesTheLine()
{
    const MetricFileResult r = TrainerStateReader::parse("{\n  \"log_history\": [\n    {\"loss\": 1,}\n", "ts.json");
    QCOMPARE(r.metrics.size(), 0);
    QCOMPARE(r.diagnostics.size(), 1);
    QCOMPARE(r.diagnostics[0].line, 3);
    QCOMPARE(r.diagnostics[0].severity, Severity::Error);
    const MetricFileResult shape = TrainerStateReader::parse("{\"global_step\": 3}", "ts.json");
    QCOMPARE(shape.diagnostics.value(0).field, QStringLiteral("log_history"));
}

void TestMetricFiles::lightningCsvWithRewrittenHeader()
{
    const MetricFileResult r =
        LightningCsvReader::read(kData + QStringLiteral("/lightning_logs/version_1/metrics.csv"));
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(r.diagnostics.value(0).message));
    const FileMetric *step = r.find(metric::TrainLoss);
    QVERIFY(step);
    QCOMPARE(step->steps, (QVector<double>{49, 99, 149, 199}));
    QCOMPARE(step->values, (QVector<double>{2.25, 1.875, 1.25, 1.0}));
    QCOMPARE(step->line, 8);
    QCOMPARE(r.find(QStringLiteral("train_loss_epoch"))->values, (QVector<double>{2.0625, 1.125}));
    QCOMPARE(r.find(metric::EvalLoss)->value, 0.75);
    QCOMPARE(r.find(metric::ValAccuracy)->value, 0.8125);
    QCOMPARE(r.find(metric::ValAccuracy)->rule, QStringLiteral("lightning.csv.val_acc"));
}

void TestMetricFiles::lightningBadValueNamesLineAndField()
{
    const MetricFileResult r =
        LightningCsvReader::parse("epoch,step,val_loss\n0,10,0.5\n0,20,tensor(0.4)\n", "lightning/metrics.csv");
    QCOMPARE(r.find(metric::EvalLoss)->count, 1);
    QCOMPARE(r.diagnostics.size(), 1);
    QCOMPARE(r.diagnostics[0].line, 3);
    QCOMPARE(r.diagnostics[0].field, QStringLiteral("val_loss"));
    QVERIFY(r.diagnostics[0].message.startsWith(QStringLiteral("lightning/metrics.csv: ")));
}

void TestMetricFiles::hparamsFlatSubset()
{
    const MetricFileResult r =
        HparamsYamlReader::read(kData + QStringLiteral("/lightning_logs/version_1/hparams.yaml"));
    QStringList got;
    for (const RunParameter &p : r.parameters)
        got << p.key + u'=' + p.value;
    QCOMPARE(got, (QStringList{QStringLiteral("batch_size=64"), QStringLiteral("learning_rate=0.001"),
                               QStringLiteral("optimizer=adam"), QStringLiteral("model_name=resnet18"),
                               QStringLiteral("note=two epochs")}));
    // The nested mapping (two lines) and the tagged value are named, not read.
    QCOMPARE(r.diagnostics.size(), 3);
    QCOMPARE(r.diagnostics[0].field, QStringLiteral("scheduler"));
    QCOMPARE(r.diagnostics[0].line, 7);
    QCOMPARE(r.diagnostics[2].field, QStringLiteral("augment"));
    QVERIFY(r.diagnostics[2].message.contains(QStringLiteral("!!python/object/apply")));
}

void TestMetricFiles::mlflowRun()
{
    const MetricFileResult r = MlflowRunReader::read(kData + QStringLiteral("/mlruns/0/4f1c2a9e8b7d4e6f"));
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(r.diagnostics.value(0).message));
    const FileMetric *loss = r.find(metric::TrainLoss);
    QVERIFY(loss);
    QCOMPARE(loss->key, QStringLiteral("train/loss"));
    QCOMPARE(loss->steps, (QVector<double>{0, 100, 200}));
    QCOMPARE(loss->value, 1.05);
    QCOMPARE(loss->line, 3);
    QCOMPARE(r.find(metric::ValAccuracy)->value, 0.78);
    // A throughput that does not say per GPU or whole job keeps its own name.
    QCOMPARE(r.find(QStringLiteral("samples_per_second"))->value, 1520.5);
    QCOMPARE(r.parameters.size(), 2);
    QCOMPARE(r.parameters[0].key, QStringLiteral("batch_size"));
    QCOMPARE(r.parameters[0].value, QStringLiteral("256"));

    MetricFileCollector out(QStringLiteral("mlflow"), metric::SourceMlflow);
    MlflowRunReader::parseMetric("1764151260000 2.31 0\n1764151320000 oops 100\n", QStringLiteral("loss"),
                                 QStringLiteral("m/loss"), out);
    const MetricFileResult bad = out.take();
    QCOMPARE(bad.diagnostics.size(), 1);
    QCOMPARE(bad.diagnostics[0].line, 2);
    QCOMPARE(bad.diagnostics[0].field, QStringLiteral("loss"));
}

void TestMetricFiles::wandbRun()
{
    const MetricFileResult r =
        WandbRunReader::read(kData + QStringLiteral("/wandb/offline-run-20261126_101010-k3x9q2ab"));
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(r.diagnostics.value(0).message));
    QCOMPARE(r.files.size(), 2);
    const FileMetric *loss = r.find(metric::TrainLoss);
    QVERIFY(loss);
    QCOMPARE(loss->steps, (QVector<double>{0, 1, 2}));
    QCOMPARE(loss->value, 1.1);
    QCOMPARE(loss->source, metric::SourceWandb);
    QCOMPARE(r.find(metric::EvalLoss)->value, 1.3);
    QCOMPARE(r.find(QStringLiteral("learning_rate"))->values.size(), 3);
    QCOMPARE(r.find(QStringLiteral("samples_sec"))->value, 812.25);
    QVERIFY(!r.find(QStringLiteral("_runtime")) && !r.find(QStringLiteral("runtime")));

    const MetricFileResult torn = WandbRunReader::parseHistory("{\"loss\": 1, \"_step\": 0}\n{\"loss\": 0.", "h.jsonl");
    QCOMPARE(torn.find(metric::TrainLoss)->count, 1);
    QCOMPARE(torn.diagnostics.value(0).line, 2);
}

void TestMetricFiles::scannerReadsNewestRunOfEachFormat()
{
    // A copy whose write times say which run is the newest (git keeps none).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-r"), kData, dir.path()}) == 0);
    const QString root = dir.path() + QStringLiteral("/metricfiles");
    const auto age = [&](const QString &rel, int minutesAgo) {
        QFile f(root + rel);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.setFileTime(QDateTime::currentDateTimeUtc().addSecs(-60 * minutesAgo),
                              QFileDevice::FileModificationTime));
    };
    age(QStringLiteral("/hf-output/checkpoint-20/trainer_state.json"), 30);
    age(QStringLiteral("/hf-output/trainer_state.json"), 10);
    age(QStringLiteral("/lightning_logs/version_0/metrics.csv"), 60);
    age(QStringLiteral("/lightning_logs/version_1/metrics.csv"), 20);
    QFile tb(root + QStringLiteral("/runs/exp1/events.out.tfevents.1764151200.node1.1234.0"));
    QVERIFY(QDir().mkpath(QFileInfo(tb).path()) && tb.open(QIODevice::WriteOnly));
    tb.write(tensorBoardFile());
    tb.close();

    const MetricFileResult r = MetricFileScanner::scan(root);
    QStringList sources;
    for (const FileMetric &m : r.metrics)
        if (m.name == metric::TrainLoss)
            sources << m.source + u'=' + QString::number(m.count);
    QCOMPARE(sources, (QStringList{QStringLiteral("trainer_state.json=5"), QStringLiteral("lightning metrics.csv=4"),
                                   QStringLiteral("tensorboard events=3"), QStringLiteral("mlflow file store=3"),
                                   QStringLiteral("wandb offline run=4")}));
    int runNotes = 0;
    for (const Diagnostic &d : r.diagnostics)
        runNotes += d.rule == QLatin1String("metric-file-runs");
    QCOMPARE(runNotes, 2);   // HF checkpoint, Lightning version_0
    QVERIFY(MetricFileScanner::isMetricFile(QStringLiteral("/x/events.out.tfevents.1.host")));
    QVERIFY(!MetricFileScanner::isMetricFile(QStringLiteral("/x/slurm-77.out")));
}

void TestMetricFiles::ingestPrefersMetricFilesOverTheLog()
{
    QTemporaryDir dir;
    RunStore store(dir.filePath(QStringLiteral("data")));
    QCOMPARE(store.open().errorText(), QString());
    RunRecord r;
    r.profile = r.clusterAlias = QStringLiteral("testbed");
    r.gpus = 1;
    r.nodes = 1;
    r.framework = QStringLiteral("huggingface");
    const auto created = store.createRun(r);
    QVERIFY(created.ok());
    const qint64 run = created.value().id;
    QCOMPARE(store.markSubmitted(run, QStringLiteral("77")).errorText(), QString());
    const auto fetched = [&](const QString &name, const QByteArray &bytes) {
        const QString local = store.runFilesDirectory(run) + u'/' + name;
        QVERIFY(QDir().mkpath(QFileInfo(local).path()));
        QFile f(local);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        QCOMPARE(store
                     .recordFile({run, QStringLiteral("/scratch/researcher/out/") + name, local, bytes.size(),
                                  bytes.size(), QDateTime::currentDateTimeUtc()})
                     .errorText(),
                 QString());
    };
    fetched(QStringLiteral("scalelab-77.out"), "epoch 1 loss=9.50\nepoch 2 loss=9.25\ntest_accuracy 0.91\n");
    QFile state(kData + QStringLiteral("/hf-output/trainer_state.json"));
    QVERIFY(state.open(QIODevice::ReadOnly));
    fetched(QStringLiteral("trainer_state.json"), state.readAll());

    const IngestResult result = IngestService::ingestRun(store, run);
    QCOMPARE(result.error, QString());
    QCOMPARE(result.metricFiles.size(), 1);
    const QList<MetricRecord> stored = store.metrics(run).value();
    int trainLoss = 0;
    for (const MetricRecord &m : stored) {
        if (m.name == metric::TrainLoss) {
            ++trainLoss;
            QCOMPARE(m.source, metric::SourceTrainerState);
            QCOMPARE(m.value, 1.5131);
            QCOMPARE(m.rule, QStringLiteral("hf.trainer_state.train_loss"));
        }
        if (m.name == metric::TestAccuracy)
            QCOMPARE(m.source, metric::SourceLog);   // only the log has it
    }
    QCOMPARE(trainLoss, 1);
    const QList<MetricSeries> series = store.series(run).value();
    int curves = 0;
    for (const MetricSeries &s : series)
        if (s.name == metric::TrainLoss) {
            ++curves;
            QCOMPARE(s.values, (QVector<double>{2.3026, 1.75, 1.125, 0.875}));
        }
    QCOMPARE(curves, 1);
}

void TestMetricFiles::cliMetricsReadsAFolder()
{
    QProcess p;
    p.start(QStringLiteral(SCALELAB_BINARY),
            {QStringLiteral("metrics"), kData + QStringLiteral("/mlruns"), QStringLiteral("--json")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    const auto j = nlohmann::json::parse(p.readAllStandardOutput().toStdString());
    bool found = false;
    for (const auto &m : j["metrics"])
        found = found || (m["metric"] == "train_loss" && m["source"] == "mlflow file store" && m["value"] == 1.05);
    QVERIFY(found);
    QCOMPARE(int(j["parameters"].size()), 2);

    QTemporaryDir empty;
    p.start(QStringLiteral(SCALELAB_BINARY), {QStringLiteral("metrics"), empty.path()});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 2);
    QVERIFY(p.readAllStandardError().contains("no metric file found; looked for trainer_state.json"));
}

QTEST_GUILESS_MAIN(TestMetricFiles)
#include "tst_metric_files.moc"
