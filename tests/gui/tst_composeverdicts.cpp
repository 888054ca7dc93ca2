// SPDX-License-Identifier: GPL-3.0-or-later
// Compose's words belong to what they describe: the dry-run verdict is a
// finding of the script it was asked about, banners go with the file or
// profile they were written for, and the header counts the rows shown.
#include "IdleClusterService.h"
#include "IsolatedHost.h"
#include "ScreenshotDir.h"
#include "ui/common/AppServices.h"
#include "ui/compose/ComposeFiles.h"
#include "ui/compose/ComposePlace.h"
#include "ui/compose/DiagnosticsPanel.h"
#include "ui/compose/JobForm.h"
#include "ui/compose/ScriptPreview.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidgetItem>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace scalelab;

class TestComposeVerdicts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateFromHost(m_dir, QStringLiteral("tst_composeverdicts"));
    }

    void init()
    {
        m_services = std::make_unique<AppServices>();
        QVERIFY2(m_services->storeError().isEmpty(), qPrintable(m_services->storeError()));
        m_clusters = std::make_unique<test::IdleClusterService>();
        m_services->setClusters(m_clusters.get());
        m_place = std::make_unique<ComposePlace>(*m_services);
        m_place->resize(1200, 800);
        m_place->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_place.get()));
        QVERIFY(m_place->files()
                    ->openSpecFile(QStringLiteral(SCALELAB_TEST_DATA_DIR "/specs/testbed-ddp-2node.json"))
                    .isEmpty());
        m_place->updateActions();
        QVERIFY2(m_place->submitButton()->isEnabled(), qPrintable(m_place->submitButton()->toolTip()));
    }

    void cleanup()
    {
        m_place.reset();
        m_services.reset();
        m_clusters.reset();
    }

    // A dry run that finds the program missing is an error in the list that
    // blocks Submit, never "ready to submit" beside an enabled button.
    void failedDryRunIsAnErrorThatBlocksSubmit()
    {
        m_place->dryRun();
        Q_EMIT m_clusters->dryRunFinished(QStringLiteral("sbatch: Job 7 to start at 2026-11-27T12:00:00\n"
                                                         "Program train.py not found on the cluster."),
                                          false);
        QVERIFY(panel()->itemForRule(QStringLiteral("dry-run")));
        QCOMPARE(countOf(panel()->diagnostics(), Severity::Error), 1);
        QVERIFY2(!panel()->summaryText().contains(QLatin1String("ready to submit")),
                 qPrintable(panel()->summaryText()));
        QVERIFY(!m_place->submitButton()->isEnabled());
        QVERIFY2(m_place->submitButton()->toolTip().contains(QLatin1String("not found")),
                 qPrintable(m_place->submitButton()->toolTip()));
        m_place->grab().save(test::screenshotPath(QStringLiteral("compose-dryrun-failed.png")));
        // Another job: the verdict was about the old script and goes.
        auto *gpus = qobject_cast<QSpinBox *>(m_place->form()->fieldWidget(QStringLiteral("gpus")));
        QVERIFY(gpus);
        gpus->setValue(gpus->value() == 1 ? 2 : 1);
        QVERIFY(!panel()->itemForRule(QStringLiteral("dry-run")));
        QVERIFY(m_place->submitButton()->isEnabled());
    }

    void passedDryRunIsANoteAndSubmitStaysOn()
    {
        m_place->dryRun();
        Q_EMIT m_clusters->dryRunFinished(QStringLiteral("sbatch: Job 7 to start now"), true);
        QTableWidgetItem *item = panel()->itemForRule(QStringLiteral("dry-run"));
        QVERIFY(item);
        QVERIFY(item->text().contains(QLatin1String("Job 7 to start now")));
        QVERIFY(m_place->submitButton()->isEnabled());
        QVERIFY(verdict()->text().isEmpty());   // said once, in the list
    }

    void bannersGoOnOpenImportAndProfileSwitch()
    {
        const QString spec = QStringLiteral(SCALELAB_TEST_DATA_DIR "/specs/testbed-ddp-2node.json");
        m_place->submit();
        QVERIFY2(verdict()->text().contains(QLatin1String("Submitting")), qPrintable(verdict()->text()));
        QVERIFY(m_place->files()->openSpecFile(spec).isEmpty());
        QCOMPARE(verdict()->text(), QString());

        Q_EMIT m_clusters->submitFinished(QStringLiteral("Submitted job 12 on testbed."), true);
        QVERIFY(!verdict()->text().isEmpty());
        QVERIFY(m_place->files()
                    ->importScriptFile(QStringLiteral(SCALELAB_TEST_DATA_DIR "/scripts/csc-mahti-ddp-2node.sbatch"))
                    .isEmpty());
        QCOMPARE(verdict()->text(), QString());

        QVERIFY(m_place->files()->openSpecFile(spec).isEmpty());
        m_place->dryRun();
        QVERIFY(!verdict()->text().isEmpty());
        QComboBox *profiles = m_place->form()->profileCombo();
        const int other = profiles->findData(QStringLiteral("mahti"));
        QVERIFY(other >= 0);
        profiles->setCurrentIndex(other);
        QCOMPARE(verdict()->text(), QString());
        // The answer about the testbed job arrives late: not shown for mahti.
        Q_EMIT m_clusters->dryRunFinished(QStringLiteral("Program train.py not found."), false);
        QVERIFY(!panel()->itemForRule(QStringLiteral("dry-run")));
    }

    // After any import the header's counts are those of the rows listed.
    void importHeaderCountsTheRowsShown()
    {
        QDir dir(QStringLiteral(SCALELAB_TEST_DATA_DIR "/scripts"));
        const QStringList scripts = dir.entryList({QStringLiteral("*.sbatch")});
        QVERIFY(!scripts.isEmpty());
        for (const QString &f : scripts) {
            QVERIFY(m_place->files()->importScriptFile(dir.filePath(f)).isEmpty());
            Diagnostics shown = panel()->diagnostics();
            shown << panel()->importedDiagnostics() << panel()->importSummaryDiagnostics();
            const int e = countOf(shown, Severity::Error);
            const int w = countOf(shown, Severity::Warning);
            const QString summary = panel()->summaryText();
            if (e == 0 && w == 0) {
                QVERIFY2(summary.contains(QLatin1String("No errors or warnings")), qPrintable(f + summary));
                continue;
            }
            const QString warnings = w == 1 ? QStringLiteral("1 warning") : QStringLiteral("%1 warnings").arg(w);
            QVERIFY2(summary.contains(warnings), qPrintable(f + QLatin1String(": ") + summary));
            if (e > 0)
                QVERIFY2(summary.contains(e == 1 ? QStringLiteral("1 error") : QStringLiteral("%1 errors").arg(e)),
                         qPrintable(f + QLatin1String(": ") + summary));
        }
    }

private:
    DiagnosticsPanel *panel() const { return m_place->diagnosticsPanel(); }
    QLabel *verdict() const
    {
        for (QLabel *l : m_place->findChildren<QLabel *>())
            if (l->accessibleName() == QLatin1String("Last dry run or submit result"))
                return l;
        qFatal("no verdict label");
    }

    QTemporaryDir m_dir;
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<test::IdleClusterService> m_clusters;
    std::unique_ptr<ComposePlace> m_place;
};

QTEST_MAIN(TestComposeVerdicts)
#include "tst_composeverdicts.moc"
