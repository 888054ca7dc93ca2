// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/JobSpecJson.h"
#include "core/model/SpecFields.h"

#include "core/base/InputLimits.h"
#include "core/base/JsonSupport.h"

namespace scalelab {

namespace {

using Json = JsonSupport::Json;

class SpecReader {
public:
    SpecReader(const QByteArray &raw, const QString &file)
        : m_positions(raw)
        , m_file(file.isEmpty() ? QStringLiteral("<spec>") : file)
    {}

    Diagnostics errors;

    // nlohmann does not keep positions, so find where a key is written to
    // give the researcher a line to look at (one indexing pass for all keys).
    void lineOfKey(const QString &key, int *line, int *column) const
    {
        const QByteArray name = key.section(QLatin1Char('.'), -1).section(QLatin1Char('['), 0, 0).toUtf8();
        m_positions.keyPosition(name, line, column);
    }

    void error(const QString &key, const QString &msg, const QString &rule = QStringLiteral("spec-invalid"))
    {
        // Past the cap only counted: a spec of a million unknown keys would
        // otherwise build a million messages to keep the first few.
        if (errors.size() >= InputLimits::kMaxDiagnosticsPerFile) {
            ++m_dropped;
            return;
        }
        int line = 0, column = 0;
        lineOfKey(key, &line, &column);
        const QString where = line > 0 ? QStringLiteral("%1:%2:%3").arg(m_file).arg(line).arg(column) : m_file;
        errors << Diagnostic{Severity::Error,
                             rule,
                             key,
                             line,
                             column,
                             QStringLiteral("%1: \"%2\" %3").arg(where, InputLimits::quoted(key), msg),
                             {}};
    }

    void checkKeys(const Json &obj, const QString &prefix, const QStringList &known)
    {
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            const QString k = QString::fromStdString(it.key());
            if (!known.contains(k))
                error(prefix + k,
                      QStringLiteral("is not a known key (known: %1); check the spelling")
                          .arg(known.join(QStringLiteral(", "))),
                      QStringLiteral("spec-unknown-key"));
        }
    }

    QString string(const Json &obj, const char *key, const QString &path)
    {
        auto it = obj.find(key);
        if (it == obj.end() || it->is_null())
            return {};
        if (!it->is_string()) {
            error(path, QStringLiteral("must be a string, found %1").arg(JsonSupport::typeName(*it)));
            return {};
        }
        return JsonSupport::str(*it);
    }

    int integer(const Json &obj, const char *key, const QString &path, int min, int fallback)
    {
        auto it = obj.find(key);
        if (it == obj.end() || it->is_null())
            return fallback;
        if (!it->is_number_integer()) {
            error(path, QStringLiteral("must be a whole number, found %1").arg(JsonSupport::typeName(*it)));
            return fallback;
        }
        const auto v = it->get<long long>();
        if (v < min || v > 100000) {
            error(path, QStringLiteral("must be between %1 and 100000, found %2").arg(min).arg(v));
            return fallback;
        }
        return int(v);
    }

    QStringList stringList(const Json &obj, const char *key, const QString &path)
    {
        auto it = obj.find(key);
        if (it == obj.end() || it->is_null())
            return {};
        if (!it->is_array()) {
            error(path, QStringLiteral("must be an array of strings"));
            return {};
        }
        QStringList out;
        for (std::size_t i = 0; i < it->size(); ++i) {
            const Json &v = (*it)[i];
            if (v.is_string())
                out << JsonSupport::str(v);
            else if (v.is_number())
                out << QString::fromStdString(v.dump());   // args like 20 are harmless as text
            else
                error(QStringLiteral("%1[%2]").arg(path).arg(i), QStringLiteral("must be a string"));
        }
        return out;
    }

    // The findings, with one closing finding for those past the cap.
    Diagnostics findings() const
    {
        Diagnostics out = errors;
        if (m_dropped > 0)
            out << InputLimits::tooManyFindings(m_file, m_dropped, InputLimits::kMaxDiagnosticsPerFile,
                                                Severity::Error);
        return out;
    }

private:
    JsonPositions m_positions;
    QString m_file;
    qsizetype m_dropped = 0;
};

}   // namespace

namespace {

// framework (required): one of the framework ids.
void readFramework(SpecReader &r, const Json &j, JobSpec &s)
{
    const QString fw = r.string(j, "framework", QStringLiteral("framework"));
    if (fw.isEmpty()) {
        r.error(QStringLiteral("framework"),
                QStringLiteral("is required (pytorch-ddp, deepspeed, horovod, tf-mirrored, "
                               "tf-multiworker, dataparallel, lightning)"));
    } else if (auto f = frameworkFromId(fw)) {
        s.framework = *f;
    } else {
        QStringList ids;
        for (auto f2 : allFrameworks())
            ids << frameworkId(f2);
        r.error(QStringLiteral("framework"),
                QStringLiteral("\"%1\" is not one of %2").arg(InputLimits::quoted(fw), ids.join(QStringLiteral(", "))));
    }
}

// launcher (optional): one of the launchers the form offers.
void readLauncher(SpecReader &r, const Json &j, JobSpec &s)
{
    if (const QString l = r.string(j, "launcher", QStringLiteral("launcher")); !l.isEmpty()) {
        if (auto launcher = launcherFromId(l); launcher && launcherTraits(*launcher).composable) {
            s.launcher = *launcher;
        } else {
            QStringList ids;
            for (auto l2 : composableLaunchers())
                ids << launcherId(l2);
            r.error(
                QStringLiteral("launcher"),
                QStringLiteral("\"%1\" is not one of %2").arg(InputLimits::quoted(l), ids.join(QStringLiteral(", "))));
        }
    }
}

// environment.container: an image name, or {image, runtime, binds}.
void readContainer(SpecReader &r, const Json &e, JobSpec &s)
{
    if (auto c = e.find("container"); c != e.end() && !c->is_null()) {
        if (c->is_string()) {
            s.environment.container.image = JsonSupport::str(*c);
        } else if (c->is_object()) {
            r.checkKeys(*c, QStringLiteral("environment.container."),
                        {QStringLiteral("image"), QStringLiteral("runtime"), QStringLiteral("binds")});
            s.environment.container.image = r.string(*c, "image", QStringLiteral("environment.container.image"));
            s.environment.container.runtime = r.string(*c, "runtime", QStringLiteral("environment.container.runtime"));
            s.environment.container.binds = r.stringList(*c, "binds", QStringLiteral("environment.container.binds"));
            const QString rt = s.environment.container.runtime;
            if (!rt.isEmpty() && rt != QLatin1String("singularity") && rt != QLatin1String("apptainer"))
                r.error(QStringLiteral("environment.container.runtime"),
                        QStringLiteral("must be \"singularity\" or \"apptainer\""));
        } else {
            r.error(QStringLiteral("environment.container"),
                    QStringLiteral("must be an object {image, runtime, binds}"));
        }
    }
}

// environment.taskVariables: NAME -> value set in each task.
void readTaskVariables(SpecReader &r, const Json &e, JobSpec &s)
{
    if (auto v = e.find("taskVariables"); v != e.end() && !v->is_null()) {
        if (!v->is_object()) {
            r.error(QStringLiteral("environment.taskVariables"), QStringLiteral("must be an object NAME -> value"));
            return;
        }
        for (auto it = v->begin(); it != v->end(); ++it)
            s.environment.taskVariables << qMakePair(QString::fromStdString(it.key()),
                                                     it->is_string() ? JsonSupport::str(*it)
                                                                     : QString::fromStdString(it->dump()));
    }
}

// environment: modules, setup lines, container and variables.
void readEnvironment(SpecReader &r, const Json &j, JobSpec &s)
{
    auto it = j.find("environment");
    if (it == j.end() || it->is_null())
        return;
    if (!it->is_object()) {
        r.error(QStringLiteral("environment"),
                QStringLiteral("must be an object {modules, container, setup, variables}"));
        return;
    }
    const Json &e = *it;
    r.checkKeys(e, QStringLiteral("environment."),
                {QStringLiteral("modules"), QStringLiteral("container"), QStringLiteral("setup"),
                 QStringLiteral("variables"), QStringLiteral("taskVariables")});
    s.environment.modules = r.stringList(e, "modules", QStringLiteral("environment.modules"));
    s.environment.setup = r.stringList(e, "setup", QStringLiteral("environment.setup"));
    readContainer(r, e, s);
    readTaskVariables(r, e, s);
    if (auto v = e.find("variables"); v != e.end() && !v->is_null()) {
        if (!v->is_object()) {
            r.error(QStringLiteral("environment.variables"), QStringLiteral("must be an object NAME -> value"));
        } else {
            for (auto it2 = v->begin(); it2 != v->end(); ++it2) {
                const QString value = it2->is_string() ? JsonSupport::str(*it2) : QString::fromStdString(it2->dump());
                s.environment.variables << qMakePair(QString::fromStdString(it2.key()), value);
            }
        }
    }
}

// slurmOptions: {name: value} of carriedSlurmOptions() only.
void readSlurmOptions(SpecReader &r, const Json &j, JobSpec &s)
{
    auto it = j.find("slurmOptions");
    if (it == j.end() || it->is_null())
        return;
    if (!it->is_object()) {
        r.error(QStringLiteral("slurmOptions"),
                QStringLiteral("must be an object {option: value}, e.g. {\"qos\": \"normal\"}"));
        return;
    }
    for (auto o = it->begin(); o != it->end(); ++o) {
        const QString name = QString::fromStdString(o.key());
        if (!carriedSlurmOptions().contains(name)) {
            r.error(QStringLiteral("slurmOptions.") + name,
                    QStringLiteral("is not an option a spec carries; use one of %1 (ScaleLab writes the others)")
                        .arg(carriedSlurmOptions().join(QStringLiteral(", "))));
            continue;
        }
        if (!o->is_string() || JsonSupport::str(*o).contains(QLatin1Char('\n'))) {
            r.error(QStringLiteral("slurmOptions.") + name, QStringLiteral("must be a string on one line"));
            continue;
        }
        s.slurmOptions << qMakePair(name, JsonSupport::str(*o));
    }
}

// binding: ["--cpu-bind=...", "--gpu-bind=..."].
void readBinding(SpecReader &r, const Json &j, JobSpec &s)
{
    s.binding = r.stringList(j, "binding", QStringLiteral("binding"));
    for (const QString &b : s.binding)
        if (!bindingOptions().contains(b.section(QLatin1Char('='), 0, 0)) || !b.contains(QLatin1Char('='))
            || b.contains(QLatin1Char('\n')))
            r.error(QStringLiteral("binding"),
                    QStringLiteral("\"%1\" is not one of %2 with a value (e.g. \"--cpu-bind=cores\")")
                        .arg(InputLimits::quoted(b), bindingOptions().join(QStringLiteral(", "))));
}

// monitoring: how often the GPUs are sampled.
void readMonitoring(SpecReader &r, const Json &j, JobSpec &s)
{
    if (auto it = j.find("monitoring"); it != j.end() && !it->is_null()) {
        if (!it->is_object()) {
            r.error(QStringLiteral("monitoring"), QStringLiteral("must be an object {gpuSampleSeconds, metricDirs}"));
        } else {
            r.checkKeys(*it, QStringLiteral("monitoring."),
                        {QStringLiteral("gpuSampleSeconds"), QStringLiteral("metricDirs")});
            s.gpuSampleSeconds =
                r.integer(*it, "gpuSampleSeconds", QStringLiteral("monitoring.gpuSampleSeconds"), 0, 10);
            s.metricDirs = r.stringList(*it, "metricDirs", QString::fromLatin1(SpecField::metricDirs));
        }
    }
}

// project: {folder, remoteFolder}.
void readProject(SpecReader &r, const Json &j, JobSpec &s)
{
    const auto it = j.find("project");
    if (it == j.end() || it->is_null())
        return;
    if (!it->is_object()) {
        r.error(QStringLiteral("project"), QStringLiteral("must be an object {folder, remoteFolder}"));
        return;
    }
    r.checkKeys(*it, QStringLiteral("project."), {QStringLiteral("folder"), QStringLiteral("remoteFolder")});
    s.project.folder = r.string(*it, "folder", QLatin1String(SpecField::projectFolder));
    s.project.remoteFolder = r.string(*it, "remoteFolder", QLatin1String(SpecField::projectRemoteFolder));
    if (s.project.folder.trimmed().isEmpty())
        r.error(QLatin1String(SpecField::projectFolder),
                QStringLiteral("is required in \"project\": the folder of code on this machine (relative to the "
                               "spec file's folder, or absolute)"));
}

// segments.count: a whole number of segments, or "until-done".
void readSegmentCount(SpecReader &r, const Json &seg, JobSpec &s)
{
    const QString field = QLatin1String(SpecField::segmentsCount);
    const auto it = seg.find("count");
    if (it != seg.end() && it->is_string()) {
        if (JsonSupport::str(*it) == QLatin1String("until-done"))
            s.segments.untilDone = true;
        else
            r.error(field, QStringLiteral("must be a number of segments (1 to %1) or \"until-done\"")
                               .arg(SegmentSpec::kMaxSegments));
        return;
    }
    s.segments.count = r.integer(seg, "count", field, 1, 1);
    if (s.segments.count > SegmentSpec::kMaxSegments) {
        r.error(field, QStringLiteral("must be at most %1 segments, found %2; use \"until-done\" to continue as "
                                      "long as the work needs")
                           .arg(SegmentSpec::kMaxSegments)
                           .arg(s.segments.count));
        s.segments.count = SegmentSpec::kMaxSegments;
    }
}

// segments: {count, signalLead, signal, requeue}: a run longer than the time limit.
void readSegments(SpecReader &r, const Json &j, JobSpec &s)
{
    const auto it = j.find("segments");
    if (it == j.end() || it->is_null())
        return;
    if (!it->is_object()) {
        r.error(QStringLiteral("segments"),
                QStringLiteral("must be an object {count, signalLead, signal, requeue, checkpointSeconds}"));
        return;
    }
    r.checkKeys(*it, QStringLiteral("segments."),
                {QStringLiteral("count"), QStringLiteral("signalLead"), QStringLiteral("signal"),
                 QStringLiteral("requeue"), QStringLiteral("checkpointSeconds")});
    readSegmentCount(r, *it, s);
    s.segments.signalLeadSeconds =
        r.integer(*it, "signalLead", QLatin1String(SpecField::segmentsSignalLead), 1, s.segments.signalLeadSeconds);
    s.segments.checkpointSeconds =
        r.integer(*it, "checkpointSeconds", QLatin1String(SpecField::segmentsCheckpoint), 0, 0);
    const QString sig = r.string(*it, "signal", QLatin1String(SpecField::segmentsSignal));
    if (!sig.isEmpty() && sig != QLatin1String("USR1") && sig != QLatin1String("USR2"))
        r.error(QLatin1String(SpecField::segmentsSignal),
                QStringLiteral("must be \"USR1\" (Lightning's auto-requeue, the default) or \"USR2\" (submitit), "
                               "found \"%1\"")
                    .arg(InputLimits::quoted(sig)));
    else if (!sig.isEmpty())
        s.segments.signal = sig;
    if (const auto rq = it->find("requeue"); rq != it->end() && !rq->is_null()) {
        if (rq->is_boolean())
            s.segments.requeue = rq->get<bool>();
        else
            r.error(QLatin1String(SpecField::segmentsRequeue), QStringLiteral("must be true or false"));
    }
}

Json segmentsJson(const SegmentSpec &g)
{
    Json o{{"signalLead", g.signalLeadSeconds}, {"signal", g.signal.toStdString()}};
    if (g.untilDone)
        o["count"] = "until-done";
    else
        o["count"] = g.count;
    if (g.requeue)
        o["requeue"] = true;
    if (g.checkpointSeconds > 0)
        o["checkpointSeconds"] = g.checkpointSeconds;
    return o;
}

Json strings(const QStringList &list)
{
    Json a = Json::array();
    for (const QString &x : list)
        a.push_back(x.toStdString());
    return a;
}

}   // namespace

const QStringList &carriedSlurmOptions()
{
    static const QStringList names = {
        QStringLiteral("qos"),        QStringLiteral("reservation"), QStringLiteral("constraint"),
        QStringLiteral("mail-type"),  QStringLiteral("mail-user"),   QStringLiteral("exclusive"),
        QStringLiteral("signal"),     QStringLiteral("licenses"),    QStringLiteral("requeue"),
        QStringLiteral("no-requeue"), QStringLiteral("tmp"),
    };
    return names;
}

const QStringList &bindingOptions()
{
    static const QStringList names = {QStringLiteral("--cpu-bind"), QStringLiteral("--gpu-bind"),
                                      QStringLiteral("--mem-bind")};
    return names;
}

JobSpecParseResult parseJobSpec(const QByteArray &json, const QString &fileName)
{
    JobSpecParseResult result;
    Diagnostic parseError;
    auto doc = JsonSupport::parse(json, fileName.isEmpty() ? QStringLiteral("<spec>") : fileName, &parseError);
    if (!doc) {
        parseError.rule = QStringLiteral("spec-malformed");
        result.errors << parseError;
        return result;
    }
    SpecReader r(json, fileName);
    const Json &j = *doc;
    if (!j.is_object()) {
        r.error(QStringLiteral("(top level)"), QStringLiteral("must be a JSON object"));
        result.errors = r.errors;
        return result;
    }
    r.checkKeys(j, {},
                {QStringLiteral("profile"), QStringLiteral("partition"), QStringLiteral("gpus"),
                 QStringLiteral("nodes"), QStringLiteral("framework"), QStringLiteral("launcher"),
                 QStringLiteral("time"), QStringLiteral("account"), QStringLiteral("jobName"),
                 QStringLiteral("program"), QStringLiteral("args"), QLatin1String(SpecField::cpusPerGpu),
                 QStringLiteral("memory"), QStringLiteral("environment"), QStringLiteral("monitoring"),
                 QStringLiteral("slurmOptions"), QStringLiteral("binding"), QStringLiteral("project"),
                 QStringLiteral("segments")});
    JobSpec s;
    s.profile = r.string(j, "profile", QStringLiteral("profile"));
    if (s.profile.isEmpty())
        r.error(QStringLiteral("profile"),
                QStringLiteral("is required: the cluster profile id (see `scalelab profiles`)"));
    s.partition = r.string(j, "partition", QStringLiteral("partition"));
    if (!j.contains("gpus"))
        r.error(QStringLiteral("gpus"), QStringLiteral("is required: the total number of GPUs"));
    s.gpus = r.integer(j, "gpus", QStringLiteral("gpus"), 1, 0);
    s.nodes = r.integer(j, "nodes", QStringLiteral("nodes"), 0, 0);
    readFramework(r, j, s);
    readLauncher(r, j, s);
    s.time = r.string(j, "time", QStringLiteral("time"));
    s.account = r.string(j, "account", QStringLiteral("account"));
    s.jobName = r.string(j, "jobName", QStringLiteral("jobName"));
    s.program = r.string(j, "program", QStringLiteral("program"));
    s.args = r.stringList(j, "args", QStringLiteral("args"));
    s.cpusPerGpu = r.integer(j, SpecField::cpusPerGpu, QLatin1String(SpecField::cpusPerGpu), 0, 0);
    if (auto it = j.find("memory"); it != j.end() && it->is_number_integer())
        s.memory = QString::number(it->get<long long>()) + QLatin1Char('M');   // Slurm's default unit
    else
        s.memory = r.string(j, "memory", QStringLiteral("memory"));

    readEnvironment(r, j, s);
    readMonitoring(r, j, s);
    readSlurmOptions(r, j, s);
    readBinding(r, j, s);
    readProject(r, j, s);
    readSegments(r, j, s);
    result.errors = r.findings();
    if (r.errors.isEmpty())
        result.spec = s;
    return result;
}

namespace {

// environment: only what is set.
Json environmentJson(const JobEnvironment &e)
{
    auto str = [](const QString &q) { return q.toStdString(); };
    Json env = Json::object();
    if (!e.modules.isEmpty())
        env["modules"] = strings(e.modules);
    if (!e.container.image.isEmpty()) {
        Json c;
        c["image"] = str(e.container.image);
        if (!e.container.runtime.isEmpty())
            c["runtime"] = str(e.container.runtime);
        if (!e.container.binds.isEmpty())
            c["binds"] = strings(e.container.binds);
        env["container"] = c;
    }
    if (!e.setup.isEmpty())
        env["setup"] = strings(e.setup);
    if (!e.variables.isEmpty()) {
        Json v = Json::object();
        for (const auto &[k, val] : e.variables)
            v[str(k)] = str(val);
        env["variables"] = v;
    }
    if (!e.taskVariables.isEmpty()) {
        Json v = Json::object();
        for (const auto &[k, val] : e.taskVariables)
            v[str(k)] = str(val);
        env["taskVariables"] = v;
    }
    return env;
}

}   // namespace

QByteArray jobSpecToJson(const JobSpec &s, int indent)
{
    Json j;
    auto str = [](const QString &q) { return q.toStdString(); };
    j["profile"] = str(s.profile);
    if (!s.partition.isEmpty())
        j["partition"] = str(s.partition);
    j["gpus"] = s.gpus;
    if (s.nodes > 0)
        j["nodes"] = s.nodes;
    j["framework"] = str(frameworkId(s.framework));
    if (s.launcher)
        j["launcher"] = str(launcherId(*s.launcher));
    if (!s.time.isEmpty())
        j["time"] = str(s.time);
    if (!s.account.isEmpty())
        j["account"] = str(s.account);
    if (!s.jobName.isEmpty())
        j["jobName"] = str(s.jobName);
    if (!s.program.isEmpty())
        j["program"] = str(s.program);
    if (!s.args.isEmpty())
        j["args"] = strings(s.args);
    if (s.cpusPerGpu > 0)
        j[SpecField::cpusPerGpu] = s.cpusPerGpu;
    if (!s.memory.isEmpty())
        j["memory"] = str(s.memory);
    if (!(s.environment == JobEnvironment{}))
        j["environment"] = environmentJson(s.environment);
    Json monitoring{{"gpuSampleSeconds", s.gpuSampleSeconds}};
    if (!s.metricDirs.isEmpty())
        monitoring["metricDirs"] = strings(s.metricDirs);
    j["monitoring"] = monitoring;
    if (!s.slurmOptions.isEmpty()) {
        Json o = Json::object();
        for (const auto &[name, value] : s.slurmOptions)
            o[str(name)] = str(value);
        j["slurmOptions"] = o;
    }
    if (!s.binding.isEmpty())
        j["binding"] = strings(s.binding);
    if (!s.project.folder.isEmpty()) {
        Json p{{"folder", str(s.project.folder)}};
        if (!s.project.remoteFolder.isEmpty())
            p["remoteFolder"] = str(s.project.remoteFolder);
        j["project"] = p;
    }
    if (s.segments.enabled())
        j["segments"] = segmentsJson(s.segments);
    return QByteArray::fromStdString(j.dump(indent)) + '\n';
}

}   // namespace scalelab
