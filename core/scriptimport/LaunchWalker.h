// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/scriptimport: the word walker shared by the launch-line
// parser (LaunchLineParser.cpp) and the per-launcher option readers
// (LaunchOptionReaders.cpp).

#include "core/model/Launcher.h"
#include "core/scriptimport/LaunchLineParser.h"

#include <QSet>

namespace scalelab::launchparse {

inline QString baseName(const QString &word)
{
    const int slash = int(word.lastIndexOf(QLatin1Char('/')));
    return slash >= 0 ? word.mid(slash + 1) : word;
}

// Walks the words of one command, layer by layer.
class Walker {
public:
    Walker(const ShellCommand &cmd, const ScriptLine &line)
        : m_w(cmd.words)
        , m_line(line)
    {}

    bool atEnd() const { return m_i >= m_w.size(); }
    const QString &peek() const { return m_w[m_i].text; }
    int lineOfCurrent() const { return atEnd() ? m_line.line : m_line.lineAt(m_w[m_i].offset); }
    QString take() { return m_w[m_i++].text; }
    int index() const { return int(m_i); }

    // One option: "--name=value", "--name value", "-xVALUE" or a flag. The
    // caller says which names take a value. Returns false at the first
    // non-option word.
    struct Opt {
        QString name;
        QString value;
        bool hasValue = false;
        int line = 0;
    };
    bool nextOption(const QSet<QString> &takesValue, Opt *opt, const QSet<QString> &shortGlued = {})
    {
        if (atEnd())
            return false;
        const QString w = peek();
        if (w == QLatin1String("--")) {
            ++m_i;
            return false;
        }
        if (!w.startsWith(QLatin1Char('-')) || w.size() < 2)
            return false;
        *opt = Opt{};
        opt->line = lineOfCurrent();
        ++m_i;
        const int eq = int(w.indexOf(QLatin1Char('=')));
        if (w.startsWith(QLatin1String("--")) && eq > 0) {
            opt->name = w.left(eq);
            opt->value = w.mid(eq + 1);
            opt->hasValue = true;
            return true;
        }
        if (!w.startsWith(QLatin1String("--")) && w.size() > 2 && shortGlued.contains(w.left(2))) {
            opt->name = w.left(2);   // -N2, -n4
            opt->value = w.mid(2);
            opt->hasValue = true;
            return true;
        }
        opt->name = w;
        if (takesValue.contains(w) && !atEnd()) {
            opt->value = take();
            opt->hasValue = true;
        }
        return true;
    }

    QStringList rest()
    {
        QStringList out;
        while (!atEnd())
            out << take();
        return out;
    }

private:
    const QList<ShellWord> &m_w;
    const ScriptLine &m_line;
    qsizetype m_i = 0;
};

inline void takeProgram(Walker &w, LaunchCommand &lc)
{
    lc.programLine = w.lineOfCurrent();
    lc.programWordIndex = w.index();
    lc.program = w.take();
    lc.args = w.rest();
}

inline int toCount(const QString &text)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    return ok && v > 0 && v <= 100000 ? v : 0;   // beyond any cluster: treated as unknown
}

// Each reads its launcher's options up to the program (or the next layer).
void parseSrun(Walker &w, LaunchCommand &lc);
void parseMpirun(Walker &w, LaunchCommand &lc);
void parseContainer(Walker &w, LaunchCommand &lc, const QString &runtime);
void parseTorchrun(Walker &w, LaunchCommand &lc);
void parseDeepSpeed(Walker &w, LaunchCommand &lc);
void parseHorovodrun(Walker &w, LaunchCommand &lc);
void parseAccelerate(Walker &w, LaunchCommand &lc);
// The reader of a launcher's options (srun's: parseSrun, through the walker).
void parseLauncherOptions(Walker &w, LaunchCommand &lc, Launcher launcher);

// Sets lc's launcher; its row, for the readers.
const LauncherTraits &startLauncher(LaunchCommand &lc, Launcher launcher);
// Reads `o` into lc.nproc, lc.nnodes or lc.np when the row names it as a
// count option; false for any other option.
bool readCountOption(const LauncherTraits &row, const Walker::Opt &o, LaunchCommand &lc);
// Shifter's and enroot's options up to the program inside (LaunchContainerReaders.cpp).
void parseShifter(Walker &w, LaunchCommand &lc);
bool parseEnrootStart(Walker &w, LaunchCommand &lc);   // false: not `enroot start`

}   // namespace scalelab::launchparse
