// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/profiles: the walker that reads one profile document and
// collects every problem with its key path (ProfileLoader.cpp for the top
// level, ProfilePartitionReader.cpp for partitions).

#include "core/base/Diagnostic.h"
#include "core/base/InputLimits.h"
#include "core/base/JsonSupport.h"
#include "core/model/ClusterProfile.h"

#include <QSet>
#include <QString>

namespace scalelab::profileread {

using Json = JsonSupport::Json;

// null or "unknown": the profile says honestly that it does not know.
inline bool isUnknown(const Json &v)
{
    return v.is_null() || (v.is_string() && v.get<std::string>() == "unknown");
}

// Walks one profile document, collecting every problem with its key path so
// a researcher editing a profile sees all mistakes at once.
class ProfileReader {
public:
    ProfileReader(const QString &file)
        : m_file(file)
    {}

    Diagnostics problems;
    // Looked up once per partition: sets, not the profile's lists, so a
    // profile with thousands of partitions stays linear.
    QSet<QString> gpuTypeIds;
    QSet<QString> partitionNames;

    void error(const QString &key, const QString &msg)
    {
        problems << Diagnostic{Severity::Error,
                               QStringLiteral("profile-invalid"),
                               key,
                               0,
                               0,
                               QStringLiteral("%1: %2: %3").arg(m_file, InputLimits::quoted(key), msg),
                               {}};
    }
    void warning(const QString &key, const QString &msg)
    {
        problems << Diagnostic{Severity::Warning,
                               QStringLiteral("profile-warning"),
                               key,
                               0,
                               0,
                               QStringLiteral("%1: %2: %3").arg(m_file, InputLimits::quoted(key), msg),
                               {}};
    }

    // A setting is either a bare value (source taken from `fallbackSource`) or
    // {"value": ..., "source": "..."}. Returns the value node, or null.
    const Json *setting(const Json &obj, const char *key, const QString &path, const QString &fallbackSource,
                        QString *sourceOut)
    {
        auto it = obj.find(key);
        if (it == obj.end())
            return nullptr;
        const Json *value = &*it;
        QString source = fallbackSource;
        if (it->is_object() && it->contains("value")) {
            value = &(*it)["value"];
            if (auto s = it->find("source"); s != it->end() && s->is_string())
                source = JsonSupport::str(*s);
        }
        if (source.trimmed().isEmpty())
            error(path, QStringLiteral("has no source: give the public page it was taken from as \"source\""));
        if (sourceOut)
            *sourceOut = source;
        return value;
    }

    // Most limits end up in an int: larger values are refused here rather
    // than wrapped around later.
    bool readInt(const Json *v, const QString &path, qint64 *out, qint64 min = 0, qint64 max = 1000000000)
    {
        if (!v)
            return false;
        if (!v->is_number_integer()) {
            error(path, QStringLiteral("must be a whole number, found %1").arg(JsonSupport::typeName(*v)));
            return false;
        }
        if (v->is_number_unsigned() && v->get<quint64>() > quint64(max)) {
            error(path, QStringLiteral("must be at most %1, found %2").arg(max).arg(v->get<quint64>()));
            return false;
        }
        const qint64 n = v->get<qint64>();
        if (n < min) {
            error(path, QStringLiteral("must be at least %1, found %2").arg(min).arg(n));
            return false;
        }
        if (n > max) {
            error(path, QStringLiteral("must be at most %1, found %2").arg(max).arg(n));
            return false;
        }
        *out = n;
        return true;
    }

    bool readBool(const Json *v, const QString &path, bool *out)
    {
        if (!v)
            return false;
        if (!v->is_boolean()) {
            error(path, QStringLiteral("must be true or false, found %1").arg(JsonSupport::typeName(*v)));
            return false;
        }
        *out = v->get<bool>();
        return true;
    }

    bool readString(const Json *v, const QString &path, QString *out)
    {
        if (!v)
            return false;
        if (!v->is_string()) {
            error(path, QStringLiteral("must be a string, found %1").arg(JsonSupport::typeName(*v)));
            return false;
        }
        *out = JsonSupport::str(*v);
        return true;
    }

    QString plainString(const Json &obj, const char *key, const QString &path, bool required)
    {
        auto it = obj.find(key);
        if (it == obj.end()) {
            if (required)
                error(path, QStringLiteral("is required"));
            return {};
        }
        QString s;
        readString(&*it, path, &s);
        return s;
    }

private:
    QString m_file;
};

// Reads partitions[i] into profile.partitions (problems go to r).
void readPartition(ProfileReader &r, const Json &pj, const QString &path, ClusterProfile &profile);

}   // namespace scalelab::profileread
