// SPDX-License-Identifier: GPL-3.0-or-later
// A broken profile in the user's folder (issue 11, F1): the window still
// opens, the good profiles stay usable and the broken file is listed greyed
// out with its error. A broken file that overrides a shipped profile keeps
// that profile out of use: Compose names the file and line instead of
// quietly using the shipped copy. Saves screenshots of the list for a human
// to look at.
#include "IsolatedHost.h"
#include "ScreenshotDir.h"
#include "ui/common/AppServices.h"
#include "ui/compose/ComposePlace.h"
#include "ui/compose/DiagnosticsPanel.h"
#include "ui/compose/ScriptPreview.h"
#include "ui/compose/JobForm.h"
#include "ui/window/MainWindow.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace scalelab;

class TestBrokenProfile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateFromHost(m_dir, QStringLiteral("tst_brokenprofile"));
        const QString profiles = m_dir.filePath(QStringLiteral("profiles"));
        QVERIFY(QDir().mkpath(profiles));
        m_bad = QDir(profiles).filePath(QStringLiteral("my-site.json"));
        QFile f(m_bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\n  \"id\": \"my-site\",\n  \"name\": \"My site\",\n  \"gpuTypes\": [{\"id\": \"a100\", "
                "\"memoryGB\": 1e999}]\n}\n");
        f.close();
        // The researcher's own testbed.json, meant to replace the shipped one.
        m_badOverride = QDir(profiles).filePath(QStringLiteral("testbed.json"));
        QFile o(m_badOverride);
        QVERIFY(o.open(QIODevice::WriteOnly));
        o.write("{\n  \"id\": \"testbed\",\n  \"name\": \"My testbed\",\n  \"partitions\": [,]\n}\n");
        o.close();
        qputenv("SCALELAB_USER_PROFILE_DIR", profiles.toUtf8());
        m_services = std::make_unique<AppServices>();
        m_window = std::make_unique<MainWindow>(*m_services);
        m_window->resize(1200, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanupTestCase()
    {
        m_window.reset();
        m_services.reset();
    }

    void goodProfilesStayUsableAndTheBrokenOneIsGreyed()
    {
        auto *compose = qobject_cast<ComposePlace *>(m_window->place(MainWindow::ComposeIndex));
        QVERIFY(compose);
        QComboBox *combo = compose->form()->profileCombo();
        auto *model = qobject_cast<QStandardItemModel *>(combo->model());
        QVERIFY(model);
        const int good = int(m_services->profiles().profiles().size());
        QCOMPARE(good, 6);   // profiles/*.json of the repository but testbed, overridden by a broken file
        QCOMPARE(combo->count(), good + 2);
        // The selection is a loadable profile, never the broken file.
        QVERIFY(compose->form()->profile());
        QVERIFY(!combo->currentData().toString().isEmpty());

        QStandardItem *broken = model->item(good);
        QVERIFY(broken);
        QVERIFY(!broken->isEnabled());
        QCOMPARE(broken->data(JobForm::kBrokenProfileRole).toBool(), true);
        QCOMPARE(broken->text(), QStringLiteral("my-site.json — cannot be used: 4:43: malformed JSON: number overflow "
                                                "parsing '1e999': the number is too large; write a smaller value"));
        QCOMPARE(broken->toolTip(), m_bad
                                        + QStringLiteral(":4:43: malformed JSON: number overflow parsing '1e999': "
                                                         "the number is too large; write a smaller value"));
        QStandardItem *override = model->item(good + 1);
        QVERIFY(override && !override->isEnabled());
        QVERIFY2(override->text().startsWith(QStringLiteral("testbed.json — cannot be used: 4:")),
                 qPrintable(override->text()));
        for (int i = 0; i < good; ++i) {
            QVERIFY(model->item(i)->isEnabled());
            QVERIFY(model->item(i)->data(Qt::UserRole).toString() != QLatin1String("testbed"));
        }

        // The form is built after the window's first frame: the picture waits for it.
        QTRY_VERIFY(compose->form()->isVisible());
        QTest::qWait(100);
        const QImage shot = m_window->grab().toImage();
        // Not a blank place: the form's own pixels differ from the window's background.
        const QRgb background = shot.pixel(shot.width() / 2, shot.height() - 5);
        int differing = 0;
        for (int y = 60; y < shot.height(); y += 7)
            for (int x = 0; x < shot.width(); x += 7)
                differing += shot.pixel(x, y) != background;
        QVERIFY2(differing > 500, "the window shows an empty Compose place");
        QVERIFY(shot.save(test::screenshotPath(QStringLiteral("broken-profile-window.png"))));
        combo->showPopup();
        QAbstractItemView *view = combo->view();
        QVERIFY(QTest::qWaitForWindowExposed(view->window()));
        QVERIFY(view->window()->grab().save(test::screenshotPath(QStringLiteral("broken-profile-list.png"))));
        combo->hidePopup();
    }

    void aSpecOnTheBrokenOverrideNamesTheFile()
    {
        auto *compose = qobject_cast<ComposePlace *>(m_window->place(MainWindow::ComposeIndex));
        QVERIFY(compose);
        QVERIFY(!m_services->profiles().find(QStringLiteral("testbed")));
        JobSpec spec = compose->spec();
        spec.profile = QStringLiteral("testbed");
        compose->loadSpec(spec);
        QCOMPARE(compose->form()->profileCombo()->currentText(), QStringLiteral("testbed — its file is broken"));
        QVERIFY(!compose->form()->profile());
        const Diagnostics diags = compose->diagnosticsPanel()->diagnostics();
        QVERIFY(!diags.isEmpty());
        const Diagnostic &d = diags.front();
        QCOMPARE(d.severity, Severity::Error);
        QCOMPARE(d.rule, QStringLiteral("profile-broken"));
        QVERIFY2(d.message.startsWith(QStringLiteral("profile \"testbed\" cannot be used: %1:4:").arg(m_badOverride)),
                 qPrintable(d.message));
        QVERIFY2(d.message.contains(QLatin1String("replaces the shipped profile")), qPrintable(d.message));
        QVERIFY(!compose->submitButton()->isEnabled());
        QVERIFY(compose->preview()->script().isEmpty());
    }

private:
    QTemporaryDir m_dir;
    QString m_bad;
    QString m_badOverride;
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestBrokenProfile)
#include "tst_brokenprofile.moc"
