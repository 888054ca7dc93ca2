// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/TensorBoardEventReader.h"

#include "core/base/InputLimits.h"
#include "core/ingest/MetricFileCollector.h"
#include "core/ingest/TfRecordReader.h"
#include "core/model/MetricNames.h"

#include "TensorBoardEvent.pb.h"

#include <QFloat16>
#include <QHash>
#include <QtEndian>

#include <cstring>
#include <optional>

namespace scalelab {

namespace {

const QString kTensorBoardFormat = QStringLiteral("tensorboard");

// types.proto DataType values.
enum DataType { DtFloat = 1, DtDouble = 2, DtInt32 = 3, DtInt64 = 9, DtBfloat16 = 14, DtHalf = 19 };

template <typename T>
std::optional<double> fromContent(const std::string &c)
{
    if (c.size() != sizeof(T))
        return std::nullopt;
    return double(qFromLittleEndian<T>(c.data()));
}

double fromBits(quint16 bits, int dtype)
{
    if (dtype == DtBfloat16) {
        const quint32 f = quint32(bits) << 16;
        float v;
        std::memcpy(&v, &f, sizeof v);
        return v;
    }
    qfloat16 h;
    std::memcpy(static_cast<void *>(&h), &bits, sizeof h);   // qfloat16 holds exactly these bits
    return float(h);
}

std::optional<double> halfLike(const scalelab_tb::TensorProto &t)
{
    if (t.half_val_size() == 1)
        return fromBits(quint16(t.half_val(0)), t.dtype());
    if (t.tensor_content().size() == 2)
        return fromBits(qFromLittleEndian<quint16>(t.tensor_content().data()), t.dtype());
    return std::nullopt;
}

// The one number of a scalar tensor; nullopt for anything else.
std::optional<double> scalarOf(const scalelab_tb::TensorProto &t)
{
    qint64 elements = 1;
    for (const auto &d : t.tensor_shape().dim())
        elements *= d.size();
    if (elements != 1)
        return std::nullopt;
    const std::string &c = t.tensor_content();
    switch (t.dtype()) {
    case DtFloat:
        return t.float_val_size() == 1 ? std::optional<double>(t.float_val(0)) : fromContent<float>(c);
    case DtDouble:
        return t.double_val_size() == 1 ? std::optional<double>(t.double_val(0)) : fromContent<double>(c);
    case DtInt32:
        return t.int_val_size() == 1 ? std::optional<double>(t.int_val(0)) : fromContent<qint32>(c);
    case DtInt64:
        return t.int64_val_size() == 1 ? std::optional<double>(double(t.int64_val(0))) : fromContent<qint64>(c);
    case DtHalf:
    case DtBfloat16:
        return halfLike(t);
    default:
        return std::nullopt;
    }
}

struct TagState {
    QHash<QString, QString> plugin;   // tag -> plugin named by its first metadata ("" = none)
};

void readValue(const scalelab_tb::Summary::Value &v, double step, int record, const QString &prefix, TagState &tags,
               MetricFileCollector &out)
{
    const QString tag = QString::fromStdString(v.tag());
    if (tag.isEmpty())
        return;
    if (!tags.plugin.contains(tag))
        tags.plugin.insert(tag, QString::fromStdString(v.metadata().plugin_data().plugin_name()));
    const QString plugin = tags.plugin.value(tag);
    if (!plugin.isEmpty() && plugin != QLatin1String("scalars"))
        return;
    std::optional<double> value;
    if (v.value_case() == scalelab_tb::Summary::Value::kSimpleValue)
        value = v.simple_value();
    else if (v.value_case() == scalelab_tb::Summary::Value::kTensor)
        value = scalarOf(v.tensor());
    if (value)
        out.add(prefix + tag, step, *value, record);
}

}   // namespace

void TensorBoardEventReader::parseInto(const QByteArray &data, const QString &name, const QString &tagPrefix,
                                       MetricFileCollector &out)
{
    out.setFile(name);
    const TfRecordScan scan = TfRecordReader::scan(data, name);
    for (const Diagnostic &d : scan.diagnostics)
        out.note(d.severity, d.rule, d.field, d.line, d.message);
    TagState tags;
    scalelab_tb::Event event;
    for (const TfRecord &r : scan.records) {
        if (!event.ParseFromArray(r.data.data(), int(r.data.size()))) {
            out.note(
                Severity::Warning, QStringLiteral("tensorboard-event"), QString(), r.index,
                QStringLiteral("record %1 at byte %2 is not an Event protobuf; skipped").arg(r.index).arg(r.offset));
            continue;
        }
        if (!event.has_summary())
            continue;
        for (const auto &v : event.summary().value())
            readValue(v, double(event.step()), r.index, tagPrefix, tags, out);
    }
}

MetricFileResult TensorBoardEventReader::parse(const QByteArray &data, const QString &name, const QString &tagPrefix)
{
    MetricFileCollector out(kTensorBoardFormat, metric::SourceTensorBoard);
    parseInto(data, name, tagPrefix, out);
    return out.take();
}

void TensorBoardEventReader::readInto(const QString &path, const QString &tagPrefix, MetricFileCollector &out)
{
    out.setFile(path);
    const auto f = InputLimits::readFile(path, QStringLiteral("TensorBoard event file"), InputLimits::kMaxFileBytes,
                                         InputLimits::Content::Binary);
    if (!f.ok) {
        out.note(Severity::Warning, f.problem.rule, QString(), 0, f.problem.message);
        return;
    }
    parseInto(f.data, path, tagPrefix, out);
}

MetricFileResult TensorBoardEventReader::read(const QString &path, const QString &tagPrefix)
{
    MetricFileCollector out(kTensorBoardFormat, metric::SourceTensorBoard);
    readInto(path, tagPrefix, out);
    return out.take();
}

}   // namespace scalelab
