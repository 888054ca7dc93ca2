// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/project/ProjectWalker.h"

#include "core/base/InputLimits.h"
#include "core/project/ProjectIgnore.h"

#include <QDir>
#include <QFileInfo>

#include <memory>

namespace scalelab {

namespace {

constexpr qint64 kMaxIgnoreFileBytes = 1024 * 1024;

// The ignore rules in force in one folder: its own files, then its parent's.
struct RuleChain {
    QList<ProjectIgnore> own;   // later entries win
    std::shared_ptr<const RuleChain> parent;

    bool excluded(const QString &path, bool isDir) const
    {
        for (const RuleChain *c = this; c; c = c->parent.get())
            for (qsizetype i = c->own.size() - 1; i >= 0; --i)
                if (const auto d = c->own[i].decide(path, isDir))
                    return *d;
        return false;
    }
};

struct Pending {
    QString absolute;
    QString relative;   // "" for the root
    std::shared_ptr<const RuleChain> rules;
};

void addIgnoreFile(RuleChain &chain, const QString &file, const QString &base)
{
    const QFileInfo info(file);
    if (!info.isFile() || info.isSymLink() || info.size() > kMaxIgnoreFileBytes)
        return;
    const InputLimits::FileRead read = InputLimits::readFile(file, QStringLiteral("ignore file"), kMaxIgnoreFileBytes);
    if (read.ok)
        chain.own << ProjectIgnore::parse(read.data, base);
}

bool hasControlCharacter(const QString &name)
{
    for (const QChar c : name)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return true;
    return false;
}

// The name shown with each control character as '?'.
QString shownName(QString name)
{
    for (QChar &c : name)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            c = QLatin1Char('?');
    return name;
}

class Walker {
public:
    Walker(const QString &root, qsizetype stop)
        : m_root(root)
        , m_stop(stop)
    {}

    void run()
    {
        auto top = std::make_shared<RuleChain>();
        top->own << ProjectIgnore::defaults();
        addIgnoreFile(*top, m_root + QStringLiteral("/.gitignore"), {});
        addIgnoreFile(*top, m_root + QStringLiteral("/.scalelabignore"), {});
        m_stack.push_back(Pending{m_root, {}, top});
        while (!m_stack.isEmpty() && !out.stopped) {
            const Pending dir = m_stack.takeLast();
            listFolder(dir);
        }
    }

    ProjectWalker::Walk out;

private:
    void listFolder(const Pending &dir)
    {
        std::shared_ptr<const RuleChain> rules = dir.rules;
        if (!dir.relative.isEmpty() && QFileInfo::exists(dir.absolute + QStringLiteral("/.gitignore"))) {
            auto chain = std::make_shared<RuleChain>();
            chain->parent = dir.rules;
            addIgnoreFile(*chain, dir.absolute + QStringLiteral("/.gitignore"), dir.relative);
            rules = chain;
        }
        const QFileInfoList entries =
            QDir(dir.absolute)
                .entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
        for (const QFileInfo &e : entries) {
            if (out.stopped)
                return;
            const QString rel = dir.relative.isEmpty() ? e.fileName() : dir.relative + QLatin1Char('/') + e.fileName();
            take(e, rel, rules);
        }
    }

    void take(const QFileInfo &e, const QString &rel, const std::shared_ptr<const RuleChain> &rules)
    {
        if (hasControlCharacter(e.fileName())) {
            out.skipped << QStringLiteral("%1: the name has a control character").arg(shownName(rel));
            return;
        }
        if (e.isSymLink())
            return takeLink(e, rel, rules);
        const bool isDir = e.isDir();
        if (rules->excluded(rel, isDir)) {
            ++out.excluded;
            return;
        }
        if (isDir) {
            if (QFileInfo::exists(e.absoluteFilePath() + QStringLiteral("/pyvenv.cfg"))) {
                ++out.excluded;   // a virtual environment
                return;
            }
            m_stack.push_back(Pending{e.absoluteFilePath(), rel, rules});
            return;
        }
        if (!e.isFile()) {
            out.skipped << QStringLiteral("%1: not a regular file (a FIFO, socket or device)").arg(rel);
            return;
        }
        addFile(rel, e.absoluteFilePath(), e);
    }

    void takeLink(const QFileInfo &e, const QString &rel, const std::shared_ptr<const RuleChain> &rules)
    {
        const QString target = e.canonicalFilePath();   // "" for a dangling link or a loop
        const QFileInfo t(target);
        if (rules->excluded(rel, t.isDir())) {
            ++out.excluded;
            return;
        }
        if (target.isEmpty() || !t.exists())
            out.skipped << QStringLiteral("%1: a symbolic link to nothing (or a loop of links); left out").arg(rel);
        else if (target != m_root && !target.startsWith(m_root + QLatin1Char('/')))
            out.skipped << QStringLiteral("%1: a symbolic link out of the project folder; left out").arg(rel);
        else if (t.isDir())
            out.skipped << QStringLiteral("%1: a symbolic link to a folder; not followed").arg(rel);
        else if (!t.isFile())
            out.skipped << QStringLiteral("%1: a symbolic link to something not a regular file; left out").arg(rel);
        else
            addFile(rel, target, t);
    }

    void addFile(const QString &rel, const QString &source, const QFileInfo &info)
    {
        if (out.files.size() >= m_stop) {
            out.stopped = true;
            return;
        }
        out.files << ProjectWalker::Entry{rel, source, info.size(), info.permissions().testFlag(QFileDevice::ExeOwner)};
    }

    QString m_root;
    qsizetype m_stop;
    QList<Pending> m_stack;
};

}   // namespace

Result<ProjectWalker::Walk> ProjectWalker::walk(const QString &root, qsizetype stopAfterFiles)
{
    const QFileInfo info(root);
    if (!info.exists())
        return fail(ErrorCode::InvalidValue,
                    QStringLiteral("the project folder %1 does not exist; give an existing folder").arg(root));
    if (!info.isDir())
        return fail(
            ErrorCode::InvalidValue,
            QStringLiteral("the project folder %1 is not a folder; give the folder holding the code").arg(root));
    Walker w(info.canonicalFilePath(), stopAfterFiles);
    w.run();
    return w.out;
}

}   // namespace scalelab
