// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/RunOverlaps.h"

#include <QDateTime>
#include <QSet>

#include <algorithm>

namespace scalelab {

namespace {

// "tb-node[1-3,5],gpu7" -> tb-node1 tb-node2 tb-node3 tb-node5 gpu7 (Slurm's
// hostlist form; one bracket group per name, zero padding kept).
QStringList expandNodeList(const QString &list)
{
    QStringList names, out;
    int depth = 0;
    QString cur;
    for (const QChar c : list) {
        if (c == u'[')
            ++depth;
        if (c == u']')
            --depth;
        if (c == u',' && depth == 0) {
            names << cur;
            cur.clear();
        } else {
            cur += c;
        }
    }
    names << cur;
    for (const QString &n : std::as_const(names)) {
        const qsizetype open = n.indexOf(u'['), close = n.indexOf(u']');
        if (open < 0 || close < open) {
            if (!n.trimmed().isEmpty() && n.trimmed() != QLatin1String("None assigned"))
                out << n.trimmed();
            continue;
        }
        const QString stem = n.left(open), tail = n.mid(close + 1);
        for (const QString &part : n.mid(open + 1, close - open - 1).split(u',')) {
            const QString from = part.section(u'-', 0, 0), to = part.section(u'-', 1, 1);
            bool ok1 = false, ok2 = true;
            const int a = from.toInt(&ok1), b = to.isEmpty() ? a : to.toInt(&ok2);
            if (!ok1 || !ok2 || b < a || b - a > 4096)
                continue;
            for (int i = a; i <= b; ++i)
                out << stem + QStringLiteral("%1").arg(i, int(from.size()), 10, QLatin1Char('0')) + tail;
        }
    }
    return out;
}

}   // namespace

QList<RunOverlap> RunOverlaps::find(const QList<ScalingRun> &runs)
{
    struct Span {
        const ScalingRun *run;
        QDateTime start, end;
        QSet<QString> nodes;
    };
    QList<Span> spans;
    for (const ScalingRun &r : runs) {
        const QDateTime s = QDateTime::fromString(r.start, Qt::ISODate), e = QDateTime::fromString(r.end, Qt::ISODate);
        QSet<QString> nodes;
        for (const QString &n : r.nodes)
            for (const QString &x : expandNodeList(n))
                nodes.insert(x);
        if (s.isValid() && e.isValid() && e > s && !nodes.isEmpty())
            spans.append({&r, s, e, nodes});
    }
    QList<RunOverlap> out;
    for (qsizetype i = 0; i < spans.size(); ++i)
        for (qsizetype j = i + 1; j < spans.size(); ++j) {
            const Span &a = spans[i], &b = spans[j];
            if (!(a.start < b.end && b.start < a.end))
                continue;
            QSet<QString> shared = a.nodes;
            shared.intersect(b.nodes);
            if (shared.isEmpty())
                continue;
            QStringList names(shared.begin(), shared.end());
            names.sort();
            const qint64 secs = std::max(a.start, b.start).secsTo(std::min(a.end, b.end));
            out.append({a.run->label, b.run->label, names, secs});
        }
    return out;
}

}   // namespace scalelab
