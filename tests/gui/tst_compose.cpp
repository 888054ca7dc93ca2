// SPDX-License-Identifier: GPL-3.0-or-later
// The Compose place driven like a researcher would: typing into the form,
// clicking diagnostics and Fix buttons, submit gating, spec files.
#include "IsolatedHost.h"
#include "ScreenshotDir.h"
#include "ui/common/AppServices.h"
#include "ui/compose/ComposeFiles.h"
#include "ui/compose/ComposePlace.h"
#include "ui/compose/DiagnosticsPanel.h"
#include "ui/compose/JobForm.h"
#include "core/model/JobSpecJson.h"
#include "ui/common/RecentSpecs.h"
#include "ui/compose/ScriptPreview.h"
#include "ui/compose/StartCostPanel.h"

#if __has_include("ClusterManager.h")
#include "ui/cluster/ClusterManager.h"
#define HAVE_CLUSTERS 1
#endif

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSet>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace scalelab;

class TestCompose : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateFromHost(m_dir, QStringLiteral("tst_compose"));
    }

    void init()
    {
        m_services = std::make_unique<AppServices>();
        QVERIFY2(m_services->storeError().isEmpty(), qPrintable(m_services->storeError()));
        QVERIFY(m_services->profiles().find(QStringLiteral("mahti")));
        m_place = std::make_unique<ComposePlace>(*m_services);
        m_place->resize(1200, 800);
        m_place->show();
        m_place->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_place.get()));
    }

    void cleanup()
    {
        m_place.reset();
#ifdef HAVE_CLUSTERS
        delete m_services->clusters();
#endif
        m_services.reset();
    }

    void typingGpusAndTimeUpdatesPreviewAndDiagnostics()
    {
        selectProfile(QStringLiteral("testbed"));
        typeInto(form()->gpusSpin(), QStringLiteral("8"));
        QCOMPARE(m_place->spec().gpus, 8);
        QVERIFY2(script().contains(QLatin1String("#SBATCH --nodes=2")), qPrintable(script()));

        typeInto(form()->timeEdit(), QStringLiteral("ten minutes"));
        QVERIFY(panel()->itemForRule(QStringLiteral("time-malformed")));
        QVERIFY2(panel()->summaryText().contains(QLatin1String(" error")), qPrintable(panel()->summaryText()));

        typeInto(form()->timeEdit(), QStringLiteral("00:30:00"));
        QVERIFY(!panel()->itemForRule(QStringLiteral("time-malformed")));
        QVERIFY2(script().contains(QLatin1String("#SBATCH --time=00:30:00")), qPrintable(script()));
    }

    void mahtiGpusmallFourGpusOffersPartitionFix()
    {
        selectProfile(QStringLiteral("mahti"));
        selectPartition(QStringLiteral("gpumedium"));
        typeInto(form()->gpusSpin(), QStringLiteral("4"));
        QCOMPARE(m_place->spec().gpus, 4);
        selectPartition(QStringLiteral("gpusmall"));
        QCOMPARE(m_place->spec().gpus, 4);   // not silently clamped

        QVERIFY(panel()->itemForRule(QStringLiteral("partition-gpu-limit")));
        QPushButton *fix = panel()->fixButtonForRule(QStringLiteral("partition-gpu-limit"));
        QVERIFY(fix);
        QVERIFY2(fix->text().contains(QLatin1String("gpumedium")), qPrintable(fix->text()));
        QTest::mouseClick(fix, Qt::LeftButton);

        QCOMPARE(form()->partitionCombo()->currentData().toString(), QStringLiteral("gpumedium"));
        QCOMPARE(m_place->spec().partition, QStringLiteral("gpumedium"));
        QVERIFY(!panel()->itemForRule(QStringLiteral("partition-gpu-limit")));
        QVERIFY(script().contains(QLatin1String("#SBATCH --partition=gpumedium")));
    }

    void clickingDiagnosticFocusesAndMarksItsField()
    {
        selectProfile(QStringLiteral("testbed"));
        typeInto(form()->timeEdit(), QStringLiteral("bogus"));
        QTableWidgetItem *item = panel()->itemForRule(QStringLiteral("time-malformed"));
        QVERIFY(item);
        QTableWidget *table = panel()->tree();
        table->scrollToItem(item);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(item).center());
        QTRY_VERIFY(form()->timeEdit()->hasFocus());
        QCOMPARE(form()->timeEdit()->property("diagnostic").toString(), QStringLiteral("error"));

        // The next validation clears the mark.
        typeInto(form()->timeEdit(), QStringLiteral("01:00:00"));
        QVERIFY(!form()->timeEdit()->property("diagnostic").isValid());
    }

    void importFillsFormAndShowsFindingsWithLines()
    {
        selectProfile(QStringLiteral("mahti"));
        const QString path = QStringLiteral(SCALELAB_TEST_DATA_DIR "/scripts/csc-mahti-ddp-2node.sbatch");
        QCOMPARE(m_place->files()->importScriptFile(path), QString());
        const JobSpec s = m_place->spec();
        QCOMPARE(s.gpus, 8);
        QCOMPARE(s.partition, QStringLiteral("gpumedium"));
        QCOMPARE(s.framework, Framework::PytorchDdp);
        QCOMPARE(form()->gpusSpin()->value(), 8);
        QVERIFY(panel()->hasImported());
        QStringList texts;
        for (int r = 0; r < panel()->tree()->rowCount(); ++r)
            if (auto *it = panel()->tree()->item(r, 0))
                texts << it->text();
        const QString all = texts.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QLatin1String("Imported script csc-mahti-ddp-2node.sbatch")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("line 2:")), qPrintable(all));   // the <project> placeholder

        // Until the next edit.
        typeInto(form()->timeEdit(), QStringLiteral("02:00:00"));
        QVERIFY(!panel()->hasImported());
    }

    // A LUMI script imported under another profile: its partition stays, the
    // site is recognised with a switch offered, and the summary lists what the
    // import changed or dropped.
    void importRecognisesSiteAndKeepsPartition()
    {
        selectProfile(QStringLiteral("mahti"));
        const QString path = QStringLiteral(SCALELAB_TEST_DATA_DIR "/lint/right/torchrun-2node-rdzv-container.sbatch");
        QCOMPARE(m_place->files()->importScriptFile(path), QString());
        QCOMPARE(m_place->spec().partition, QStringLiteral("standard-g"));
        QCOMPARE(form()->partitionCombo()->currentData().toString(), QStringLiteral("standard-g"));
        const QString all = tableText();
        QVERIFY2(all.contains(QLatin1String("This looks like a LUMI-G script (partition standard-g")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("What the import changed or dropped")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("--output (line 10)")), qPrintable(all));
        m_place->grab().save(test::screenshotPath(QStringLiteral("compose-import-site.png")));

        QTableWidgetItem *site = nullptr;
        for (int r = 0; r < panel()->tree()->rowCount() && !site; ++r)
            if (auto *it = panel()->tree()->item(r, 0); it && it->text().startsWith(QLatin1String("This looks like")))
                site = it;
        QVERIFY(site);
        QWidget *cell = panel()->tree()->cellWidget(site->row(), 2);
        auto *fix = cell ? cell->findChild<QPushButton *>() : nullptr;
        QVERIFY(fix);
        QVERIFY2(fix->text().contains(QLatin1String("switch to LUMI")), qPrintable(fix->text()));
        QTest::mouseClick(fix, Qt::LeftButton);
        QCOMPARE(m_place->spec().profile, QStringLiteral("lumi"));
        QCOMPARE(m_place->spec().partition, QStringLiteral("standard-g"));
        QVERIFY(panel()->hasImported());   // read again under LUMI
        QVERIFY(!tableText().contains(QLatin1String("This looks like")));

        // Switching the profile by hand keeps the script's partition as well.
        selectProfile(QStringLiteral("mahti"));
        QCOMPARE(m_place->spec().partition, QStringLiteral("standard-g"));
        selectPartition(QStringLiteral("gpumedium"));
        selectProfile(QStringLiteral("lumi"));
        QCOMPARE(m_place->spec().partition, QString());   // a hand-picked one is not carried over
    }

    void importEveryScriptFillsTheForm_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("profile");
        const QDir dir(QStringLiteral(SCALELAB_TEST_DATA_DIR "/scripts"));
        for (const QString &f : dir.entryList({QStringLiteral("*.sbatch")})) {
            QString profile = QStringLiteral("generic");
            for (const char *id : {"mahti", "puhti", "lumi", "aau", "m3"})
                if (f.contains(QLatin1String(id)))
                    profile = QLatin1String(id) == QLatin1String("aau") ? QStringLiteral("aau-ai-cloud")
                                                                        : QString::fromLatin1(id);
            QTest::newRow(qPrintable(f)) << dir.filePath(f) << profile;
        }
    }

    void importEveryScriptFillsTheForm()
    {
        QFETCH(QString, file);
        QFETCH(QString, profile);
        selectProfile(profile);
        QCOMPARE(m_place->files()->importScriptFile(file), QString());
        const JobSpec s = m_place->spec();
        QVERIFY(s.gpus >= 1);
        QCOMPARE(form()->gpusSpin()->value(), s.gpus);
        QCOMPARE(s.profile, profile);
        QVERIFY(!script().isEmpty());
        QVERIFY(panel()->hasImported());
    }

    // File ▸ Import reads the file's bytes as `scalelab import` does: a
    // byte-order mark (which makes bash's first line "\xEF\xBB\xBF#!/bin/bash")
    // is an error on line 1 of the import, not silently dropped.
    void importOfAFileWithAByteOrderMarkSaysSo()
    {
        const QString path = m_dir.filePath(QStringLiteral("bom.sbatch"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\xEF\xBB\xBF#!/bin/bash\n#SBATCH --partition=gpu\n#SBATCH --gres=gpu:v100:2\n"
                "#SBATCH --time=00:10:00\nsrun python3 train.py\n");
        f.close();
        selectProfile(QStringLiteral("testbed"));
        QCOMPARE(m_place->files()->importScriptFile(path), QString());
        QVERIFY(panel()->hasImported());
        bool found = false;
        QStringList seen;
        for (const Diagnostic &d : panel()->importedDiagnostics()) {
            seen << QStringLiteral("%1:%2").arg(d.rule).arg(d.line);
            found =
                found || (d.rule == QLatin1String("byte-order-mark") && d.severity == Severity::Error && d.line == 1);
        }
        QVERIFY2(found, qPrintable(seen.join(u' ')));
    }

    void submitDisabledOnErrors()
    {
#ifdef HAVE_CLUSTERS
        new ClusterManager(*m_services, m_services.get());
#endif
        QVERIFY(m_place->files()
                    ->openSpecFile(QStringLiteral(SCALELAB_TEST_DATA_DIR "/specs/testbed-ddp-2node.json"))
                    .isEmpty());
        m_place->updateActions();
#ifdef HAVE_CLUSTERS
        QVERIFY2(m_place->submitButton()->isEnabled(), qPrintable(m_place->submitButton()->toolTip()));
#endif
        typeInto(findField<QLineEdit>(QStringLiteral("program")), QString());
        QVERIFY(panel()->itemForRule(QStringLiteral("program-missing")));
        QVERIFY(!m_place->submitButton()->isEnabled());
        QVERIFY(!m_place->dryRunButton()->isEnabled());
#ifdef HAVE_CLUSTERS
        QVERIFY2(m_place->submitButton()->toolTip().contains(QLatin1String("No program to run")),
                 qPrintable(m_place->submitButton()->toolTip()));
#endif
    }

    void specSaveOpenRoundTrip()
    {
        QVERIFY(m_place->files()
                    ->openSpecFile(QStringLiteral(SCALELAB_TEST_DATA_DIR "/specs/mahti-deepspeed-4gpu.json"))
                    .isEmpty());
        const JobSpec original = m_place->spec();
        QCOMPARE(original.partition, QStringLiteral("gpumedium"));
        QCOMPARE(original.environment.modules, QStringList{QStringLiteral("pytorch")});
        const QString path = m_dir.filePath(QStringLiteral("roundtrip.json"));
        QCOMPARE(m_place->files()->saveSpecFile(path), QString());
        typeInto(form()->gpusSpin(), QStringLiteral("8"));
        QVERIFY(m_place->spec() != original);
        QCOMPARE(m_place->files()->openSpecFile(path), QString());
        QCOMPARE(m_place->spec(), original);
        QCOMPARE(RecentSpecs::list().value(0), QFileInfo(path).absoluteFilePath());
    }

    void brokenSpecShowsLineAndColumn()
    {
        const QString path = m_dir.filePath(QStringLiteral("broken.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\n  \"profile\": \"testbed\",\n  \"gpus\": 4,\n  \"gpsu\": 2\n}\n");
        f.close();
        const QString err = m_place->files()->openSpecFile(path);
        QVERIFY2(err.contains(QLatin1String("broken.json:4:")), qPrintable(err));
        QVERIFY(panel()->hasImported());
    }

    void aTimeOverTheLimitOffersAButtonPerRemedy()
    {
        // "Shorten it to 00:15:00 or use partition gpusmall": two remedies, two buttons.
        selectProfile(QStringLiteral("mahti"));
        selectPartition(QStringLiteral("gputest"));
        typeInto(form()->gpusSpin(), QStringLiteral("1"));
        typeInto(form()->timeEdit(), QStringLiteral("02:00:00"));
        QTableWidgetItem *finding = panel()->itemForRule(QStringLiteral("time-exceeded"));
        QVERIFY(finding);
        QVERIFY2(finding->text().contains(QLatin1String("or use partition gpusmall")), qPrintable(finding->text()));
        const QList<QPushButton *> fixes = panel()->fixButtonsForRule(QStringLiteral("time-exceeded"));
        QCOMPARE(fixes.size(), 2);
        QVERIFY2(fixes[0]->text().contains(QLatin1String("set time to 00:15:00")), qPrintable(fixes[0]->text()));
        QCOMPARE(fixes[1]->text(), QStringLiteral("Fix: use gpusmall"));
        m_place->grab().save(test::screenshotPath(QStringLiteral("compose-fix-per-remedy.png")));
        fixes[1]->click();
        QCOMPARE(m_place->spec().partition, QStringLiteral("gpusmall"));
        QCOMPARE(m_place->spec().time, QStringLiteral("02:00:00"));   // the other remedy, not both
        QVERIFY(!panel()->itemForRule(QStringLiteral("time-exceeded")));
    }

    void theFixColumnKeepsItsWidthWhenFixesComeAndGo()
    {
        DiagnosticsPanel alone;
        alone.resize(700, 300);
        alone.show();
        QVERIFY(QTest::qWaitForWindowExposed(&alone));
        QHeaderView *header = alone.tree()->horizontalHeader();
        const int width = header->sectionSize(2);   // no finding yet, so no button
        const Diagnostic over =
            finding(Severity::Error, QStringLiteral("time-exceeded"), QStringLiteral("time"), 0,
                    QStringLiteral("02:00:00 exceeds partition gputest's limit of 00:15:00."),
                    Fix{QStringLiteral("time"), QStringLiteral("00:15:00"), QStringLiteral("set time to 00:15:00")});
        const Fix other{QStringLiteral("partition"), QStringLiteral("gpusmall"), QStringLiteral("use gpusmall")};
        alone.setDiagnostics({over}, QList<QList<Fix>>{QList<Fix>{over.fix, other}});
        settleLayout();
        QCOMPARE(alone.fixButtonsForRule(QStringLiteral("time-exceeded")).size(), 2);
        QCOMPARE(header->sectionSize(2), width);
        alone.setDiagnostics({finding(Severity::Warning, QStringLiteral("no-fix"), QStringLiteral("gpus"), 0,
                                      QStringLiteral("A finding without a fix."))});
        settleLayout();
        QCOMPARE(header->sectionSize(2), width);
        // A label longer than the column is shortened inside it, said whole to a screen reader.
        const QString longName = QStringLiteral("a-partition-with-a-very-long-name-indeed");
        const Diagnostic wide = finding(Severity::Error, QStringLiteral("wide"), QStringLiteral("partition"), 0,
                                        QStringLiteral("Use another partition."),
                                        Fix{QStringLiteral("partition"), longName, QStringLiteral("use ") + longName});
        alone.setDiagnostics({wide});
        settleLayout();
        QPushButton *button = alone.fixButtonForRule(QStringLiteral("wide"));
        QVERIFY(button);
        QCOMPARE(header->sectionSize(2), width);
        QVERIFY2(button->sizeHint().width() <= width, qPrintable(button->text()));
        QCOMPARE(button->accessibleName(), QStringLiteral("Fix: use ") + longName);
    }

    void fixButtonAppliesClearFix()
    {
        selectProfile(QStringLiteral("testbed"));
        typeInto(form()->gpusSpin(), QStringLiteral("2"));
        typeInto(findField<QSpinBox>(QStringLiteral("nodes")), QStringLiteral("2"));
        QPushButton *fix = panel()->fixButtonForRule(QStringLiteral("nodes-spread"));
        QVERIFY(fix);
        QTest::mouseClick(fix, Qt::LeftButton);
        QCOMPARE(m_place->spec().nodes, 0);
    }

private:
    JobForm *form() const
    {
        return m_place->form();
    }
    DiagnosticsPanel *panel() const
    {
        return m_place->diagnosticsPanel();
    }
    QString script() const
    {
        return m_place->preview()->script();
    }
    QString tableText() const
    {
        QStringList texts;
        for (int r = 0; r < panel()->tree()->rowCount(); ++r)
            if (auto *it = panel()->tree()->item(r, 0))
                texts << it->text();
        return texts.join(QLatin1Char('\n'));
    }

    template <typename W>
    W *findField(const QString &name) const
    {
        W *w = qobject_cast<W *>(form()->fieldWidget(name));
        if (!w)
            qFatal("no field %s", qPrintable(name));
        return w;
    }

    void selectProfile(const QString &id)
    {
        QComboBox *c = form()->profileCombo();
        const int i = c->findData(id);
        QVERIFY2(i >= 0, qPrintable(id));
        c->setCurrentIndex(i);
        QCOMPARE(m_place->spec().profile, id);
    }

    void settleLayout()
    {
        for (int i = 0; i < 4; ++i) {
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            QCoreApplication::processEvents();
        }
    }

    void selectPartition(const QString &name)
    {
        QComboBox *c = form()->partitionCombo();
        const int i = c->findData(name);
        QVERIFY2(i >= 0, qPrintable(name));
        c->setCurrentIndex(i);
    }

    // Replaces a field's text the way a researcher does: select all, type.
    void typeInto(QWidget *w, const QString &text)
    {
        w->setFocus();
        QLineEdit *edit = qobject_cast<QLineEdit *>(w);
        if (auto *spin = qobject_cast<QAbstractSpinBox *>(w))
            edit = spin->findChild<QLineEdit *>();
        QVERIFY(edit);
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClicks(edit, text);
    }

    QTemporaryDir m_dir;
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<ComposePlace> m_place;
};

QTEST_MAIN(TestCompose)
#include "tst_compose.moc"
