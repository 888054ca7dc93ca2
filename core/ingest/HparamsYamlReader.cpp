// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/HparamsYamlReader.h"

#include "core/base/InputLimits.h"
#include "core/ingest/MetricFileCollector.h"
#include "core/model/MetricNames.h"

namespace scalelab {

namespace {

// A scalar without its quotes and trailing comment; "" with `why` set when
// the value is YAML this reader does not read.
QString scalar(QString v, QString *why)
{
    v = v.trimmed();
    if (v.startsWith(u'\'') || v.startsWith(u'"')) {
        const QChar q = v.front();
        const qsizetype close = v.indexOf(q, 1);
        if (close < 0) {
            *why = QStringLiteral("a quoted value that does not end on its line");
            return {};
        }
        QString s = v.mid(1, close - 1);
        if (q == u'\'')
            s.replace(QStringLiteral("''"), QStringLiteral("'"));
        return s;
    }
    if (const qsizetype hash = v.indexOf(QStringLiteral(" #")); hash >= 0)
        v = v.left(hash).trimmed();
    if (v.startsWith(u'|') || v.startsWith(u'>'))
        *why = QStringLiteral("a multi-line scalar (| or >)");
    else if (v.startsWith(u'&') || v.startsWith(u'*'))
        *why = QStringLiteral("an anchor or alias (& or *)");
    else if (v.startsWith(u'!'))
        *why = QStringLiteral("a tagged value (%1)").arg(v.section(u' ', 0, 0));
    return why->isEmpty() ? v : QString();
}

void readLine(const QString &text, int line, MetricFileCollector &out, QString &lastKey)
{
    const QString t = text.trimmed();
    if (t.isEmpty() || t.startsWith(u'#') || t == QLatin1String("---") || t == QLatin1String("..."))
        return;
    if (text.front().isSpace() || t.startsWith(QLatin1String("- "))) {
        out.note(Severity::Info, QStringLiteral("yaml-not-read"), lastKey, line,
                 QStringLiteral("%1 is part of a nested mapping or list under \"%2\": only flat `key: value` lines "
                                "are read")
                     .arg(InputLimits::quoted(t, 60), lastKey));
        return;
    }
    const qsizetype colon = t.indexOf(QStringLiteral(": "));
    const bool bare = colon < 0 && t.endsWith(u':');
    if (colon < 0 && !bare) {
        out.note(Severity::Warning, QStringLiteral("yaml-not-read"), QString(), line,
                 QStringLiteral("%1 is not a `key: value` line; skipped").arg(InputLimits::quoted(t, 60)));
        return;
    }
    lastKey = bare ? t.chopped(1).trimmed() : t.left(colon).trimmed();
    if (bare)
        return;   // a nested mapping or list follows (noted line by line)
    QString why;
    const QString value = scalar(t.mid(colon + 2), &why);
    if (!why.isEmpty()) {
        out.note(Severity::Info, QStringLiteral("yaml-not-read"), lastKey, line,
                 QStringLiteral("%1 is %2: not read").arg(lastKey, why));
        return;
    }
    out.parameter(lastKey, value, line);
}

}   // namespace

MetricFileResult HparamsYamlReader::read(const QString &path)
{
    const auto f = InputLimits::readFile(path, QStringLiteral("hyperparameter file"));
    if (!f.ok) {
        MetricFileResult r;
        r.diagnostics << f.problem;
        return r;
    }
    return parse(f.data, path);
}

MetricFileResult HparamsYamlReader::parse(const QByteArray &data, const QString &name)
{
    MetricFileCollector out(QStringLiteral("lightning.hparams"), metric::SourceLightningCsv);
    out.setFile(name);
    const QStringList lines = QString::fromUtf8(data).split(u'\n');
    QString lastKey;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString text = lines[i];
        if (text.endsWith(u'\r'))
            text.chop(1);
        if (!text.trimmed().isEmpty())
            readLine(text, int(i + 1), out, lastKey);
    }
    return out.take();
}

}   // namespace scalelab
