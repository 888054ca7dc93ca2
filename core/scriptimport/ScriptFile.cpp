// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/ScriptFile.h"

#include "core/base/InputLimits.h"

#include <QDir>
#include <QFileInfo>

namespace scalelab {

namespace {

constexpr qint64 kMaxProgramBytes = 1 << 20;

// The program's text when it is a Python file found from the script's
// folder; nullopt for a variable, a module (-m) or a file not there.
ImportContext besideScript(const QString &scriptPath)
{
    if (scriptPath.isEmpty() || scriptPath == QLatin1String("-"))
        return {};
    const QString folder = QFileInfo(scriptPath).absolutePath();
    return ImportContext{[folder](const QString &program) -> std::optional<QString> {
        if (!program.endsWith(QLatin1String(".py")) || program.contains(QLatin1Char('$'))
            || program.startsWith(QLatin1Char('~')))
            return std::nullopt;
        const QString path = QDir(folder).filePath(program);
        if (!QFileInfo(path).isFile())
            return std::nullopt;
        const auto read = InputLimits::readFile(path, QStringLiteral("program"), kMaxProgramBytes);
        if (!read.ok)
            return std::nullopt;
        return QString::fromUtf8(read.data);
    }};
}

}   // namespace

QString ScriptFile::decode(const QByteArray &bytes)
{
    static const QByteArray bom("\xEF\xBB\xBF");
    if (bytes.startsWith(bom))
        return QChar(0xfeff) + QString::fromUtf8(bytes.mid(bom.size()));
    return QString::fromUtf8(bytes);
}

ScriptImport ScriptFile::importText(const QString &text, const QString &path, const ClusterProfile &profile)
{
    ScriptImport imp = importSbatchScript(text, profile, besideScript(path));
    if (imp.spec.profile.isEmpty())
        imp.spec.profile = profile.id;
    return imp;
}

}   // namespace scalelab
