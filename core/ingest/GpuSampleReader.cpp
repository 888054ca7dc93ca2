// SPDX-License-Identifier: GPL-3.0-or-later
// GpuSampleParser's line reader: nvidia-smi CSV and dmon, rocm-smi table and CSV, one pass.
#include "core/ingest/GpuSampleReader.h"

#include "core/ingest/GpuSampleFormats.h"

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

// One parse: the state the lines share (the format read so far, the timelines,
// what was skipped), one method per kind of line.
class LineReader {
public:
    LineReader(GpuSampleSummary &s, const GpuSampleParseOptions &options)
        : m_s(s)
        , m_options(options)
        , m_file(options.fileName)
        , m_host(options.host.isEmpty() ? GpuSampleParser::hostFromFileName(options.fileName) : options.host)
    {}

    void readAll(std::string_view all)
    {
        size_t pos = 0;
        while (pos < all.size()) {
            size_t end = all.find('\n', pos);
            if (end == std::string_view::npos)
                end = all.size();
            const std::string_view raw = all.substr(pos, end - pos);
            pos = end + 1;
            ++m_lineNo;
            readLine(trim(raw), end == all.size());
        }
    }

    // Times relative to the first sample, then what the whole file tells.
    void finish()
    {
        if (!std::isnan(m_t0)) {
            m_s.originEpochSeconds = m_t0;
            for (GpuTimeline &g : m_s.gpus)
                for (double &t : g.seconds)
                    t -= m_t0;
        }
        reportUnread();
        if (m_s.rows == 0 && m_s.noSamplesReason.isEmpty())
            m_s.noSamplesReason = QStringLiteral("the file has no GPU samples");
    }

private:
    enum class Mode { None, Csv, RocmConcise, Dmon };

    void readLine(std::string_view line, bool lastLineUnterminated)
    {
        if (line.empty())
            return;
        const int task = gpuformat::takeTaskLabel(line);
        if (line.empty() || readMarker(line, task) || readRocmHeader(line, task) || readRocmPlain(line, task)
            || readNvidiaHeader(line))
            return;
        if (const QString tool = gpuformat::foreignTool(line); !tool.isEmpty()) {
            noteForeign(tool);
            return;
        }
        if (m_mode == Mode::Dmon)
            readDmonRow(line, task);
        else if (m_mode == Mode::RocmConcise)
            readConciseRow(line, task);
        else
            readCsvRow(line, task, lastLineUnterminated);
    }

    // The sampler's own lines, rocm-smi's banner, dmon's header and comments.
    bool readMarker(std::string_view line, int task)
    {
        if (startsWith(line, "# time ")) {
            const std::string_view v = trim(line.substr(7));
            double t = kNaN;
            std::from_chars(v.data(), v.data() + v.size(), t);
            m_markTime = t;
            return true;
        }
        if (line.find("ROCm System Management Interface") != std::string_view::npos) {
            m_s.tool = GpuSampleSummary::Tool::RocmSmi;
            ++m_roundOf[task];
            return true;
        }
        if (gpuformat::dmonHeader(line, m_dmon)) {
            m_s.tool = GpuSampleSummary::Tool::NvidiaSmi;
            m_mode = Mode::Dmon;
            return true;
        }
        if (line.front() == '=' || line.front() == '#') {
            if (const QString tool = gpuformat::foreignTool(line); !tool.isEmpty())
                noteForeign(tool);   // "# gpu pwr ..." of nvidia-smi dmon
            return true;
        }
        if (startsWith(line, "scalelab:")) {
            const std::string_view why = trim(line.substr(9));
            m_s.noSamplesReason = QString::fromUtf8(why.data(), qsizetype(why.size()));
            return true;
        }
        return false;
    }

    // rocm-smi's CSV header or its concise table's header.
    bool readRocmHeader(std::string_view line, int task)
    {
        if (startsWith(line, "device,")) {
            m_cols = rocmColumns(m_f, splitFields(line, m_f));
            m_s.tool = GpuSampleSummary::Tool::RocmSmi;
            m_mode = Mode::Csv;
            ++m_roundOf[task];
            return true;
        }
        if (gpuformat::isRocmConciseHeader(line)) {
            m_s.tool = GpuSampleSummary::Tool::RocmSmi;
            m_mode = Mode::RocmConcise;
            if (!m_roundOf.contains(task))
                m_roundOf[task] = 1;
            return true;
        }
        return false;
    }

    bool readNvidiaHeader(std::string_view line)
    {
        if (!gpuformat::isNvidiaHeader(line))
            return false;
        m_cols = nvidiaColumns(m_f, splitFields(line, m_f));
        m_s.tool = GpuSampleSummary::Tool::NvidiaSmi;
        m_mode = Mode::Csv;
        if (m_cols.util < 0 && m_cols.memUsed < 0)
            addDiag(m_s, Severity::Warning, "gpu-csv-no-columns", m_file, m_lineNo,
                    QStringLiteral("the header has neither utilization.gpu nor memory.used; "
                                   "query them with nvidia-smi --query-gpu"));
        return true;
    }

    // rocm-smi's plain "GPU[3] : GPU use (%): 93" lines.
    bool readRocmPlain(std::string_view line, int task)
    {
        int device = 0;
        double value = 0;
        const auto kind = gpuformat::rocmPlainLine(line, device, value);
        if (kind == gpuformat::RocmField::None)
            return false;
        m_s.tool = GpuSampleSummary::Tool::RocmSmi;
        if (!m_roundOf.contains(task))
            m_roundOf[task] = 1;
        GpuTimeline &g = timeline(task, device);
        if (kind == gpuformat::RocmField::Util)
            addSample(g, untimed(task), value, kNaN);
        else if (kind == gpuformat::RocmField::VramUsedBytes && !g.memUsedMiB.isEmpty())
            g.memUsedMiB.back() = value / kMiB;
        else if (kind == gpuformat::RocmField::VramTotalBytes && !g.memTotalMiB)
            g.memTotalMiB = value / kMiB;
        return true;
    }

    void readDmonRow(std::string_view line, int task)
    {
        if (!dmonRow(line, m_dmon, m_f)) {
            skip(line);
            return;
        }
        const int gpu = int(number(m_f[m_dmon.gpu]));
        GpuTimeline &g = timeline(task, gpu);
        if (gpu == m_s.gpus.front().index && &g == &m_s.gpus.front())
            ++m_roundOf[task];   // the first GPU's row starts a new sample
        addSample(g, untimed(task), field(m_dmon.sm), field(m_dmon.fb), field(m_dmon.temp), field(m_dmon.power));
    }

    void readConciseRow(std::string_view line, int task)
    {
        gpuformat::RocmConcise row;
        if (gpuformat::rocmConciseRow(line, row))
            addSample(timeline(task, row.device), untimed(task), row.utilPercent, kNaN, row.tempC, row.powerW);
        else if (line.front() != '(')   // '(': the table's second header line
            skip(line);
    }

    void readCsvRow(std::string_view line, int task, bool lastLineUnterminated)
    {
        // A row starts with its first value: a number, "card0" or "[N/A]" (any column may come first).
        const char c0 = line.front();
        if (!(c0 >= '0' && c0 <= '9') && !startsWith(line, "card") && !(m_mode == Mode::Csv && c0 == '[')) {
            skip(line);
            return;
        }
        if (m_mode != Mode::Csv) {
            // Columns are never guessed: the tools' orders differ between versions and queries.
            if (!m_headerless++)
                m_firstHeaderless = m_lineNo;
            return;
        }
        const int n = splitFields(line, m_f);
        if (n != m_cols.count) {
            if (n < m_cols.count && lastLineUnterminated)
                addDiag(m_s, Severity::Info, "gpu-csv-truncated", m_file, m_lineNo,
                        QStringLiteral("the last line is incomplete (the sampler was stopped while writing); "
                                       "it was skipped"));
            else
                addDiag(m_s, Severity::Warning, "gpu-csv-short-row", m_file, m_lineNo,
                        QStringLiteral("row has %1 fields, the header %2; it was skipped").arg(n).arg(m_cols.count));
            ++m_s.skippedLines;
            return;
        }
        int gpuIndex = 0;
        double t = kNaN;
        if (!csvGpuIndex(task, gpuIndex) || !csvTime(task, t))
            return;
        GpuTimeline &g = timeline(task, gpuIndex);
        double mem = field(m_cols.memUsed);
        if (m_cols.memInBytes)
            mem /= kMiB;
        addSample(g, t, field(m_cols.util), mem, field(m_cols.temp), field(m_cols.power));
        if (!g.memTotalMiB && m_cols.memTotal >= 0) {
            double total = number(m_f[m_cols.memTotal]);
            if (m_cols.memInBytes)
                total /= kMiB;
            if (!std::isnan(total))
                g.memTotalMiB = total;
        }
    }

    // Which GPU a CSV row is about; false (noted) when its index is no number.
    bool csvGpuIndex(int task, int &gpuIndex)
    {
        if (m_cols.index >= 0) {
            std::string_view idx = m_f[m_cols.index];
            if (startsWith(idx, "card"))
                idx.remove_prefix(4);
            const auto r = std::from_chars(idx.data(), idx.data() + idx.size(), gpuIndex);
            if (r.ec != std::errc() || gpuIndex < 0 || gpuIndex > 4096) {
                addDiag(m_s, Severity::Warning, "gpu-csv-bad-index", m_file, m_lineNo,
                        QStringLiteral("GPU index '%1' is not a number; the row was skipped").arg(text(m_cols.index)));
                ++m_s.skippedLines;
                return false;
            }
        } else if (m_cols.uuid >= 0) {
            const QByteArray id = QByteArray::number(task) + '/'
                                  + QByteArray(m_f[m_cols.uuid].data(), qsizetype(m_f[m_cols.uuid].size()));
            auto it = m_byId.find(id);
            if (it == m_byId.end())
                it = m_byId.insert(id, int(m_byId.size()));
            gpuIndex = *it;
        }
        return true;
    }

    // When a CSV row was sampled; false (noted) when its timestamp is no time.
    bool csvTime(int task, double &t)
    {
        if (m_cols.timestamp < 0) {
            t = untimed(task);
            return true;
        }
        t = gpuformat::timestamp(m_f[m_cols.timestamp]);
        if (std::isnan(t)) {
            addDiag(m_s, Severity::Warning, "gpu-csv-bad-timestamp", m_file, m_lineNo,
                    QStringLiteral("timestamp '%1' is not YYYY/MM/DD HH:MM:SS.mmm; the row was skipped")
                        .arg(text(m_cols.timestamp)));
            ++m_s.skippedLines;
            return false;
        }
        if (std::isnan(m_t0) || t < m_t0)
            m_t0 = t;   // rows are in time order; min() guards a clock step back
        return true;
    }

    double field(int column) const { return column >= 0 ? number(m_f[column]) : kNaN; }
    QString text(int column) const { return QString::fromUtf8(m_f[column].data(), qsizetype(m_f[column].size())); }

    GpuTimeline &timeline(int task, int gpuIndex)
    {
        const qint64 key = (qint64(task + 1) << 20) | qint64(gpuIndex);
        auto it = m_slotOf.find(key);
        if (it == m_slotOf.end()) {
            GpuTimeline g;
            g.host = m_host;
            g.index = gpuIndex;
            g.task = task;
            QString k = QString::number(gpuIndex);
            if (task >= 0)
                k = QStringLiteral("task%1:").arg(task) + k;
            g.key = m_host.isEmpty() ? k : m_host + u':' + k;
            m_s.gpus.append(g);
            it = m_slotOf.insert(key, int(m_s.gpus.size() - 1));
        }
        return m_s.gpus[*it];
    }

    // Time of a sample without a timestamp column.
    double untimed(int task)
    {
        if (!std::isnan(m_markTime)) {
            if (std::isnan(m_t0) || m_markTime < m_t0)
                m_t0 = m_markTime;
            return m_markTime;
        }
        const double step = m_options.sampleSeconds > 0 ? m_options.sampleSeconds : 1.0;
        if (m_options.sampleSeconds <= 0 && !m_warnedNoTime) {
            m_warnedNoTime = true;
            addDiag(m_s, Severity::Info, "gpu-csv-no-timestamps", m_file, m_lineNo,
                    QStringLiteral("the samples carry no timestamps and the sampling interval is unknown; "
                                   "times are sample numbers"));
        }
        return double(std::max(m_roundOf.value(task, 0) - 1, 0)) * step;
    }

    void addSample(GpuTimeline &g, double t, double util, double memMiB, double temp = kNaN, double power = kNaN)
    {
        g.seconds.append(t);
        g.utilPercent.append(util);
        g.memUsedMiB.append(memMiB);
        g.tempC.append(temp);
        g.powerW.append(power);
        ++m_s.rows;
    }

    void skip(std::string_view line)
    {
        ++m_s.skippedLines;
        if (!m_firstSkippedLine) {
            m_firstSkippedLine = m_lineNo;
            m_firstSkipped = QString::fromUtf8(line.data(), qsizetype(std::min<size_t>(line.size(), 120)));
        }
    }

    void noteForeign(const QString &tool)
    {
        if (m_foreign.isEmpty()) {
            m_foreign = tool;
            m_foreignLine = m_lineNo;
        }
    }

    // Rows before any header, another tool's output, an unknown format, skipped lines.
    void reportUnread()
    {
        if (m_headerless > 0)
            addDiag(m_s, Severity::Error, "gpu-csv-no-header", m_file, m_firstHeaderless,
                    QStringLiteral("%1 data row(s) before any header line were not read: columns are never guessed; "
                                   "keep nvidia-smi's header (no `noheader` in --format)")
                        .arg(m_headerless));
        if (m_s.rows == 0 && !m_foreign.isEmpty()) {
            addDiag(m_s, Severity::Error, "gpu-samples-foreign-tool", m_file, m_foreignLine,
                    QStringLiteral("this is %1 output, which ScaleLab does not read as GPU samples; sample with "
                                   "nvidia-smi --query-gpu=index,timestamp,utilization.gpu,memory.used --format=csv "
                                   "-l N or rocm-smi --showuse --showmemuse --showmeminfo vram --csv")
                        .arg(m_foreign));
            m_s.noSamplesReason = QStringLiteral("the GPU sample file is %1 output, which is not read").arg(m_foreign);
        } else if (m_s.rows == 0 && m_headerless == 0 && m_s.noSamplesReason.isEmpty() && m_s.skippedLines > 0
                   && m_s.tool == GpuSampleSummary::Tool::Unknown) {
            addDiag(m_s, Severity::Error, "gpu-samples-unknown-format", m_file, m_firstSkippedLine,
                    QStringLiteral("neither an nvidia-smi --query-gpu CSV header nor rocm-smi output was found; "
                                   "the first line is '%1'")
                        .arg(m_firstSkipped));
        }
        if (m_s.skippedLines > 0 && m_firstSkippedLine > 0)
            addDiag(m_s, Severity::Info, "gpu-csv-skipped-lines", m_file, m_firstSkippedLine,
                    QStringLiteral("%1 line(s) were not GPU samples, the first: '%2'")
                        .arg(m_s.skippedLines)
                        .arg(m_firstSkipped));
    }

    GpuSampleSummary &m_s;
    const GpuSampleParseOptions &m_options;
    const QString m_file;
    const QString m_host;
    Mode m_mode = Mode::None;
    gpuformat::DmonColumns m_dmon;
    Columns m_cols;
    Fields m_f;
    int m_lineNo = 0;
    QHash<int, int> m_roundOf;   // task -> sample number (rocm-smi prints no time)
    double m_markTime = kNaN;   // the sampler's "# time <epoch seconds>" line
    bool m_warnedNoTime = false;
    double m_t0 = kNaN;   // absolute time of the first sample
    QHash<qint64, int> m_slotOf;   // (task, GPU index) -> position in s.gpus
    QHash<QByteArray, int> m_byId;   // (task, uuid/bus id) -> position (no index column)
    int m_firstSkippedLine = 0, m_headerless = 0, m_firstHeaderless = 0, m_foreignLine = 0;
    QString m_firstSkipped, m_foreign;
};

}   // namespace

GpuSampleSummary GpuSampleReader::read(QByteArrayView data, const GpuSampleParseOptions &options)
{
    GpuSampleSummary s;
    LineReader reader(s, options);
    reader.readAll(std::string_view(data.data(), size_t(data.size())));
    reader.finish();
    s.summarise();
    return s;
}

}   // namespace scalelab
