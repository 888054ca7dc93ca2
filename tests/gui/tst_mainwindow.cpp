// SPDX-License-Identifier: GPL-3.0-or-later
// The window shell: places, shortcuts, status bar, accessible names, and the
// `scalelab --screenshot` command of the real binary.
#include "IsolatedHost.h"
#include "ui/common/AppServices.h"
#include "ui/compose/ComposePlace.h"
#include "ui/window/MainWindow.h"
#include "ui/results/ResultsPlace.h"
#include "ui/compose/ScriptPreview.h"
#include "ui/common/StartupStyle.h"
#include "ui/cluster/ConnectionsDialog.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QGuiApplication>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPointer>
#include <QProcess>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace scalelab;

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateFromHost(m_dir, QStringLiteral("tst_mainwindow"));
        m_services = std::make_unique<AppServices>();
        m_window = std::make_unique<MainWindow>(*m_services);
        m_window->show();
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    }

    void cleanupTestCase()
    {
        m_window.reset();
        m_services.reset();
    }

    void ctrlNumbersSwitchPlaces()
    {
        QCOMPARE(m_window->places()->currentIndex(), 0);
        QTest::keyClick(m_window.get(), Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(m_window->places()->currentIndex(), 1);
        QVERIFY(m_window->place(1));
        QTest::keyClick(m_window.get(), Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(m_window->places()->currentIndex(), 2);
        QTest::keyClick(m_window.get(), Qt::Key_1, Qt::ControlModifier);
        QCOMPARE(m_window->places()->currentIndex(), 0);
    }

    void resultsPlaceIsBuiltOnFirstUse()
    {
        AppServices services;
        MainWindow window(services);
        QVERIFY(!window.places()->widget(MainWindow::ResultsIndex)->findChild<ResultsPlace *>());
        QVERIFY(qobject_cast<ResultsPlace *>(window.place(MainWindow::ResultsIndex)));
        QCOMPARE(window.places()->widget(MainWindow::ResultsIndex)->findChildren<ResultsPlace *>().size(), 1);
    }

    void connectionsDialogComesFromTheFactory()
    {
        AppServices services;
        QCOMPARE(services.openConnections(nullptr).errorText(), QStringLiteral("this build has no connections dialog"));
        QPointer<QDialog> opened;
        services.setConnectionsDialogFactory([&opened](AppServices &s, QWidget *parent) -> QDialog * {
            opened = new ConnectionsDialog(s, parent);
            return opened;
        });
        QCOMPARE(services.openConnections(m_window.get()).errorText(), QString());
        QVERIFY(opened);
        QVERIFY(opened->isVisible());
        QVERIFY(opened->testAttribute(Qt::WA_DeleteOnClose));
        opened->reject();
        QTRY_VERIFY(!opened);
    }

    void brokenStoreIsReportedAfterTheFormIsBuilt()
    {
        // A data directory that cannot exist (under a regular file).
        QFile blocker(m_dir.filePath(QStringLiteral("not-a-dir")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const QByteArray saved = qgetenv("SCALELAB_DATA_DIR");
        qputenv("SCALELAB_DATA_DIR", blocker.fileName().toUtf8() + "/data");
        AppServices services;
        MainWindow window(services);
        window.show();
        QTRY_VERIFY(window.compose());
        QTRY_VERIFY2(window.statusBar()->currentMessage().contains(QLatin1String("run store could not be opened")),
                     qPrintable(window.statusBar()->currentMessage()));
        qputenv("SCALELAB_DATA_DIR", saved);
        window.close();
        m_window->activateWindow();   // the shortcut tests below need it
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    }

    void openSpecRequestLoadsComposeAndSwitches()
    {
        m_window->showPlace(MainWindow::ResultsIndex);
        JobSpec s;
        s.profile = QStringLiteral("puhti");
        s.partition = QStringLiteral("gpu");
        s.gpus = 8;
        s.time = QStringLiteral("02:00:00");
        s.program = QStringLiteral("train.py");
        Q_EMIT m_services->openSpecRequested(s);
        QCOMPARE(m_window->places()->currentIndex(), 0);
        QCOMPARE(m_window->compose()->spec().gpus, 8);
        QCOMPARE(m_window->compose()->spec().profile, QStringLiteral("puhti"));
    }

    void copyScriptShortcut()
    {
        QGuiApplication::clipboard()->clear();
        QTest::keyClick(m_window.get(), Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE(QGuiApplication::clipboard()->text(), m_window->compose()->preview()->script());
        QVERIFY(QGuiApplication::clipboard()->text().startsWith(QLatin1String("#!/bin/bash")));
    }

    void shortcutsAndMenusExist()
    {
        const QList<QPair<QString, QKeySequence>> expected{
            {QStringLiteral("submit"), QKeySequence(QStringLiteral("Ctrl+Return"))},
            {QStringLiteral("dryRun"), QKeySequence(QStringLiteral("Ctrl+Shift+Return"))},
            {QStringLiteral("copyScript"), QKeySequence(QStringLiteral("Ctrl+Shift+C"))},
            {QStringLiteral("openSpec"), QKeySequence(QKeySequence::Open)},
            {QStringLiteral("saveSpec"), QKeySequence(QKeySequence::Save)},
            {QStringLiteral("importScript"), QKeySequence(QStringLiteral("Ctrl+I"))},
            {QStringLiteral("showJobs"), QKeySequence(QStringLiteral("Ctrl+2"))},
        };
        for (const auto &[name, key] : expected) {
            QAction *a = m_window->action(name);
            QVERIFY2(a, qPrintable(name));
            QVERIFY2(a->shortcuts().contains(key), qPrintable(name));
        }
        QVERIFY(m_window->action(QStringLiteral("about")));
        QVERIFY(m_window->findChild<QMenu *>(QStringLiteral("recentSpecs")));
    }

    void connectionStatusInStatusBar()
    {
        m_window->setConnectionStatus(QStringLiteral("testbed"),
                                      QStringLiteral("testbed: connected · last poll 12:01:05"));
        m_window->setConnectionStatus(QStringLiteral("testbed"),
                                      QStringLiteral("testbed: connected · last poll 12:01:35"));
        QCOMPARE(m_window->connectionStatusText(), QStringLiteral("testbed: connected · last poll 12:01:35"));
    }

    void everyControlHasAnAccessibleName()
    {
        m_window->showPlace(MainWindow::ComposeIndex);
        QStringList missing;
        const auto widgets = m_window->compose()->findChildren<QWidget *>();
        for (QWidget *w : widgets) {
            const bool control =
                qobject_cast<QAbstractButton *>(w) || qobject_cast<QComboBox *>(w)
                || qobject_cast<QAbstractSpinBox *>(w)
                || (qobject_cast<QLineEdit *>(w) && !qobject_cast<QAbstractSpinBox *>(w->parentWidget())
                    && !qobject_cast<QComboBox *>(w->parentWidget()));
            if (control && w->accessibleName().isEmpty() && !w->inherits("QScrollBar")
                && !w->inherits("QTableCornerButton"))
                missing << QStringLiteral("%1 %2 '%3'")
                               .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(),
                                    w->property("text").toString());
        }
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1Char('\n'))));
    }

    void screenshotCommandWritesPng_data()
    {
        QTest::addColumn<QString>("place");
        QTest::addColumn<QString>("spec");
        QTest::newRow("compose") << QStringLiteral("compose")
                                 << QStringLiteral(SCALELAB_TEST_DATA_DIR "/specs/testbed-ddp-2node.json");
        QTest::newRow("jobs") << QStringLiteral("jobs") << QString();
        QTest::newRow("results") << QStringLiteral("results") << QString();
    }

    void screenshotCommandWritesPng()
    {
        QFETCH(QString, place);
        QFETCH(QString, spec);
        const QString out = m_dir.filePath(place + QStringLiteral(".png"));
        QStringList args{QStringLiteral("--screenshot"), out,
                         QStringLiteral("--place"),      place,
                         QStringLiteral("--size"),       QStringLiteral("900x640")};
        if (!spec.isEmpty())
            args << QStringLiteral("--spec") << spec;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SCALELAB_BINARY), args);
        QVERIFY(p.waitForFinished(30000));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitCode() == 0, err.constData());
        QVERIFY2(!err.contains("scalelab:"), err.constData());
        const QImage img(out);
        QVERIFY(!img.isNull());
        QCOMPARE(img.size(), QSize(900, 640));
        QVERIFY(QFileInfo(out).size() > 10000);
    }

    void deferredMenuChevronDrawsTheBaseStylesIcon()
    {
        StartupStyle style(QStringLiteral("Fusion"));
        const QIcon deferred = style.standardIcon(QStyle::SP_ToolBarHorizontalExtensionButton);
        const QIcon base = style.baseStyle()->standardIcon(QStyle::SP_ToolBarHorizontalExtensionButton);
        QVERIFY(!deferred.isNull());
        QCOMPARE(deferred.pixmap(16).toImage(), base.pixmap(16).toImage());
        // Every other icon is the base style's own.
        QCOMPARE(style.standardIcon(QStyle::SP_DialogOkButton).pixmap(16).toImage(),
                 style.baseStyle()->standardIcon(QStyle::SP_DialogOkButton).pixmap(16).toImage());
    }

    void realBinaryStartsTheClusterLayerAfterTheWindow()
    {
        // The path a researcher's start takes: first frame, the Compose form
        // painted, ClusterManager created, then a normal quit.
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("SCALELAB_EXIT_AFTER_SHOWN"), QStringLiteral("clusters"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SCALELAB_BINARY), QStringList());
        QVERIFY(p.waitForFinished(30000));
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
        QVERIFY2(out.contains("clusters started"), out.constData());
    }

    void screenshotRejectsBadSize()
    {
        QProcess p;
        p.start(QStringLiteral(SCALELAB_BINARY),
                {QStringLiteral("--screenshot"), m_dir.filePath(QStringLiteral("x.png")), QStringLiteral("--size"),
                 QStringLiteral("huge")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("--size"));
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
