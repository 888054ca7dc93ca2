// SPDX-License-Identifier: GPL-3.0-or-later
// LogMetricExtractor on job output: real runs of the example, the seed's
// Horovod/Keras lines and hand-made lines in other frameworks' formats.
#include "core/ingest/LiteralNumberMatcher.h"
#include "core/ingest/AnchorScan.h"
#include "core/ingest/LogLineText.h"
#include "core/ingest/LogMetricExtractor.h"
#include "core/ingest/RegexLiterals.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryFile>
#include <QSet>
#include <QTest>

#include <random>

#include <cmath>

using namespace scalelab;

namespace {

QString ingest(const QString &name)
{
    return QStringLiteral(SCALELAB_TEST_DATA_DIR "/ingest/") + name;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    return f.readAll();
}

// Values after `key` on rank 0's epoch lines, read independently of the extractor.
QList<double> epochValues(const QByteArray &log, const QString &key)
{
    QList<double> out;
    for (const QByteArray &line : log.split('\n')) {
        if (!line.startsWith("[default0]:epoch "))
            continue;
        const QStringList words = QString::fromUtf8(line).split(u' ');
        const qsizetype i = words.indexOf(key);
        out.append(words.value(i + 1).toDouble());
    }
    return out;
}

double mean(const QList<double> &v)
{
    double s = 0;
    for (double x : v)
        s += x;
    return s / v.size();
}

}   // namespace

class TstIngestLog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void builtins_data();
    void builtins();
    void exampleRunMeansAndCounts();
    void horovodRankFilter();
    void lightningCarriageReturns();
    void userPatterns_data();
    void userPatterns();
    void invalidPatterns();
    void metricAfterLongPrefix();
    void builtinsHaveLiterals();
    void aggregationIds();
    void missingFile();
    void largeLogLineNumbers();
};

// file, metric -> value, count, line; line -1 = not checked.
void TstIngestLog::builtins_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("metric");
    QTest::addColumn<double>("value");   // NaN = metric must be absent
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("line");
    const double absent = std::nan("");
    QTest::newRow("horovod 4 GPU accuracy") << "slurm-95659.out"
                                            << "test_accuracy" << 0.9936000108718872 << 1 << 14;
    QTest::newRow("horovod 4 GPU loss") << "slurm-95659.out"
                                        << "test_loss" << 0.01960514299571514 << 1 << 13;
    QTest::newRow("horovod 4 GPU train time") << "slurm-95659.out"
                                              << "train_time_s" << 124.74971508979797 << 1 << 15;
    QTest::newRow("horovod 1 GPU train time") << "slurm-95660.out"
                                              << "train_time_s" << 472.6957468986511 << 1 << 13;
    QTest::newRow("horovod no throughput") << "slurm-95659.out"
                                           << "throughput" << absent << 0 << -1;
    QTest::newRow("ddp job 52 accuracy") << "ddp-52.out"
                                         << "test_accuracy" << 0.9091 << 1 << 11;
    QTest::newRow("ddp job 52 train time") << "ddp-52.out"
                                           << "train_time_s" << 0.91 << 1 << 11;
    QTest::newRow("ddp job 52 train loss") << "ddp-52.out"
                                           << "train_loss" << 0.0366 << 4 << 10;
    QTest::newRow("ddp job 52 no epoch time") << "ddp-52.out"
                                              << "epoch_time_s" << absent << 0 << -1;
    QTest::newRow("ddp job 53 accuracy") << "ddp-53.out"
                                         << "test_accuracy" << 0.9091 << 1 << 10;
    QTest::newRow("ddp job 53 train time") << "ddp-53.out"
                                           << "train_time_s" << 0.82 << 1 << 10;
    QTest::newRow("example 2 proc accuracy") << "ddp-digits-2proc.out"
                                             << "test_accuracy" << 0.9778 << 1 << -1;
    QTest::newRow("example 2 proc loss") << "ddp-digits-2proc.out"
                                         << "test_loss" << 0.1015 << 1 << -1;
    QTest::newRow("example 2 proc time") << "ddp-digits-2proc.out"
                                         << "train_time_s" << 3.301 << 1 << -1;
    QTest::newRow("example 2 proc samples/s") << "ddp-digits-2proc.out"
                                              << "samples_per_s" << 8712.4 << 1 << -1;
    QTest::newRow("example 2 proc last loss") << "ddp-digits-2proc.out"
                                              << "train_loss" << 0.0147 << 20 << -1;
    QTest::newRow("example 1 proc accuracy") << "ddp-digits-1proc.out"
                                             << "test_accuracy" << 0.975 << 1 << -1;
    QTest::newRow("example 1 proc samples/s") << "ddp-digits-1proc.out"
                                              << "samples_per_s" << 10169.9 << 1 << -1;
    QTest::newRow("mnist ratio accuracy") << "pytorch-mnist-dataparallel.out"
                                          << "test_accuracy" << 0.9887 << 2 << 13;
    QTest::newRow("mnist average loss") << "pytorch-mnist-dataparallel.out"
                                        << "test_loss" << 0.0345 << 2 << 13;
    QTest::newRow("mnist train loss") << "pytorch-mnist-dataparallel.out"
                                      << "train_loss" << 0.101352 << 3 << 11;
    QTest::newRow("keras val accuracy") << "keras-fit.out"
                                        << "val_accuracy" << 0.9852 << 3 << 6;
    QTest::newRow("keras val loss") << "keras-fit.out"
                                    << "val_loss" << 0.0446 << 3 << 6;
    QTest::newRow("keras train loss") << "keras-fit.out"
                                      << "train_loss" << 0.0804 << 3 << 6;
    QTest::newRow("keras train accuracy") << "keras-fit.out"
                                          << "train_accuracy" << 0.9757 << 3 << 6;
    QTest::newRow("keras epoch time") << "keras-fit.out"
                                      << "epoch_time_s" << 11.0 << 3 << 6;
    QTest::newRow("keras test accuracy") << "keras-fit.out"
                                         << "test_accuracy" << 0.9852 << 1 << 8;
    QTest::newRow("lightning val_acc") << "lightning-progress.out"
                                       << "val_accuracy" << 0.981 << 3 << 9;
    QTest::newRow("lightning val_loss") << "lightning-progress.out"
                                        << "val_loss" << 0.0612 << 3 << 9;
    QTest::newRow("tf_cnn step throughput") << "tf-cnn-benchmarks.out"
                                            << "throughput" << 232.0 << 3 << 7;
    QTest::newRow("tf_cnn total") << "tf-cnn-benchmarks.out"
                                  << "samples_per_s" << 231.85 << 1 << 9;
    QTest::newRow("horovod benchmark total, rank 0") << "horovod-synthetic.out"
                                                     << "samples_per_s" << 489.6 << 1 << 9;
}

void TstIngestLog::builtins()
{
    QFETCH(QString, file);
    QFETCH(QString, metric);
    QFETCH(double, value);
    QFETCH(int, count);
    QFETCH(int, line);
    const LogMetricExtractor x;
    QVERIFY(x.patternDiagnostics().isEmpty());
    const LogMetricResult r = x.extractFile(ingest(file));
    QVERIFY(r.diagnostics.isEmpty());
    const LogMetric *m = r.find(metric);
    if (std::isnan(value)) {
        QVERIFY2(!m, m ? qPrintable(m->sourceLine) : "");
        return;
    }
    QVERIFY2(m, qPrintable(metric));
    QVERIFY2(std::abs(m->value - value) < 1e-9, qPrintable(QString::number(m->value, 'g', 17)));
    QCOMPARE(m->count, count);
    QCOMPARE(m->values.size(), count);
    if (line > 0)
        QCOMPARE(m->line, qint64(line));
    // The reported line is the file's line.
    const QList<QByteArray> lines = readAll(ingest(file)).split('\n');
    QVERIFY(QString::fromUtf8(lines.value(m->line - 1)).contains(m->sourceLine));
}

void TstIngestLog::exampleRunMeansAndCounts()
{
    const QByteArray log = readAll(ingest(QStringLiteral("ddp-digits-2proc.out")));
    const LogMetricResult r = LogMetricExtractor().extract(log);
    const QList<double> times = epochValues(log, QStringLiteral("time"));
    const QList<double> rates = epochValues(log, QStringLiteral("samples/s"));
    const QList<double> losses = epochValues(log, QStringLiteral("loss"));
    QCOMPARE(times.size(), 20);
    const LogMetric *t = r.find(QStringLiteral("epoch_time_s"));
    QVERIFY(t);
    QCOMPARE(t->count, 20);
    QVERIFY(std::abs(t->value - mean(times)) < 1e-9);
    QCOMPARE(t->unit, QStringLiteral("s"));
    QCOMPARE(t->aggregation, MetricAggregation::Mean);
    const LogMetric *th = r.find(QStringLiteral("throughput"));
    QVERIFY(th);
    QCOMPARE(th->count, 20);   // "time 0.139 samples/s 10375.2" is one value, not two
    QVERIFY(std::abs(th->value - mean(rates)) < 1e-9);
    QCOMPARE(th->values, QVector<double>(rates.begin(), rates.end()));
    QCOMPARE(th->unit, QStringLiteral("samples/s"));
    const LogMetric *l = r.find(QStringLiteral("train_loss"));
    QCOMPARE(l->values, QVector<double>(losses.begin(), losses.end()));
}

void TstIngestLog::horovodRankFilter()
{
    const LogMetricResult all =
        LogMetricExtractor({}, true, false).extractFile(ingest(QStringLiteral("horovod-synthetic.out")));
    QCOMPARE(all.find(QStringLiteral("samples_per_s"))->value, 999.9);
    QCOMPARE(all.find(QStringLiteral("samples_per_s"))->count, 2);
    // torchrun's prefix: local rank 1's lines are left out too.
    const QByteArray log = "[default1]:test_accuracy 0.5\n[default0]:test_accuracy 0.9\n[default1]:test_accuracy 0.4\n";
    QCOMPARE(*LogMetricExtractor().extract(log).value(QStringLiteral("test_accuracy")), 0.9);
    QCOMPARE(*LogMetricExtractor({}, true, false).extract(log).value(QStringLiteral("test_accuracy")), 0.4);
}

void TstIngestLog::lightningCarriageReturns()
{
    const LogMetricResult r = LogMetricExtractor().extractFile(ingest(QStringLiteral("lightning-progress.out")));
    const LogMetric *m = r.find(QStringLiteral("val_accuracy"));
    QVERIFY(m->sourceLine.startsWith(QLatin1String("Epoch 1: 100%")));
    QVERIFY(!m->sourceLine.contains(u'\r'));
    QCOMPARE(m->values, (QVector<double>{0.972, 0.972, 0.981}));
}

void TstIngestLog::userPatterns_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("regex");
    QTest::addColumn<QString>("aggregation");
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("count");
    QTest::newRow("mean, rank 0 only") << "horovod-synthetic.out"
                                       << "Iter #[0-9]+: ([0-9.]+) img/sec per GPU"
                                       << "mean" << 122.4 << 2;
    QTest::newRow("max") << "ddp-digits-2proc.out"
                         << "epoch [0-9]+ loss ([0-9.]+)"
                         << "max" << 2.2381 << 20;
    QTest::newRow("min") << "ddp-digits-2proc.out"
                         << "epoch [0-9]+ loss ([0-9.]+)"
                         << "min" << 0.0147 << 20;
    QTest::newRow("last") << "slurm-95659.out"
                          << "Number of Tasks Allocated += ([0-9]+)"
                          << "last" << 4.0 << 1;
    QTest::newRow("no literal at all") << "keras-fit.out"
                                       << "^([0-9]+)/[0-9]+ \\["
                                       << "mean" << 469.0 << 3;
    QTest::newRow("alternation") << "keras-fit.out"
                                 << "(?:val_loss|Test loss): ([0-9.]+)"
                                 << "min" << 0.0446 << 4;
    QTest::newRow("case-insensitive") << "keras-fit.out"
                                      << "(?i)TEST ACCURACY: ([0-9.]+)"
                                      << "last" << 0.9852 << 1;
}

void TstIngestLog::userPatterns()
{
    QFETCH(QString, file);
    QFETCH(QString, regex);
    QFETCH(QString, aggregation);
    QFETCH(double, value);
    QFETCH(int, count);
    MetricPattern p;
    p.name = QStringLiteral("mine");
    p.regex = regex;
    p.unit = QStringLiteral("u");
    p.aggregation = *LogMetricExtractor::aggregationFromId(aggregation);
    const LogMetricExtractor x({p}, false);
    QCOMPARE(x.patternCount(), 1);
    const LogMetricResult r = x.extractFile(ingest(file));
    const LogMetric *m = r.find(QStringLiteral("mine"));
    QVERIFY(m);
    QVERIFY2(std::abs(m->value - value) < 1e-9, qPrintable(QString::number(m->value)));
    QCOMPARE(m->count, count);
    QCOMPARE(m->unit, QStringLiteral("u"));
    QCOMPARE(r.metrics.size(), 1);   // no builtins
    // The prefilter changes nothing: the same as a plain regex over every line.
    const QRegularExpression re(regex);
    int plain = 0;
    for (const QString &line :
         QString::fromUtf8(readAll(ingest(file))).split(QRegularExpression(QStringLiteral("[\r\n]")))) {
        if (line.startsWith(QLatin1String("[1,1]")))
            continue;
        for (auto it = re.globalMatch(line); it.hasNext(); it.next())
            ++plain;
    }
    QCOMPARE(plain, count);
}

void TstIngestLog::invalidPatterns()
{
    MetricPattern bad{QStringLiteral("broken"), QStringLiteral("loss ([0-9.]+"), {}, MetricAggregation::Last};
    MetricPattern noGroup{QStringLiteral("nogroup"), QStringLiteral("loss [0-9.]+"), {}, MetricAggregation::Last};
    MetricPattern noName{QString(), QStringLiteral("loss ([0-9.]+)"), {}, MetricAggregation::Last};
    MetricPattern ratio{QStringLiteral("ratio"), QStringLiteral("acc ([0-9]+)"), {}, MetricAggregation::Last, 1, true};
    MetricPattern good{QStringLiteral("good"), QStringLiteral("loss ([0-9.]+)"), {}, MetricAggregation::Last};
    const LogMetricExtractor x({bad, noGroup, noName, ratio, good}, false);
    QCOMPARE(x.patternCount(), 1);
    const Diagnostics &d = x.patternDiagnostics();
    QCOMPARE(d.size(), 4);
    QCOMPARE(d[0].field, QStringLiteral("patterns[0].regex"));
    QVERIFY(d[0].message.contains(QLatin1String("'broken'")));
    QVERIFY2(d[0].message.contains(QLatin1String("the regex loss ([0-9.]+ is invalid: missing )")),
             qPrintable(d[0].message));
    QCOMPARE(d[1].field, QStringLiteral("patterns[1].regex"));
    QVERIFY(d[1].message.contains(QLatin1String("capture group")));
    QCOMPARE(d[2].field, QStringLiteral("patterns[2].name"));
    QCOMPARE(d[3].field, QStringLiteral("patterns[3].regex"));
    for (const Diagnostic &e : d)
        QCOMPARE(e.severity, Severity::Error);
    QCOMPARE(*x.extract("loss 0.5\n").value(QStringLiteral("good")), 0.5);
}

void TstIngestLog::metricAfterLongPrefix()
{
    // A metric whose anchor comes after a long run of other text on its line, and
    // the log's last line (ending in a line break) with its anchor in the last bytes.
    const LogMetricExtractor ex;
    for (int prefix : {0, 1, 15, 16, 17, 31, 32, 33, 4095, 70000}) {
        // (The second line stays under the regex rules' 64 KB line limit.)
        const QByteArray log = QByteArray(prefix, '=') + " 50%|#####     | 50/100 [00:10<00:10,  4.50it/s]\n"
                               + QByteArray(std::min(prefix, 4095), '-') + " loss=0.25\n";
        const LogMetricResult r = ex.extract(log);
        QVERIFY2(r.value(QStringLiteral("it_per_s")) == 4.5, qPrintable(QString::number(prefix)));
        QCOMPARE(r.value(QStringLiteral("steps_done")), 50.0);
        QCOMPARE(r.value(QStringLiteral("train_loss")), 0.25);
        QCOMPARE(r.find(QStringLiteral("train_loss"))->line, 2);
    }
}

void TstIngestLog::builtinsHaveLiterals()
{
    // Every rule has fixed text that a memmem scan finds before any regex runs
    // (the nccl-tests table is read by its own reader).
    for (const MetricPattern &p : LogMetricExtractor::builtinPatterns()) {
        if (p.ncclTable)
            continue;
        const QString lit = !p.numberBefore.isEmpty()
                                ? p.numberBefore
                                : (p.literal.isEmpty() ? RegexLiterals::longest(p.regex) : p.literal);
        QVERIFY2(lit.size() >= (p.literal.isEmpty() ? 4 : 2), qPrintable(p.rule + u' ' + p.regex));
        QVERIFY2(QRegularExpression(p.regex).isValid(), qPrintable(p.rule));
    }
}

void TstIngestLog::aggregationIds()
{
    for (MetricAggregation a : {MetricAggregation::Last, MetricAggregation::Mean, MetricAggregation::Max,
                                MetricAggregation::Min, MetricAggregation::PerRankSum})
        QCOMPARE(*LogMetricExtractor::aggregationFromId(LogMetricExtractor::aggregationId(a)), a);
    QCOMPARE(*LogMetricExtractor::aggregationFromId(QStringLiteral(" MAX ")), MetricAggregation::Max);
    QVERIFY(!LogMetricExtractor::aggregationFromId(QStringLiteral("median")));
}

void TstIngestLog::missingFile()
{
    const LogMetricResult r = LogMetricExtractor().extractFile(QStringLiteral("/nonexistent/slurm-1.out"));
    QCOMPARE(r.diagnostics.size(), 1);
    QCOMPARE(r.diagnostics[0].severity, Severity::Error);
    QVERIFY(r.diagnostics[0].message.contains(QLatin1String("/nonexistent/slurm-1.out")));
    QVERIFY(r.metrics.isEmpty());
}

void TstIngestLog::largeLogLineNumbers()
{
    QTemporaryFile f;
    QVERIFY(f.open());
    QByteArray chunk;
    for (int i = 0; i < 1000; ++i)
        chunk +=
            "2021-02-03 10:15:23.012238: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1418] Created device\n";
    for (int k = 0; k < 50; ++k) {
        f.write(chunk);
        f.write(QByteArray("[1,0]<stdout>:Test accuracy: 0.") + QByteArray::number(k) + "\n");
    }
    f.flush();
    const LogMetricResult r = LogMetricExtractor().extractFile(f.fileName());
    const LogMetric *m = r.find(QStringLiteral("test_accuracy"));
    QCOMPARE(m->count, 50);
    QCOMPARE(m->line, qint64(50 * 1001));
    QCOMPARE(m->value, 0.49);
    QCOMPARE(r.bytes, f.size());
}

QTEST_GUILESS_MAIN(TstIngestLog)
#include "tst_ingest_log.moc"
