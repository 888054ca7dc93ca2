// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/StudyChartJson.h"

#include <cmath>

namespace scalelab {

namespace {

using Json = nlohmann::ordered_json;

Json jsonNumber(double v)
{
    return std::isfinite(v) ? Json(v) : Json();
}

Json optional(const std::optional<double> &v)
{
    return v ? jsonNumber(*v) : Json();
}

Json text(const QString &s)
{
    return s.isEmpty() ? Json() : Json(s.toStdString());
}

// A measured point: the median and the range of its repeats.
Json pointJson(const ChartPoint &p)
{
    Json j{{"gpus", jsonNumber(p.gpus)},
           {"value", jsonNumber(p.value)},
           {"min", jsonNumber(p.low)},
           {"max", jsonNumber(p.high)},
           {"runs", p.runs}};
    if (!p.runIds.isEmpty())
        j["run_ids"] = Json(std::vector<qint64>(p.runIds.begin(), p.runIds.end()));
    return j;
}

Json incompleteJson(const ChartPoint &p)
{
    return Json{{"gpus", jsonNumber(p.gpus)},
                {"value", jsonNumber(p.value)},
                {"run_id", p.runIds.value(0)},
                {"job_id", p.jobId.toStdString()},
                {"state", p.state.toStdString()}};
}

// A line as [[gpus, value], ...].
Json lineJson(const QList<ChartPoint> &line)
{
    Json a = Json::array();
    for (const ChartPoint &p : line)
        a.push_back(Json::array({jsonNumber(p.gpus), jsonNumber(p.value)}));
    return a;
}

Json listJson(const QList<ChartPoint> &points, Json (*one)(const ChartPoint &))
{
    Json a = Json::array();
    for (const ChartPoint &p : points)
        a.push_back(one(p));
    return a;
}

Json axisJson(const ChartAxis &a)
{
    Json j{{"min", jsonNumber(a.lower)}, {"max", jsonNumber(a.upper)}};
    if (!a.ticks.isEmpty())
        j["ticks"] = Json(std::vector<int>(a.ticks.begin(), a.ticks.end()));
    return j;
}

Json panelJson(const StudyChartPanel &p)
{
    Json j{{"id", StudyChartData::id(p.chart).toStdString()},
           {"metric", text(p.metric)},
           {"empty", p.empty},
           {"measured", listJson(p.measured, pointJson)},
           {"incomplete", listJson(p.incomplete, incompleteJson)}};
    if (p.baselineGpus > 0)
        j["baseline_gpus"] = p.baselineGpus;
    if (!p.ideal.isEmpty())
        j["ideal"] = lineJson(p.ideal);
    if (!p.amdahl.isEmpty())
        j["amdahl"] = Json{{"serial_fraction", optional(p.serialFraction)}, {"line", lineJson(p.amdahl)}};
    if (!p.predicted.isEmpty())
        j["predicted"] = lineJson(p.predicted);
    if (!p.threshold.isEmpty())
        j["threshold"] = jsonNumber(p.threshold.first().value);
    if (!p.billing.isEmpty())
        j["billing"] = listJson(p.billing, pointJson);
    j["overlap_note"] = p.overlapNote;
    j["axes"] = Json{{"x", axisJson(p.x)}, {"y", axisJson(p.y)}};
    if (p.y2)
        j["axes"]["y2"] = axisJson(*p.y2);
    return j;
}

// One row of the scaling table: a measured or predicted GPU count.
Json scalingPointJson(const ScalingPoint &p)
{
    return Json{{"gpus", p.gpus},
                {"runs", p.runs},
                {"predicted", p.predicted},
                {"runtime_s", optional(p.runtimeSeconds)},
                {"runtime_min_s", optional(p.runtimeMin)},
                {"runtime_max_s", optional(p.runtimeMax)},
                {"throughput", optional(p.throughput)},
                {"throughput_min", optional(p.throughputMin)},
                {"throughput_max", optional(p.throughputMax)},
                {"speedup", jsonNumber(p.speedup)},
                {"speedup_min", jsonNumber(p.speedupMin)},
                {"speedup_max", jsonNumber(p.speedupMax)},
                {"efficiency", jsonNumber(p.efficiency)},
                {"spread", jsonNumber(p.spread)},
                {"gpu_hours", optional(p.gpuHours)},
                {"gpu_util_pct", optional(p.meanGpuUtilPercent)},
                {"accuracy", optional(p.accuracy)}};
}

Json analysisJson(const StudyChartData &d)
{
    const ScalingAnalysis &a = d.analysis();
    Json warnings = Json::array();
    for (const QString &w : a.warnings())
        warnings.push_back(w.toStdString());
    Json points = Json::array();
    for (const ScalingPoint &p : a.points())
        points.push_back(scalingPointJson(p));
    for (const ScalingPoint &p : a.predictions())
        points.push_back(scalingPointJson(p));
    Json fit;
    if (const auto &f = a.amdahl())
        fit = Json{{"serial_fraction", jsonNumber(f->serialFraction)},
                   {"t1_s", optional(f->t1Seconds)},
                   {"r2", jsonNumber(f->r2)},
                   {"gpu_counts", f->points}};
    return Json{{"basis", a.basis() == ScalingBasis::Runtime ? "runtime" : "throughput"},
                {"baseline_gpus", a.baselineGpus()},
                {"recommended_gpus", a.recommendedGpus()},
                {"efficiency_threshold", jsonNumber(d.threshold())},
                {"runs_given", a.givenRuns()},
                {"runs_used", a.usedRuns()},
                {"summary", a.summary().toStdString()},
                {"warnings", warnings},
                {"amdahl", fit},
                {"points", points}};
}

}   // namespace

nlohmann::ordered_json studyChartJson(const StudyChartData &data)
{
    const StudyScalingInput &in = data.input();
    Json metrics{{"runtime", text(in.runtimeMetric)},
                 {"throughput", text(in.throughputMetric)},
                 {"accuracy", text(in.accuracyMetric)},
                 {"gpu_util", text(in.utilMetric)}};
    Json charts = Json::array();
    for (const StudyChartPanel &p : data.panels())
        charts.push_back(panelJson(p));
    return Json{{"metrics", metrics}, {"analysis", analysisJson(data)}, {"charts", charts}};
}

}   // namespace scalelab
