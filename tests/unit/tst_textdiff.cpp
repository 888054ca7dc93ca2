// SPDX-License-Identifier: GPL-3.0-or-later
// Line diff (Myers) used by the run comparison, and the study notes that
// hold a study's user metric patterns.

#include "core/ingest/StudyMetricPatterns.h"
#include "core/base/TextDiff.h"

#include <QTest>

using namespace scalelab;

class TestTextDiff : public QObject {
    Q_OBJECT
private:
    // Applying the diff to the left side must give the right side.
    static void checkConsistent(const QStringList &a, const QStringList &b, const TextDiffResult &d)
    {
        QStringList left, right;
        for (const DiffLine &l : d.lines) {
            if (l.kind != DiffLine::Kind::Added)
                left << l.text;
            if (l.kind != DiffLine::Kind::Removed)
                right << l.text;
        }
        QCOMPARE(left, a);
        QCOMPARE(right, b);
    }

private Q_SLOTS:
    void identical()
    {
        const TextDiffResult d = TextDiff::diff(QStringLiteral("a\nb\nc\n"), QStringLiteral("a\nb\nc\n"));
        QVERIFY(d.identical());
        QCOMPARE(d.lines.size(), 3);
        QCOMPARE(d.lines[2].leftLine, 3);
        QCOMPARE(d.lines[2].rightLine, 3);
    }

    void emptySides()
    {
        TextDiffResult d = TextDiff::diff({}, QStringLiteral("x\ny"));
        QCOMPARE(d.added, 2);
        QCOMPARE(d.removed, 0);
        d = TextDiff::diff(QStringLiteral("x\ny"), {});
        QCOMPARE(d.removed, 2);
        QVERIFY(TextDiff::diff({}, {}).identical());
    }

    void changedLine()
    {
        const QStringList a{"#!/bin/bash", "#SBATCH --gpus-per-node=1", "module load pytorch", "srun python train.py"};
        const QStringList b{"#!/bin/bash", "#SBATCH --gpus-per-node=4", "#SBATCH --nodes=1", "module load pytorch",
                            "srun python train.py"};
        const TextDiffResult d = TextDiff::diffLines(a, b);
        QCOMPARE(d.removed, 1);
        QCOMPARE(d.added, 2);
        QCOMPARE(d.toText(), QStringLiteral("  #!/bin/bash\n- #SBATCH --gpus-per-node=1\n+ #SBATCH --gpus-per-node=4\n"
                                            "+ #SBATCH --nodes=1\n  module load pytorch\n  srun python train.py\n"));
        QCOMPARE(d.lines[1].leftLine, 2);
        QCOMPARE(d.lines[1].rightLine, 0);
        QCOMPARE(d.lines[3].rightLine, 3);
        checkConsistent(a, b, d);
    }

    void minimalOnClassicExample()
    {
        // Myers' paper: ABCABBA -> CBABAC has edit distance 5.
        const QStringList a{"A", "B", "C", "A", "B", "B", "A"};
        const QStringList b{"C", "B", "A", "B", "A", "C"};
        const TextDiffResult d = TextDiff::diffLines(a, b);
        QCOMPARE(d.added + d.removed, 5);
        checkConsistent(a, b, d);
    }

    void randomisedConsistency()
    {
        quint32 seed = 12345;
        auto next = [&seed] {
            seed = seed * 1664525u + 1013904223u;
            return seed >> 16;
        };
        for (int round = 0; round < 200; ++round) {
            QStringList a, b;
            const int n = int(next() % 30), m = int(next() % 30);
            for (int i = 0; i < n; ++i)
                a << QString::number(next() % 5);
            for (int i = 0; i < m; ++i)
                b << QString::number(next() % 5);
            checkConsistent(a, b, TextDiff::diffLines(a, b));
        }
    }

    void largeDifferentTextsStayBounded()
    {
        QStringList a, b;
        for (int i = 0; i < 6000; ++i) {
            a << QStringLiteral("left %1").arg(i);
            b << QStringLiteral("right %1").arg(i);
        }
        const TextDiffResult d = TextDiff::diffLines(a, b);
        QCOMPARE(d.removed, 6000);
        QCOMPARE(d.added, 6000);
        checkConsistent(a, b, d);
    }

    void studyNotesRoundTrip()
    {
        MetricPattern p;
        p.name = QStringLiteral("val_f1");
        p.regex = QStringLiteral("val_f1=([0-9.]+)");
        p.unit = QString();
        p.aggregation = MetricAggregation::Max;
        const QString notes = StudyMetricPatterns::write(QStringLiteral("a researcher's notes"), {p});
        const StudyNotesContent c = StudyMetricPatterns::read(notes);
        QCOMPARE(c.text, QStringLiteral("a researcher's notes"));
        QCOMPARE(c.patterns.size(), 1);
        QCOMPARE(c.patterns[0].name, p.name);
        QCOMPARE(c.patterns[0].regex, p.regex);
        QCOMPARE(c.patterns[0].aggregation, MetricAggregation::Max);
        QVERIFY(c.diagnostics.isEmpty());
        // Plain notes stay plain, both ways.
        QCOMPARE(StudyMetricPatterns::read(QStringLiteral("{not json")).text, QStringLiteral("{not json"));
        QCOMPARE(StudyMetricPatterns::write(QStringLiteral("just text"), {}), QStringLiteral("just text"));
    }

    void studyNotesBadEntriesAreNamed()
    {
        const char *json =
            R"J({"metricPatterns": [{"name": "x"}, {"name": "y", "regex": "y=(\\d+)", "aggregation": "median"}]})J";
        const StudyNotesContent c = StudyMetricPatterns::read(QString::fromUtf8(json));
        QCOMPARE(c.patterns.size(), 1);
        QCOMPARE(c.patterns[0].aggregation, MetricAggregation::Last);
        QCOMPARE(c.diagnostics.size(), 2);
        QVERIFY(c.diagnostics[0].message.contains(QStringLiteral("metricPatterns[0] needs a name and a regex")));
        QCOMPARE(c.diagnostics[1].field, QStringLiteral("metricPatterns[1].aggregation"));
    }
};

QTEST_GUILESS_MAIN(TestTextDiff)
#include "tst_textdiff.moc"
