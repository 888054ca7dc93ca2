// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/DiagnosticFormat.h"

namespace scalelab {

QString DiagnosticFormat::toText(const Diagnostic &d, const QString &file)
{
    QString where;
    if (!file.isEmpty())
        where = d.line > 0 ? QStringLiteral("%1:%2: ").arg(file).arg(d.line) : file + QStringLiteral(": ");
    else if (d.line > 0)
        where = QStringLiteral("line %1: ").arg(d.line);
    QString text = QStringLiteral("%1%2 [%3]").arg(where, severityName(d.severity), d.rule);
    if (!d.field.isEmpty())
        text += QLatin1Char(' ') + d.field + QLatin1Char(':');
    text += QLatin1Char(' ') + d.message;
    if (d.fix.isValid())
        text += QStringLiteral("  (fix: %1)").arg(d.fix.label);
    return text;
}

nlohmann::ordered_json DiagnosticFormat::toJson(const Diagnostic &d)
{
    nlohmann::ordered_json j;
    j["severity"] = severityName(d.severity).toStdString();
    j["rule"] = d.rule.toStdString();
    j["field"] = d.field.toStdString();
    if (d.line > 0)
        j["line"] = d.line;
    else
        j["line"] = nullptr;
    j["message"] = d.message.toStdString();
    if (d.fix.isValid()) {
        nlohmann::ordered_json f;
        f["field"] = d.fix.field.toStdString();
        if (d.fix.clear)
            f["value"] = nullptr;
        else
            f["value"] = d.fix.value.toStdString();
        f["label"] = d.fix.label.toStdString();
        j["fix"] = f;
    } else {
        j["fix"] = nullptr;
    }
    return j;
}

nlohmann::ordered_json DiagnosticFormat::toJson(const Diagnostics &ds)
{
    auto arr = nlohmann::ordered_json::array();
    for (const auto &d : ds)
        arr.push_back(toJson(d));
    return arr;
}

}   // namespace scalelab
