// SPDX-License-Identifier: GPL-3.0-or-later
// Offscreen screenshots of Compose, Jobs (a failed run selected, its banner
// shown), Connections and Help at 1280×800 and 1100×680, saved as PNG under
// the build folder (screenshots/) for a human to look at.
#include "IsolatedHost.h"
#include "core/model/JobSpecJson.h"
#include "core/store/RunStore.h"
#include "ui/cluster/ConnectionsDialog.h"
#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "ui/compose/ComposePlace.h"
#include "ui/compose/FormHistory.h"
#include "ui/compose/JobForm.h"
#include "ui/jobs/JobsPlace.h"
#include "ui/jobs/RunDetailsView.h"
#include "ui/window/HelpDialog.h"
#include "ui/window/MainWindow.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;

class TestScreenshots : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_out;

    void save(QWidget *w, const QString &name, const QSize &size)
    {
        const QPixmap shot = w->grab();
        const QString path = m_out + QStringLiteral("/%1-%2x%3.png").arg(name).arg(size.width()).arg(size.height());
        QVERIFY2(shot.save(path, "PNG"), qPrintable(path));
        qInfo("%s", qPrintable(path));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateFromHost(m_dir, QStringLiteral("tst_screenshots"));
        qputenv("SCALELAB_SETTINGS_FILE", m_dir.filePath(QStringLiteral("settings.ini")).toUtf8());
        m_out = QStringLiteral(SCALELAB_TEST_BINARY_DIR "/screenshots");
        QVERIFY(QDir().mkpath(m_out));
    }

    void places_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1100x680") << QSize(1100, 680);
    }

    void places()
    {
        QFETCH(QSize, size);
        AppServices services;
        services.setConnectionsDialogFactory(
            [](AppServices &s, QWidget *parent) -> QDialog * { return new ConnectionsDialog(s, parent); });
        // A failed run with its output, and a running one.
        RunStore &store = services.store();
        JobSpec spec;
        spec.profile = QStringLiteral("testbed");
        spec.partition = QStringLiteral("gpu");
        spec.gpus = 4;
        spec.time = QStringLiteral("00:30:00");
        spec.program = QStringLiteral("/home/researcher/train.py");
        RunRecord r;
        r.profile = QStringLiteral("testbed");
        r.clusterAlias = QStringLiteral("testbed");
        r.gpus = 4;
        r.specJson = jobSpecToJson(spec);
        r.script = QStringLiteral("#!/bin/bash\nsrun python3 /home/researcher/train.py\n");
        const qint64 failed = store.createRun(r).value().id;
        QVERIFY(store.markSubmitted(failed, QStringLiteral("4121")).ok());
        QVERIFY(store.updateState(failed, JobState::Running, {}, QDateTime::currentDateTimeUtc().addSecs(-300)).ok());
        QVERIFY(store.updateState(failed, JobState::Failed, {}, QDateTime::currentDateTimeUtc().addSecs(-200)).ok());
        QVERIFY(QDir().mkpath(store.runFilesDirectory(failed)));
        QFile::copy(QStringLiteral(SCALELAB_TEST_DATA_DIR "/failures/torchrun-valueerror.out"),
                    store.runFilesDirectory(failed) + QStringLiteral("/scalelab-4121.out"));
        const qint64 running = store.createRun(r).value().id;
        QVERIFY(store.markSubmitted(running, QStringLiteral("4122")).ok());
        QVERIFY(store.updateState(running, JobState::Running, {}, QDateTime::currentDateTimeUtc().addSecs(-720)).ok());
        QVERIFY(store.createRun(r).ok());   // not sent yet

        MainWindow window(services);
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ComposePlace *compose = window.compose();
        QTRY_VERIFY(compose->isVisible());
        JobSpec s = compose->spec();
        s.profile = QStringLiteral("puhti");
        s.partition = QStringLiteral("gpu");
        s.gpus = 8;
        s.account = QStringLiteral("project_2001234");
        s.program = QStringLiteral("/scratch/project_2001234/train.py");
        s.time = QStringLiteral("02:00:00");
        compose->loadSpec(s);
        compose->form()->gpusSpin()->setFocus();
        compose->form()->gpusSpin()->setValue(12);   // an edit: the title shows the mark
        QCOMPARE(window.size(), size);
        save(&window, QStringLiteral("compose"), size);

        window.showPlace(MainWindow::JobsIndex);
        auto *jobs = qobject_cast<JobsPlace *>(window.place(MainWindow::JobsIndex));
        QVERIFY(jobs);
        QTRY_VERIFY(jobs->isVisible());
        QTRY_VERIFY(!jobs->isLoading());   // the tree is read on a pool thread
        QVERIFY(jobs->selectRun(failed));
        QTRY_VERIFY(jobs->details()->failureBanner()->isVisible());
        save(&window, QStringLiteral("jobs"), size);

        services.setCurrentProfile(QStringLiteral("testbed"));
        auto *connections = new ConnectionsDialog(services, &window);
        connections->resize(std::min(size.width() - 80, 760), std::min(size.height() - 60, 640));
        connections->show();
        QVERIFY(QTest::qWaitForWindowExposed(connections));
        save(connections, QStringLiteral("connections"), size);
        delete connections;

        window.showHelp(HelpDialog::GuidePage);
        QVERIFY(QTest::qWaitForWindowExposed(window.helpDialog()));
        save(window.helpDialog(), QStringLiteral("help-guide"), size);
        window.showHelp(HelpDialog::ShortcutsPage);
        save(window.helpDialog(), QStringLiteral("help-shortcuts"), size);
        window.helpDialog()->close();
        compose->history()->reset(false);   // nothing to ask on close
    }
};

QTEST_MAIN(TestScreenshots)
#include "tst_screenshots.moc"
