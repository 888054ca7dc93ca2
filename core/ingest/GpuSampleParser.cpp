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
    int index = -1, timestamp = -1, util = -1, memUsed = -1, memTotal = -1, uuid = -1, temp = -1, power = -1;
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
        else if (name == "temperature.gpu")
            c.temp = i;
        else if (name == "power.draw" || name == "power.draw.average" || name == "power.draw.instant")
            c.power = c.power < 0 ? i : c.power;
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
        else if (name.starts_with("Temperature (Sensor edge)"))
            c.temp = i;
        else if (name.ends_with("Graphics Package Power (W)"))
            c.power = c.power < 0 ? i : c.power;
    }
    return c;
}

// A row of nvidia-smi dmon: whitespace-separated fields, "-" when not
// measured; as many as the header named.
bool dmonRow(std::string_view line, const gpuformat::DmonColumns &c, Fields &f)
{
    int n = 0;
    for (size_t i = 0; i < line.size() && n < kMaxFields;) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        const size_t b = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        if (i > b)
            f[n++] = line.substr(b, i - b);
    }
    return n == c.count && !std::isnan(number(f[c.gpu]));
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

}   // namespace

GpuSampleSummary GpuSampleParser::parse(QByteArrayView data, const GpuSampleParseOptions &options)
{
    GpuSampleSummary s;
    const QString file = options.fileName;
    const QString host = options.host.isEmpty() ? hostFromFileName(file) : options.host;
    const std::string_view all(data.data(), size_t(data.size()));

    enum class Mode { None, Csv, RocmConcise, Dmon };
    gpuformat::DmonColumns dmon;
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

    auto timeline = [&](int task, int gpuIndex) -> GpuTimeline & {
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
    };
    // Time of a sample without a timestamp column.
    auto untimed = [&](int task, int lineNo) {
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
    };
    auto addSample = [&](GpuTimeline &g, double t, double util, double memMiB, double temp = kNaN,
                         double power = kNaN) {
        g.seconds.append(t);
        g.utilPercent.append(util);
        g.memUsedMiB.append(memMiB);
        g.tempC.append(temp);
        g.powerW.append(power);
        ++s.rows;
    };
    auto skip = [&](std::string_view line, int lineNo) {
        ++s.skippedLines;
        if (!firstSkippedLine) {
            firstSkippedLine = lineNo;
            firstSkipped = QString::fromUtf8(line.data(), qsizetype(std::min<size_t>(line.size(), 120)));
        }
    };

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
        std::string_view line = trim(raw);
        if (line.empty())
            continue;
        const int task = gpuformat::takeTaskLabel(line);
        if (line.empty())
            continue;
        if (startsWith(line, "# time ")) {
            const std::string_view v = trim(line.substr(7));
            double t = kNaN;
            std::from_chars(v.data(), v.data() + v.size(), t);
            markTime = t;
            continue;
        }
        if (line.find("ROCm System Management Interface") != std::string_view::npos) {
            s.tool = GpuSampleSummary::Tool::RocmSmi;
            ++roundOf[task];
            continue;
        }
        if (gpuformat::dmonHeader(line, dmon)) {
            s.tool = GpuSampleSummary::Tool::NvidiaSmi;
            mode = Mode::Dmon;
            continue;
        }
        if (line.front() == '=' || line.front() == '#') {
            if (const QString tool = gpuformat::foreignTool(line); !tool.isEmpty() && foreign.isEmpty()) {
                foreign = tool;   // "# gpu pwr ..." of nvidia-smi dmon
                foreignLine = lineNo;
            }
            continue;
        }
        if (startsWith(line, "scalelab:")) {
            const std::string_view why = trim(line.substr(9));
            s.noSamplesReason = QString::fromUtf8(why.data(), qsizetype(why.size()));
            continue;
        }
        if (startsWith(line, "device,")) {
            cols = rocmColumns(f, splitFields(line, f));
            s.tool = GpuSampleSummary::Tool::RocmSmi;
            mode = Mode::Csv;
            ++roundOf[task];
            continue;
        }
        if (gpuformat::isRocmConciseHeader(line)) {
            s.tool = GpuSampleSummary::Tool::RocmSmi;
            mode = Mode::RocmConcise;
            if (!roundOf.contains(task))
                roundOf[task] = 1;
            continue;
        }
        int device = 0;
        double value = 0;
        if (const auto field = gpuformat::rocmPlainLine(line, device, value); field != gpuformat::RocmField::None) {
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
            continue;
        }
        if (gpuformat::isNvidiaHeader(line)) {
            cols = nvidiaColumns(f, splitFields(line, f));
            s.tool = GpuSampleSummary::Tool::NvidiaSmi;
            mode = Mode::Csv;
            if (cols.util < 0 && cols.memUsed < 0)
                addDiag(s, Severity::Warning, "gpu-csv-no-columns", file, lineNo,
                        QStringLiteral("the header has neither utilization.gpu nor memory.used; "
                                       "query them with nvidia-smi --query-gpu"));
            continue;
        }
        if (const QString tool = gpuformat::foreignTool(line); !tool.isEmpty()) {
            if (foreign.isEmpty()) {
                foreign = tool;
                foreignLine = lineNo;
            }
            continue;
        }
        const char c0 = line.front();
        if (mode == Mode::Dmon) {
            if (dmonRow(line, dmon, f)) {
                const int gpu = int(number(f[dmon.gpu]));
                GpuTimeline &g = timeline(task, gpu);
                if (gpu == s.gpus.front().index && &g == &s.gpus.front())
                    ++roundOf[task];   // the first GPU's row starts a new sample
                auto col = [&](int c) { return c >= 0 ? number(f[c]) : kNaN; };
                addSample(g, untimed(task, lineNo), col(dmon.sm), col(dmon.fb), col(dmon.temp), col(dmon.power));
            } else {
                skip(line, lineNo);
            }
            continue;
        }
        if (mode == Mode::RocmConcise) {
            gpuformat::RocmConcise row;
            if (gpuformat::rocmConciseRow(line, row)) {
                GpuTimeline &g = timeline(task, row.device);
                addSample(g, untimed(task, lineNo), row.utilPercent, kNaN, row.tempC, row.powerW);
                continue;
            } else if (c0 == '(') {
                continue;   // the table's second header line
            }
            skip(line, lineNo);
            continue;
        }
        // A row starts with its first value: a number, "card0" or "[N/A]" (any column may come first).
        if (!(c0 >= '0' && c0 <= '9') && !startsWith(line, "card") && !(mode == Mode::Csv && c0 == '[')) {
            skip(line, lineNo);
            continue;
        }
        if (mode != Mode::Csv) {
            // Columns are never guessed: the tools' orders differ between versions and queries.
            if (!headerless++)
                firstHeaderless = lineNo;
            continue;
        }
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
            continue;
        }

        // Which GPU.
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
                continue;
            }
        } else if (cols.uuid >= 0) {
            const QByteArray id =
                QByteArray::number(task) + '/' + QByteArray(f[cols.uuid].data(), qsizetype(f[cols.uuid].size()));
            auto it = byId.find(id);
            if (it == byId.end())
                it = byId.insert(id, int(byId.size()));
            gpuIndex = *it;
        }

        // When.
        double t = kNaN;
        if (cols.timestamp >= 0) {
            t = gpuformat::timestamp(f[cols.timestamp]);
            if (std::isnan(t)) {
                addDiag(s, Severity::Warning, "gpu-csv-bad-timestamp", file, lineNo,
                        QStringLiteral("timestamp '%1' is not YYYY/MM/DD HH:MM:SS.mmm; the row was skipped")
                            .arg(QString::fromUtf8(f[cols.timestamp].data(), qsizetype(f[cols.timestamp].size()))));
                ++s.skippedLines;
                continue;
            }
            if (std::isnan(t0) || t < t0)
                t0 = t;   // rows are in time order; min() guards a clock step back
        } else {
            t = untimed(task, lineNo);
        }
        GpuTimeline &g = timeline(task, gpuIndex);
        const double util = cols.util >= 0 ? number(f[cols.util]) : kNaN;
        double mem = cols.memUsed >= 0 ? number(f[cols.memUsed]) : kNaN;
        if (cols.memInBytes)
            mem /= kMiB;
        addSample(g, t, util, mem, cols.temp >= 0 ? number(f[cols.temp]) : kNaN,
                  cols.power >= 0 ? number(f[cols.power]) : kNaN);
        if (!g.memTotalMiB && cols.memTotal >= 0) {
            double total = number(f[cols.memTotal]);
            if (cols.memInBytes)
                total /= kMiB;
            if (!std::isnan(total))
                g.memTotalMiB = total;
        }
    }

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
    if (s.skippedLines > 0 && firstSkippedLine > 0)
        addDiag(
            s, Severity::Info, "gpu-csv-skipped-lines", file, firstSkippedLine,
            QStringLiteral("%1 line(s) were not GPU samples, the first: '%2'").arg(s.skippedLines).arg(firstSkipped));
    if (s.rows == 0 && s.noSamplesReason.isEmpty())
        s.noSamplesReason = QStringLiteral("the file has no GPU samples");
    GpuSampleParser::finalize(s);
    return s;
}

}   // namespace scalelab
