#include "core/ingest/LogMetricExtractor.h"

#include <QFile>
#include <QHash>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace scalelab {

namespace {

constexpr int kMaxValues = 100000;
constexpr int kMaxPerLine = 64;   // values one pattern may take from one line

// A decimal number as frameworks print it: 0.99, 98, .5, 1e-3, -0.2.
const QString kNum = QStringLiteral("([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)");

MetricPattern builtin(const char *name, const char *unit, MetricAggregation agg, const QString &regex,
                      const char *anchor, bool ratio = false)
{
    MetricPattern p;
    p.name = QString::fromLatin1(name);
    p.unit = QString::fromLatin1(unit);
    p.aggregation = agg;
    p.regex = regex;
    p.anchor = QString::fromLatin1(anchor);
    p.ratio = ratio;
    return p;
}

// Rank of a launcher prefix at the start of a line: "[1,3]<stdout>:" -> 3,
// "[default1]:" -> 1; -1 when there is none.
int prefixRank(const char *p, const char *end)
{
    if (p >= end || *p != '[')
        return -1;
    const char *q = p + 1;
    if (end - q >= 7 && std::memcmp(q, "default", 7) == 0) {
        q += 7;
        int r = 0;
        const char *d = q;
        while (q < end && *q >= '0' && *q <= '9')
            r = r * 10 + (*q++ - '0');
        return (q > d && q + 1 < end && q[0] == ']' && q[1] == ':') ? r : -1;
    }
    while (q < end && *q >= '0' && *q <= '9')
        ++q;
    if (q == p + 1 || q >= end || *q != ',')
        return -1;
    ++q;
    int r = 0;
    const char *d = q;
    while (q < end && *q >= '0' && *q <= '9')
        r = r * 10 + (*q++ - '0');
    return (q > d && q + 1 < end && q[0] == ']' && q[1] == '<') ? r : -1;
}

// The PyTorch example's train-loss lines are frequent (every log interval),
// so its builtin gets a regex-free form: the value after "\tLoss: " on a line
// that also says "Train Epoch: ".
const QString kTrainEpochRegex = QStringLiteral("Train Epoch: [0-9]+ .*\\sLoss: ") + kNum;

struct Hit {
    qint64 offset;
    double value;
};

struct Accumulator {
    int count = 0;
    double sum = 0;
    double chosen = std::numeric_limits<double>::quiet_NaN();
    qint64 chosenOffset = -1;   // start of the chosen line
    qint64 chosenEnd = -1;
    qint64 lastOffset = -1;
    qint64 lastEnd = -1;
    QList<Hit> hits;
};

} // namespace

const LogMetric *LogMetricResult::find(const QString &name) const
{
    for (const LogMetric &m : metrics)
        if (m.name == name)
            return &m;
    return nullptr;
}

std::optional<double> LogMetricResult::value(const QString &name) const
{
    const LogMetric *m = find(name);
    return m ? std::optional<double>(m->value) : std::nullopt;
}

QString LogMetricExtractor::aggregationId(MetricAggregation a)
{
    switch (a) {
    case MetricAggregation::Last: return QStringLiteral("last");
    case MetricAggregation::Mean: return QStringLiteral("mean");
    case MetricAggregation::Max: return QStringLiteral("max");
    case MetricAggregation::Min: return QStringLiteral("min");
    }
    return {};
}

std::optional<MetricAggregation> LogMetricExtractor::aggregationFromId(const QString &id)
{
    for (MetricAggregation a : {MetricAggregation::Last, MetricAggregation::Mean, MetricAggregation::Max,
                                MetricAggregation::Min})
        if (aggregationId(a) == id.trimmed().toLower())
            return a;
    return std::nullopt;
}

QList<MetricPattern> LogMetricExtractor::builtinPatterns()
{
    using A = MetricAggregation;
    const QString n = kNum;
    // Anchors are few and shared (acc, ccuracy, oss, time, samples, /sec,
    // s/step): each distinct anchor costs one memmem pass over the log.
    return {
        // Keras / Horovod examples (seed 002): "Test loss: 0.0196", "Test accuracy: 0.9936", "Train time: 124.7"
        builtin("test_accuracy", "", A::Last, QStringLiteral("Test accuracy:\\s*") + n, "acc"),
        // PyTorch MNIST example: "Test set: Average loss: 0.0345, Accuracy: 9800/10000 (98%)"
        builtin("test_accuracy", "", A::Last, QStringLiteral("Accuracy: ([0-9]+)/([0-9]+) \\("), "ccuracy", true),
        // This project's example and ddp-runs: "test_accuracy 0.9091  train_time_s 0.91"
        builtin("test_accuracy", "", A::Last, QStringLiteral("\\btest_accuracy[=:\\s]\\s*") + n, "acc"),
        // Keras fit progress: "... - val_accuracy: 0.98"; Lightning: "val_acc=0.95"
        builtin("val_accuracy", "", A::Last, QStringLiteral("\\bval_acc(?:uracy)?[=:]\\s*") + n, "acc"),
        builtin("train_accuracy", "", A::Last, QStringLiteral(" - accuracy: ") + n, "acc"),
        builtin("test_loss", "", A::Last, QStringLiteral("Test loss:\\s*") + n, "oss"),
        builtin("test_loss", "", A::Last, QStringLiteral("Test set: Average loss:\\s*") + n, "oss"),
        builtin("test_loss", "", A::Last, QStringLiteral("\\btest_loss[=:\\s]\\s*") + n, "oss"),
        builtin("val_loss", "", A::Last, QStringLiteral("\\bval_loss[=:]\\s*") + n, "oss"),
        builtin("train_loss", "", A::Last, QStringLiteral("\\btrain_loss[=:\\s]\\s*") + n, "oss"),
        builtin("train_loss", "", A::Last, QStringLiteral("\\b[Ee]poch\\s*[0-9]+\\s+loss[=:\\s]\\s*") + n, "oss"),
        builtin("train_loss", "", A::Last, QStringLiteral(" - loss: ") + n, "oss"),
        // PyTorch MNIST example: "Train Epoch: 1 [1280/60000 (2%)]\tLoss: 1.381224"
        builtin("train_loss", "", A::Last, kTrainEpochRegex, "oss"),
        builtin("train_time_s", "s", A::Last, QStringLiteral("Train time:\\s*") + n, "time"),
        builtin("train_time_s", "s", A::Last, QStringLiteral("\\btrain_time_s[=:\\s]\\s*") + n, "time"),
        // "epoch 3 loss 0.47 time 0.139 samples/s 10375.2", "Epoch 3 ... time 12.3s"
        builtin("epoch_time_s", "s", A::Mean, QStringLiteral("\\b[Ee]poch\\s*[0-9]+\\b.*\\btime[=:\\s]\\s*") + n, "time"),
        // Keras: "469/469 [====] - 12s 25ms/step - loss: ..."
        builtin("epoch_time_s", "s", A::Mean, QStringLiteral(" - ") + n + QStringLiteral("s [0-9.]+[mu]?s/step"),
                "s/step"),
        // Whole-run throughput summaries.
        builtin("samples_per_s", "samples/s", A::Last, QStringLiteral("\\bsamples_per_s[=:\\s]\\s*") + n,
                "samples"),
        // Hugging Face Trainer: "train_samples_per_second = 12.3"
        builtin("samples_per_s", "samples/s", A::Last, QStringLiteral("\\btrain_samples_per_second\\s*[=:]\\s*") + n,
                "samples"),
        builtin("samples_per_s", "samples/s", A::Last, QStringLiteral("total images/sec:\\s*") + n, "/sec"),
        builtin("samples_per_s", "samples/s", A::Last,
                QStringLiteral("Total img/sec on [0-9]+ GPU\\(s\\):\\s*") + n, "/sec"),
        // Per-step / per-epoch throughput (images, examples and samples are all samples).
        builtin("throughput", "samples/s", A::Mean, QStringLiteral("(?<!total )images/sec:\\s*") + n, "/sec"),
        builtin("throughput", "samples/s", A::Mean, n + QStringLiteral("\\s*(?:images|examples)/sec\\b(?!:?\\s*[0-9])"), "/sec"),
        builtin("throughput", "samples/s", A::Mean, QStringLiteral("\\bexamples/sec[=:]\\s*") + n, "/sec"),
        builtin("throughput", "samples/s", A::Mean, QStringLiteral("average exp/sec = ") + n, "/sec"),
        builtin("throughput", "samples/s", A::Mean, n + QStringLiteral(" examples/second"), "/sec"),
        builtin("throughput", "samples/s", A::Mean, QStringLiteral("samples/s[=:\\s]\\s*") + n, "samples"),
        builtin("throughput", "samples/s", A::Mean, n + QStringLiteral("\\s*samples/s\\b(?!:?\\s*[0-9])"), "samples"),
    };
}

QString LogMetricExtractor::literalOf(const QString &regex)
{
    QString best, cur;
    int depth = 0;
    auto endRun = [&] {
        if (cur.size() > best.size())
            best = cur;
        cur.clear();
    };
    auto popOptional = [&] {   // the char before ?, *, {0,..} may be absent
        if (!cur.isEmpty())
            cur.chop(1);
        endRun();
    };
    const qsizetype n = regex.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = regex[i];
        if (c == u'\\') {
            if (i + 1 >= n)
                break;
            const QChar e = regex[++i];
            if (e.isLetterOrNumber()) {   // \d, \s, \b, \1, \n ...: not a fixed char here
                endRun();
                continue;
            }
            if (depth == 0)
                cur += e;
            else
                endRun();
            continue;
        }
        if (c == u'[') {
            endRun();
            qsizetype j = i + 1;
            if (j < n && regex[j] == u'^') ++j;
            if (j < n && regex[j] == u']') ++j;
            for (; j < n && regex[j] != u']'; ++j)
                if (regex[j] == u'\\') ++j;
            i = j;
            continue;
        }
        if (c == u'(') {
            endRun();
            if (i + 1 < n && regex[i + 1] == u'?') {
                // Inline flags "(?i)" or "(?i:" make the text case-insensitive.
                qsizetype j = i + 2;
                while (j < n && regex[j].isLetter()) {
                    if (regex[j] == u'i')
                        return {};
                    ++j;
                }
            }
            ++depth;
            continue;
        }
        if (c == u')') { endRun(); depth = std::max(0, depth - 1); continue; }
        if (c == u'|') {
            if (depth == 0)
                return {};   // either side may match: no text is certain
            endRun();
            continue;
        }
        if (c == u'.' || c == u'^' || c == u'$') { endRun(); continue; }
        if (c == u'?' || c == u'*') { popOptional(); continue; }
        if (c == u'{') {
            popOptional();
            while (i < n && regex[i] != u'}') ++i;
            continue;
        }
        if (c == u'+') { endRun(); continue; }
        if (depth == 0)
            cur += c;
        else
            endRun();
    }
    endRun();
    return best;
}

LogMetricExtractor::LogMetricExtractor(const QList<MetricPattern> &userPatterns, bool includeBuiltins, bool rank0Only)
    : m_rank0Only(rank0Only)
{
    QList<MetricPattern> all = includeBuiltins ? builtinPatterns() : QList<MetricPattern>{};
    const qsizetype firstUser = all.size();
    all.append(userPatterns);
    QHash<QByteArray, int> groupOf;
    for (qsizetype i = 0; i < all.size(); ++i) {
        const MetricPattern &p = all[i];
        const bool user = i >= firstUser;
        const QString where = user ? QStringLiteral("patterns[%1]").arg(i - firstUser) : QStringLiteral("builtin");
        auto fail = [&](const QString &field, const QString &msg) {
            m_diagnostics.append({Severity::Error, QStringLiteral("metric-pattern-invalid"),
                                  where + u'.' + field, 0, 0, msg, {}});
        };
        if (p.name.trimmed().isEmpty()) {
            fail(QStringLiteral("name"), QStringLiteral("%1: the metric pattern has no name; give it one").arg(where));
            continue;
        }
        QRegularExpression re(p.regex);
        if (!re.isValid()) {
            fail(QStringLiteral("regex"),
                 QStringLiteral("metric '%1': the regex is invalid at offset %2: %3; fix the pattern")
                     .arg(p.name).arg(re.patternErrorOffset()).arg(re.errorString()));
            continue;
        }
        const int needed = p.valueGroup + (p.ratio ? 1 : 0);
        if (p.valueGroup < 1 || re.captureCount() < needed) {
            fail(QStringLiteral("regex"),
                 QStringLiteral("metric '%1': the regex needs %2 capture group(s) around the number, it has %3; "
                                "put ( ) around the value")
                     .arg(p.name).arg(needed).arg(re.captureCount()));
            continue;
        }
        re.optimize();
        Compiled c;
        c.pattern = p;
        c.re = re;
        c.literal = (p.literal.isEmpty() ? literalOf(p.regex) : p.literal).toUtf8();
        const QByteArray anchor = p.anchor.isEmpty() ? c.literal : p.anchor.toUtf8();
        if (!p.ratio && p.valueGroup == 1) {
            if (!user && p.regex == kTrainEpochRegex) {
                c.fast = LiteralNumberMatcher::fromRegex(QStringLiteral("\tLoss: ") + kNum);
                c.alsoRequired = "Train Epoch: ";
            } else {
                c.fast = LiteralNumberMatcher::fromRegex(p.regex);
            }
        }
        c.metric = int(m_metricNames.indexOf(p.name));
        if (c.metric < 0) {
            c.metric = int(m_metricNames.size());
            m_metricNames.append(p.name);
        }
        const int index = int(m_patterns.size());
        m_patterns.append(c);
        auto it = groupOf.find(anchor);
        if (it == groupOf.end()) {
            it = groupOf.insert(anchor, int(m_groups.size()));
            m_groups.append({anchor, {}});
        }
        m_groups[*it].patterns.append(index);
        if (user && c.literal.isEmpty())
            m_diagnostics.append({Severity::Info, QStringLiteral("metric-pattern-slow"),
                                  where + QStringLiteral(".regex"), 0, 0,
                                  QStringLiteral("metric '%1': the regex has no fixed text, so every line is "
                                                 "matched against it; a literal word in it makes ingest faster")
                                      .arg(p.name),
                                  {}});
    }
}

LogMetricResult LogMetricExtractor::extract(QByteArrayView log) const
{
    LogMetricResult result;
    result.bytes = log.size();
    const char *const begin = log.data();
    const char *const end = begin + log.size();
    QList<Accumulator> acc(m_metricNames.size());

    for (const Group &g : m_groups) {
        const char *p = begin;
        while (p < end) {
            const char *hit = g.anchor.isEmpty()
                ? p
                : static_cast<const char *>(memmem(p, size_t(end - p), g.anchor.constData(), size_t(g.anchor.size())));
            if (!hit)
                break;
            // The segment around the hit: '\r' separates progress-bar updates too.
            const char *ls = hit;
            while (ls > begin && ls[-1] != '\n' && ls[-1] != '\r')
                --ls;
            const char *le = hit;
            while (le < end && *le != '\n' && *le != '\r')
                ++le;
            p = le + 1;
            if (m_rank0Only && prefixRank(ls, le) > 0)
                continue;
            const std::string_view line(ls, size_t(le - ls));
            QString text;
            for (int pi : g.patterns) {
                const Compiled &c = m_patterns[pi];
                if (!c.literal.isEmpty()
                    && line.find(std::string_view(c.literal.constData(), size_t(c.literal.size()))) == std::string_view::npos)
                    continue;
                if (!c.alsoRequired.isEmpty()
                    && line.find(std::string_view(c.alsoRequired.constData(), size_t(c.alsoRequired.size()))) == std::string_view::npos)
                    continue;
                double values[kMaxPerLine];
                int nValues = 0;
                if (c.fast) {
                    nValues = c.fast->match(line, values, kMaxPerLine);
                } else {
                    if (text.isNull())
                        text = QString::fromUtf8(ls, le - ls);
                    QRegularExpressionMatchIterator it = c.re.globalMatch(text);
                    while (it.hasNext() && nValues < kMaxPerLine) {
                        const QRegularExpressionMatch m = it.next();
                        bool ok = false;
                        double v = m.capturedView(c.pattern.valueGroup).toDouble(&ok);
                        if (!ok)
                            continue;
                        if (c.pattern.ratio) {
                            bool ok2 = false;
                            const double d = m.capturedView(c.pattern.valueGroup + 1).toDouble(&ok2);
                            if (!ok2 || d == 0)
                                continue;
                            v /= d;
                        }
                        values[nValues++] = v;
                    }
                }
                for (int vi = 0; vi < nValues; ++vi) {
                    const double v = values[vi];
                    Accumulator &a = acc[c.metric];
                    const qint64 off = ls - begin;
                    ++a.count;
                    a.sum += v;
                    if (a.hits.size() < kMaxValues)
                        a.hits.append({off, v});
                    if (off >= a.lastOffset) {
                        a.lastOffset = off;
                        a.lastEnd = le - begin;
                    }
                    const MetricAggregation agg = c.pattern.aggregation;
                    const bool better = std::isnan(a.chosen)
                        || (agg == MetricAggregation::Max && v > a.chosen)
                        || (agg == MetricAggregation::Min && v < a.chosen)
                        || ((agg == MetricAggregation::Last || agg == MetricAggregation::Mean) && off >= a.chosenOffset);
                    if (better) {
                        a.chosen = v;
                        a.chosenOffset = off;
                        a.chosenEnd = le - begin;
                    }
                }
            }
        }
    }

    // Line numbers only for the chosen lines: one newline count up to the furthest.
    QList<qint64> offsets;
    for (const Accumulator &a : acc)
        if (a.count)
            offsets.append(a.chosenOffset);
    std::sort(offsets.begin(), offsets.end());
    QHash<qint64, qint64> lineOf;
    qint64 lineNo = 1;
    const char *q = begin;
    for (qint64 off : offsets) {
        const char *target = begin + off;
        while (q < target) {
            const void *nl = std::memchr(q, '\n', size_t(target - q));
            if (!nl)
                break;
            ++lineNo;
            q = static_cast<const char *>(nl) + 1;
        }
        q = target;
        lineOf.insert(off, lineNo);
    }

    for (qsizetype i = 0; i < m_metricNames.size(); ++i) {
        Accumulator &a = acc[i];
        if (!a.count)
            continue;
        const Compiled *first = nullptr;
        for (const Compiled &c : m_patterns)
            if (c.metric == i) { first = &c; break; }
        LogMetric m;
        m.name = m_metricNames[i];
        m.unit = first->pattern.unit;
        m.aggregation = first->pattern.aggregation;
        m.count = a.count;
        m.value = m.aggregation == MetricAggregation::Mean ? a.sum / a.count : a.chosen;
        m.line = lineOf.value(a.chosenOffset);
        m.sourceLine = QString::fromUtf8(begin + a.chosenOffset, a.chosenEnd - a.chosenOffset);
        std::stable_sort(a.hits.begin(), a.hits.end(), [](const Hit &x, const Hit &y) { return x.offset < y.offset; });
        m.values.reserve(a.hits.size());
        for (const Hit &h : a.hits)
            m.values.append(h.value);
        result.metrics.append(m);
    }
    return result;
}

LogMetricResult LogMetricExtractor::extractFile(const QString &path) const
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        LogMetricResult r;
        r.diagnostics.append({Severity::Error, QStringLiteral("log-unreadable"), {}, 0, 0,
                              QStringLiteral("%1: cannot read the job output: %2").arg(path, f.errorString()), {}});
        return r;
    }
    if (f.size() == 0)
        return extract({});
    if (uchar *p = f.map(0, f.size()))
        return extract(QByteArrayView(reinterpret_cast<const char *>(p), f.size()));
    const QByteArray bytes = f.readAll();
    return extract(bytes);
}

} // namespace scalelab
