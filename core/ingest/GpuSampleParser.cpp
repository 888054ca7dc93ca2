// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/GpuSampleParser.h"

#include "core/ingest/GpuSampleFormats.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>

namespace scalelab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kMiB = 1024.0 * 1024.0;
constexpr int kMaxFields = 48;

using Fields = std::array<std::string_view, kMaxFields>;

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '"'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '"'))
        s.remove_suffix(1);
    return s;
}

int splitFields(std::string_view line, Fields &out)
{
    int n = 0;
    size_t start = 0;
    while (n < kMaxFields) {
        const size_t comma = line.find(',', start);
        if (comma == std::string_view::npos) {
            out[n++] = trim(line.substr(start));
            break;
        }
        out[n++] = trim(line.substr(start, comma - start));
        start = comma + 1;
    }
    return n;
}

// A number at the start of the field, any unit after it ignored ("87 %",
// "12000 MiB"). "[N/A]", "N/A", "[Not Supported]" and empty are missing.
double number(std::string_view s)
{
    if (s.empty() || s.front() == '[' || s.front() == 'N')
        return kNaN;
    double v = kNaN;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() ? v : kNaN;
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

bool containsNoCase(std::string_view hay, std::string_view needle)
{
    if (needle.size() > hay.size())
        return false;
    for (size_t i = 0; i + needle.size() <= hay.size(); ++i) {
        size_t j = 0;
        while (j < needle.size() && std::tolower((unsigned char)hay[i + j]) == needle[j])
            ++j;
        if (j == needle.size())
            return true;
    }
    return false;
}

struct Columns {
    int index = -1, timestamp = -1, util = -1, memUsed = -1, memTotal = -1, uuid = -1;
    bool memInBytes = false;   // rocm-smi prints bytes
    int count = 0;
};

// Column name without the unit in brackets: "memory.used [MiB]" -> "memory.used".
std::string_view headerName(std::string_view f)
{
    const size_t b = f.find(" [");
    return trim(b == std::string_view::npos ? f : f.substr(0, b));
}

Columns nvidiaColumns(const Fields &f, int n)
{
    Columns c;
    c.count = n;
    for (int i = 0; i < n; ++i) {
        const std::string_view name = headerName(f[i]);
        if (name == "index")
            c.index = i;
        else if (name == "timestamp")
            c.timestamp = i;
        else if (name == "utilization.gpu")
            c.util = i;
        else if (name == "memory.used")
            c.memUsed = i;
        else if (name == "memory.total")
            c.memTotal = i;
        else if (name == "uuid" || name == "gpu_uuid" || name == "pci.bus_id")
            c.uuid = c.uuid < 0 ? i : c.uuid;
    }
    return c;
}

Columns rocmColumns(const Fields &f, int n)
{
    Columns c;
    c.count = n;
    c.memInBytes = true;
    for (int i = 0; i < n; ++i) {
        const std::string_view name = f[i];
        if (name == "device")
            c.index = i;
        else if (containsNoCase(name, "timestamp"))
            c.timestamp = i;
        else if (name == "GPU use (%)")
            c.util = i;
        else if (name == "VRAM Total Used Memory (B)")
            c.memUsed = i;
        else if (name == "VRAM Total Memory (B)")
            c.memTotal = i;
    }
    return c;
}

void addDiag(GpuSampleSummary &s, Severity sev, const char *rule, const QString &file, int line, const QString &msg)
{
    s.diagnostics.append({sev,
                          QString::fromLatin1(rule),
                          {},
                          line,
                          0,
                          (file.isEmpty() ? QString() : file + QStringLiteral(": ")) + msg,
                          {}});
}

// One reading of a sample file: the state that the lines share, and one step per kind of line.
class GpuSampleReader {
public:
    GpuSampleReader(GpuSampleSummary &summary, const GpuSampleParseOptions &options)
        : s(summary)
        , options(options)
        , file(options.fileName)
        , host(options.host.isEmpty() ? GpuSampleParser::hostFromFileName(file) : options.host)
    {}

    void readAll(std::string_view all)
    {
        size_t pos = 0;
        int lineNo = 0;
        while (pos < all.size()) {
            size_t end = all.find('\n', pos);
            if (end == std::string_view::npos)
                end = all.size();
            const std::string_view raw = all.substr(pos, end - pos);
            const bool lastLineUnterminated = end == all.size();
            pos = end + 1;
            ++lineNo;
            readLine(trim(raw), lineNo, lastLineUnterminated);
        }
    }

    void finish();

private:
    enum class Mode { None, Csv, RocmConcise };

    GpuTimeline &timeline(int task, int gpuIndex);
    double untimed(int task, int lineNo);
    void addSample(GpuTimeline &g, double t, double util, double memMiB)
    {
        g.seconds.append(t);
        g.utilPercent.append(util);
        g.memUsedMiB.append(memMiB);
        ++s.rows;
    }
    void skip(std::string_view line, int lineNo)
    {
        ++s.skippedLines;
        if (!firstSkippedLine) {
            firstSkippedLine = lineNo;
            firstSkipped = QString::fromUtf8(line.data(), qsizetype(std::min<size_t>(line.size(), 120)));
        }
    }
    void noteForeign(const QString &tool, int lineNo)
    {
        if (!tool.isEmpty() && foreign.isEmpty()) {
            foreign = tool;   // "# gpu pwr ..." of nvidia-smi dmon
            foreignLine = lineNo;
        }
    }
    void readLine(std::string_view line, int lineNo, bool lastLineUnterminated);
    bool readMarkerLine(std::string_view line, int task, int lineNo);
    bool readRocmHeaderLine(std::string_view line, int task);
    bool readNvidiaHeaderLine(std::string_view line, int lineNo);
    bool readRocmPlainLine(std::string_view line, int task, int lineNo);
    void readCsvRow(std::string_view line, int task, int lineNo, bool lastLineUnterminated);
    std::optional<int> gpuIndexOf(int task, int lineNo);
    std::optional<double> timeOf(int task, int lineNo);
    void reportNoSamples();

    GpuSampleSummary &s;
    const GpuSampleParseOptions &options;
    const QString file;
    const QString host;
    Mode mode = Mode::None;
    Columns cols;
    QHash<int, int> roundOf;   // task -> sample number (rocm-smi prints no time)
    double markTime = kNaN;   // the sampler's "# time <epoch seconds>" line
    bool warnedNoTime = false;
    double t0 = kNaN;   // absolute time of the first sample
    QHash<qint64, int> slotOf;   // (task, GPU index) -> position in s.gpus
    QHash<QByteArray, int> byId;   // (task, uuid/bus id) -> position (no index column)
    Fields f;
    int firstSkippedLine = 0, headerless = 0, firstHeaderless = 0, foreignLine = 0;
    QString firstSkipped, foreign;
};

GpuTimeline &GpuSampleReader::timeline(int task, int gpuIndex)
{
    const qint64 key = (qint64(task + 1) << 20) | qint64(gpuIndex);
    auto it = slotOf.find(key);
    if (it == slotOf.end()) {
        GpuTimeline g;
        g.host = host;
        g.index = gpuIndex;
        g.task = task;
        QString k = QString::number(gpuIndex);
        if (task >= 0)
            k = QStringLiteral("task%1:").arg(task) + k;
        g.key = host.isEmpty() ? k : host + u':' + k;
        s.gpus.append(g);
        it = slotOf.insert(key, int(s.gpus.size() - 1));
    }
    return s.gpus[*it];
}

// Time of a sample without a timestamp column.
double GpuSampleReader::untimed(int task, int lineNo)
{
    if (!std::isnan(markTime)) {
        if (std::isnan(t0) || markTime < t0)
            t0 = markTime;
        return markTime;
    }
    const double step = options.sampleSeconds > 0 ? options.sampleSeconds : 1.0;
    if (options.sampleSeconds <= 0 && !warnedNoTime) {
        warnedNoTime = true;
        addDiag(s, Severity::Info, "gpu-csv-no-timestamps", file, lineNo,
                QStringLiteral("the samples carry no timestamps and the sampling interval is unknown; "
                               "times are sample numbers"));
    }
    return double(std::max(roundOf.value(task, 0) - 1, 0)) * step;
}

void GpuSampleReader::readLine(std::string_view line, int lineNo, bool lastLineUnterminated)
{
    if (line.empty())
        return;
    const int task = gpuformat::takeTaskLabel(line);
    if (line.empty())
        return;
    if (readMarkerLine(line, task, lineNo) || readRocmHeaderLine(line, task) || readRocmPlainLine(line, task, lineNo)
        || readNvidiaHeaderLine(line, lineNo))
        return;
    if (const QString tool = gpuformat::foreignTool(line); !tool.isEmpty()) {
        noteForeign(tool, lineNo);
        return;
    }
    const char c0 = line.front();
    if (mode == Mode::RocmConcise) {
        double util = kNaN;
        int device = 0;
        if (gpuformat::rocmConciseRow(line, device, util))
            addSample(timeline(task, device), untimed(task, lineNo), util, kNaN);
        else if (c0 != '(')   // '(' starts the table's second header line
            skip(line, lineNo);
        return;
    }
    if (!(c0 >= '0' && c0 <= '9') && !startsWith(line, "card")) {
        skip(line, lineNo);
        return;
    }
    if (mode != Mode::Csv) {
        // Columns are never guessed: the tools' orders differ between versions and queries.
        if (!headerless++)
            firstHeaderless = lineNo;
        return;
    }
    readCsvRow(line, task, lineNo, lastLineUnterminated);
}

// The sampler's own lines: "# time", the rocm-smi banner, comments, "scalelab: why no samples".
bool GpuSampleReader::readMarkerLine(std::string_view line, int task, int lineNo)
{
    if (startsWith(line, "# time ")) {
        const std::string_view v = trim(line.substr(7));
        double t = kNaN;
        std::from_chars(v.data(), v.data() + v.size(), t);
        markTime = t;
        return true;
    }
    if (line.find("ROCm System Management Interface") != std::string_view::npos) {
        s.tool = GpuSampleSummary::Tool::RocmSmi;
        ++roundOf[task];
        return true;
    }
    if (line.front() == '=' || line.front() == '#') {
        noteForeign(gpuformat::foreignTool(line), lineNo);
        return true;
    }
    if (startsWith(line, "scalelab:")) {
        const std::string_view why = trim(line.substr(9));
        s.noSamplesReason = QString::fromUtf8(why.data(), qsizetype(why.size()));
        return true;
    }
    return false;
}

// A header of rocm-smi: its CSV or its concise table.
bool GpuSampleReader::readRocmHeaderLine(std::string_view line, int task)
{
    if (startsWith(line, "device,")) {
        cols = rocmColumns(f, splitFields(line, f));
        s.tool = GpuSampleSummary::Tool::RocmSmi;
        mode = Mode::Csv;
        ++roundOf[task];
        return true;
    }
    if (gpuformat::isRocmConciseHeader(line)) {
        s.tool = GpuSampleSummary::Tool::RocmSmi;
        mode = Mode::RocmConcise;
        if (!roundOf.contains(task))
            roundOf[task] = 1;
        return true;
    }
    return false;
}

// nvidia-smi's CSV header.
bool GpuSampleReader::readNvidiaHeaderLine(std::string_view line, int lineNo)
{
    if (gpuformat::isNvidiaHeader(line)) {
        cols = nvidiaColumns(f, splitFields(line, f));
        s.tool = GpuSampleSummary::Tool::NvidiaSmi;
        mode = Mode::Csv;
        if (cols.util < 0 && cols.memUsed < 0)
            addDiag(s, Severity::Warning, "gpu-csv-no-columns", file, lineNo,
                    QStringLiteral("the header has neither utilization.gpu nor memory.used; "
                                   "query them with nvidia-smi --query-gpu"));
        return true;
    }
    return false;
}

// rocm-smi's plain output: one value per line ("GPU[0] : GPU use (%): 87").
bool GpuSampleReader::readRocmPlainLine(std::string_view line, int task, int lineNo)
{
    int device = 0;
    double value = 0;
    const auto field = gpuformat::rocmPlainLine(line, device, value);
    if (field == gpuformat::RocmField::None)
        return false;
    s.tool = GpuSampleSummary::Tool::RocmSmi;
    if (!roundOf.contains(task))
        roundOf[task] = 1;
    GpuTimeline &g = timeline(task, device);
    if (field == gpuformat::RocmField::Util)
        addSample(g, untimed(task, lineNo), value, kNaN);
    else if (field == gpuformat::RocmField::VramUsedBytes && !g.memUsedMiB.isEmpty())
        g.memUsedMiB.back() = value / kMiB;
    else if (field == gpuformat::RocmField::VramTotalBytes && !g.memTotalMiB)
        g.memTotalMiB = value / kMiB;
    return true;
}

void GpuSampleReader::readCsvRow(std::string_view line, int task, int lineNo, bool lastLineUnterminated)
{
    const int n = splitFields(line, f);
    if (n != cols.count) {
        if (n < cols.count && lastLineUnterminated)
            addDiag(s, Severity::Info, "gpu-csv-truncated", file, lineNo,
                    QStringLiteral("the last line is incomplete (the sampler was stopped while writing); "
                                   "it was skipped"));
        else
            addDiag(s, Severity::Warning, "gpu-csv-short-row", file, lineNo,
                    QStringLiteral("row has %1 fields, the header %2; it was skipped").arg(n).arg(cols.count));
        ++s.skippedLines;
        return;
    }
    const std::optional<int> gpuIndex = gpuIndexOf(task, lineNo);
    if (!gpuIndex)
        return;
    const std::optional<double> t = timeOf(task, lineNo);
    if (!t)
        return;
    GpuTimeline &g = timeline(task, *gpuIndex);
    const double util = cols.util >= 0 ? number(f[cols.util]) : kNaN;
    double mem = cols.memUsed >= 0 ? number(f[cols.memUsed]) : kNaN;
    if (cols.memInBytes)
        mem /= kMiB;
    addSample(g, *t, util, mem);
    if (!g.memTotalMiB && cols.memTotal >= 0) {
        double total = number(f[cols.memTotal]);
        if (cols.memInBytes)
            total /= kMiB;
        if (!std::isnan(total))
            g.memTotalMiB = total;
    }
}

// Which GPU a row is about; nothing (the row skipped) when its index is unreadable.
std::optional<int> GpuSampleReader::gpuIndexOf(int task, int lineNo)
{
    int gpuIndex = 0;
    if (cols.index >= 0) {
        std::string_view idx = f[cols.index];
        if (startsWith(idx, "card"))
            idx.remove_prefix(4);
        const auto r = std::from_chars(idx.data(), idx.data() + idx.size(), gpuIndex);
        if (r.ec != std::errc() || gpuIndex < 0 || gpuIndex > 4096) {
            addDiag(s, Severity::Warning, "gpu-csv-bad-index", file, lineNo,
                    QStringLiteral("GPU index '%1' is not a number; the row was skipped")
                        .arg(QString::fromUtf8(f[cols.index].data(), qsizetype(f[cols.index].size()))));
            ++s.skippedLines;
            return std::nullopt;
        }
    } else if (cols.uuid >= 0) {
        const QByteArray id =
            QByteArray::number(task) + '/' + QByteArray(f[cols.uuid].data(), qsizetype(f[cols.uuid].size()));
        auto it = byId.find(id);
        if (it == byId.end())
            it = byId.insert(id, int(byId.size()));
        gpuIndex = *it;
    }
    return gpuIndex;
}

// When a row was sampled; nothing (the row skipped) when its timestamp is unreadable.
std::optional<double> GpuSampleReader::timeOf(int task, int lineNo)
{
    if (cols.timestamp < 0)
        return untimed(task, lineNo);
    const double t = gpuformat::timestamp(f[cols.timestamp]);
    if (std::isnan(t)) {
        addDiag(s, Severity::Warning, "gpu-csv-bad-timestamp", file, lineNo,
                QStringLiteral("timestamp '%1' is not YYYY/MM/DD HH:MM:SS.mmm; the row was skipped")
                    .arg(QString::fromUtf8(f[cols.timestamp].data(), qsizetype(f[cols.timestamp].size()))));
        ++s.skippedLines;
        return std::nullopt;
    }
    if (std::isnan(t0) || t < t0)
        t0 = t;   // rows are in time order; min() guards a clock step back
    return t;
}

void GpuSampleReader::finish()
{
    if (!std::isnan(t0)) {
        s.originEpochSeconds = t0;
        for (GpuTimeline &g : s.gpus)
            for (double &t : g.seconds)
                t -= t0;
    }
    if (headerless > 0)
        addDiag(s, Severity::Error, "gpu-csv-no-header", file, firstHeaderless,
                QStringLiteral("%1 data row(s) before any header line were not read: columns are never guessed; "
                               "keep nvidia-smi's header (no `noheader` in --format)")
                    .arg(headerless));
    reportNoSamples();
    if (s.skippedLines > 0 && firstSkippedLine > 0)
        addDiag(
            s, Severity::Info, "gpu-csv-skipped-lines", file, firstSkippedLine,
            QStringLiteral("%1 line(s) were not GPU samples, the first: '%2'").arg(s.skippedLines).arg(firstSkipped));
    if (s.rows == 0 && s.noSamplesReason.isEmpty())
        s.noSamplesReason = QStringLiteral("the file has no GPU samples");
}

// No rows: say whether the file was another tool's output or of no known format.
void GpuSampleReader::reportNoSamples()
{
    if (s.rows == 0 && !foreign.isEmpty()) {
        addDiag(s, Severity::Error, "gpu-samples-foreign-tool", file, foreignLine,
                QStringLiteral("this is %1 output, which ScaleLab does not read as GPU samples; sample with "
                               "nvidia-smi --query-gpu=index,timestamp,utilization.gpu,memory.used --format=csv -l N "
                               "or rocm-smi --showuse --showmemuse --showmeminfo vram --csv")
                    .arg(foreign));
        s.noSamplesReason = QStringLiteral("the GPU sample file is %1 output, which is not read").arg(foreign);
    } else if (s.rows == 0 && headerless == 0 && s.noSamplesReason.isEmpty() && s.skippedLines > 0
               && s.tool == GpuSampleSummary::Tool::Unknown) {
        addDiag(s, Severity::Error, "gpu-samples-unknown-format", file, firstSkippedLine,
                QStringLiteral("neither an nvidia-smi --query-gpu CSV header nor rocm-smi output was found; "
                               "the first line is '%1'")
                    .arg(firstSkipped));
    }
}

}   // namespace

GpuSampleSummary GpuSampleParser::parse(QByteArrayView data, const GpuSampleParseOptions &options)
{
    GpuSampleSummary s;
    GpuSampleReader reader(s, options);
    reader.readAll(std::string_view(data.data(), size_t(data.size())));
    reader.finish();
    GpuSampleParser::finalize(s);
    return s;
}

}   // namespace scalelab
