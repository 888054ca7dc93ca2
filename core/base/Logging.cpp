// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/Logging.h"

#include "core/base/InputLimits.h"

#include "core/base/PrivateFiles.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QRegularExpression>

Q_LOGGING_CATEGORY(lcSsh, "scalelab.ssh", QtInfoMsg)
Q_LOGGING_CATEGORY(lcSlurm, "scalelab.slurm", QtInfoMsg)
Q_LOGGING_CATEGORY(lcStore, "scalelab.store", QtInfoMsg)
Q_LOGGING_CATEGORY(lcIngest, "scalelab.ingest", QtInfoMsg)
Q_LOGGING_CATEGORY(lcUi, "scalelab.ui", QtInfoMsg)

namespace scalelab {

namespace {

// Values ScaleLab itself puts in commands and that say nothing about the
// researcher: numbers and comma lists of job ids, and a few fixed words.
bool isPlainValue(const QString &v)
{
    static const QRegularExpression numbers(QStringLiteral("^[0-9][0-9,._]*$"));
    static const QStringList fixed{QStringLiteral("--"),         QStringLiteral("all"),      QStringLiteral("f"),
                                   QStringLiteral("scalelab-*"), QStringLiteral("standard"), QStringLiteral("true")};
    return numbers.match(v).hasMatch() || fixed.contains(v);
}

QString redactWord(const QString &w)
{
    static const QRegularExpression option(QStringLiteral("^--?[A-Za-z][A-Za-z0-9-]*$"));
    if (option.match(w).hasMatch() || isPlainValue(w))
        return w;
    const qsizetype eq = w.indexOf(QLatin1Char('='));
    if (w.startsWith(QLatin1Char('-')) && eq > 0 && option.match(w.left(eq)).hasMatch())
        return w.left(eq + 1) + (isPlainValue(w.mid(eq + 1)) ? w.mid(eq + 1) : QStringLiteral("<…>"));
    return QStringLiteral("<…>");
}

struct LogState {
    QMutex mutex;
    QString path;
    qint64 cap = LogFile::kDefaultCapBytes;
    QFile file;
    QtMessageHandler previous = nullptr;
    bool installed = false;
};

LogState &state()
{
    static LogState s;
    return s;
}

void openLocked(LogState &s)
{
    s.file.close();
    s.file.setFileName(s.path);
    // Created owner-only; an existing log keeps the mode it has.
    if (!s.file.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text, QFile::ReadOwner | QFile::WriteOwner))
        return;   // logging stays off; the program goes on
}

void rotateLocked(LogState &s)
{
    s.file.close();
    const QString older = s.path + QStringLiteral(".1");
    QFile::remove(older);
    QFile::rename(s.path, older);
    openLocked(s);
}

const char *levelName(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return "debug";
    case QtInfoMsg:
        return "info";
    case QtWarningMsg:
        return "warning";
    case QtCriticalMsg:
        return "critical";
    case QtFatalMsg:
        return "fatal";
    }
    return "info";
}

void handler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    LogState &s = state();
    const bool ours = context.category && qstrncmp(context.category, "scalelab.", 9) == 0;
    if (!ours) {
        if (s.previous)
            s.previous(type, context, message);
        return;
    }
    QString text = message;
    text.replace(QLatin1Char('\n'), QStringLiteral("\\n"));   // one event, one line
    const QByteArray line = QStringLiteral("%1 %2 %3: %4\n")
                                .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs),
                                     QString::fromLatin1(context.category), QString::fromLatin1(levelName(type)), text)
                                .toUtf8();
    QMutexLocker lock(&s.mutex);
    if (!s.file.isOpen())
        return;
    if (s.file.size() + line.size() > s.cap)
        rotateLocked(s);
    if (s.file.isOpen()) {
        s.file.write(line);
        s.file.flush();   // a crash must not eat the last lines, which are the ones asked about
    }
}

}   // namespace

QString redactedCommand(const QStringList &argv)
{
    if (argv.isEmpty())
        return {};
    if (argv.size() >= 3 && argv.at(0) == QLatin1String("sh") && argv.at(1) == QLatin1String("-c"))
        return QStringLiteral("sh -c <%1-byte script>").arg(argv.at(2).toUtf8().size());
    QStringList out{argv.first()};
    qsizetype i = 1;
    // Queries run as `env -u SQUEUE_FORMAT ... NAME=value squeue ...`
    // (SlurmClient::queryArgv): the variable names are ScaleLab's own, and
    // the program after them is named like the first word.
    if (argv.first() == QLatin1String("env")) {
        static const QRegularExpression name(QStringLiteral("^[A-Z_][A-Z0-9_]*$"));
        for (; i < argv.size(); ++i) {
            const QString &w = argv.at(i);
            const qsizetype eq = w.indexOf(QLatin1Char('='));
            if (w == QLatin1String("-u") && i + 1 < argv.size()) {
                out << w << (name.match(argv.at(i + 1)).hasMatch() ? argv.at(i + 1) : QStringLiteral("<…>"));
                ++i;
            } else if (eq > 0 && name.match(w.left(eq)).hasMatch()) {
                out << w.left(eq + 1) + (isPlainValue(w.mid(eq + 1)) ? w.mid(eq + 1) : QStringLiteral("<…>"));
            } else {
                break;
            }
        }
        if (i < argv.size())
            out << argv.at(i++);
    }
    for (; i < argv.size(); ++i)
        out << redactWord(argv.at(i));
    return out.join(QLatin1Char(' '));
}

QString LogFile::defaultPath()
{
    QString base = qEnvironmentVariable("XDG_STATE_HOME");
    if (base.isEmpty() || !QDir::isAbsolutePath(base))
        base = QDir::homePath() + QStringLiteral("/.local/state");
    return base + QStringLiteral("/ScaleLab/scalelab.log");
}

void LogFile::install(const QString &path, qint64 capBytes)
{
    LogState &s = state();
    {
        QMutexLocker lock(&s.mutex);
        s.path = path;
        s.cap = std::max<qint64>(capBytes, 4096);
        // Owner only, like the rest of the researcher's data: the log names
        // clusters, job ids and run states. A folder that cannot be made
        // leaves logging off, never the program.
        if (PrivateFiles::makeDirectory(QFileInfo(path).absolutePath()))
            openLocked(s);
        if (s.installed)
            return;
        s.installed = true;
    }
    s.previous = qInstallMessageHandler(handler);
}

QString LogFile::path()
{
    LogState &s = state();
    QMutexLocker lock(&s.mutex);
    return s.installed ? s.path : QString();
}

QString LogFile::tail(qint64 maxBytes)
{
    const QString p = path();
    if (p.isEmpty())
        return {};
    auto opened = InputLimits::openFile(p, QStringLiteral("log file"));
    if (!opened)
        return {};
    QFile &f = **opened;
    if (f.size() > maxBytes) {
        f.seek(f.size() - maxBytes);
        f.readLine();   // start at a whole line
    }
    return QString::fromUtf8(f.read(maxBytes));
}

}   // namespace scalelab
