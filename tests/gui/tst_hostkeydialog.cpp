// SPDX-License-Identifier: GPL-3.0-or-later
// The SSH questions of the desktop app: GuiSshCallbacks asked from a worker
// thread (as the SSH layer does) opens the dialog on the GUI thread without a
// nested event loop, and each button gives the right answer back to the
// worker. The changed-key warning cannot be accepted; MFA honours echo.
#include "ui/cluster/GuiSshCallbacks.h"
#include "ui/cluster/HostKeyDialog.h"
#include "ui/cluster/MfaDialog.h"
#include "ui/cluster/PassphraseDialog.h"
#include "ScreenshotDir.h"

#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QtTest>

#include <atomic>
#include <optional>
#include <thread>

using namespace scalelab;
using Decision = SshCallbacks::HostKeyDecision;

namespace {

HostKeyInfo sampleKey()
{
    HostKeyInfo info;
    info.host = QStringLiteral("127.0.0.1");
    info.port = 2222;
    info.keyType = QStringLiteral("ssh-ed25519");
    info.fingerprintSha256 = QStringLiteral("SHA256:0K7b9hXo2m3cQd5gN3m7e0Zp8H5yq8a1vT6J5ZxYk3s");
    info.knownHostsPath = QStringLiteral("/tmp/a-researcher/known_hosts");
    info.conflictingLine = 3;
    return info;
}

QString labelText(QWidget *w, const char *name)
{
    auto *l = w->findChild<QLabel *>(QLatin1String(name));
    return l ? l->text() : QString();
}

}   // namespace

class TestHostKeyDialog : public QObject {
    Q_OBJECT

    // Calls `question` on a std::thread while this thread's event loop runs
    // (QTRY_*), clicks `button` of the dialog that opens, returns the answer.
    template <typename T>
    std::optional<T> askFromWorker(GuiSshCallbacks &cb, std::function<T()> question,
                                   std::function<void(QDialog *)> answer)
    {
        QPointer<QDialog> dialog;
        auto conn = connect(&cb, &GuiSshCallbacks::dialogOpened, this, [&](QDialog *d) { dialog = d; });
        std::optional<T> result;
        std::atomic<bool> done{false};
        std::thread worker([&] {
            result = question();
            done = true;
        });
        const bool ok = QTest::qWaitFor([&] { return !dialog.isNull() && dialog->isVisible(); }, 5000);
        if (ok)
            answer(dialog);
        else
            cb.stop();   // do not leave the worker waiting
        (void)QTest::qWaitFor([&] { return done.load(); }, 5000);   // join() below waits regardless
        worker.join();
        disconnect(conn);
        return ok ? result : std::nullopt;
    }

private Q_SLOTS:
    void unknownKeyShowsDetails()
    {
        HostKeyDialog d(HostKeyDialog::Kind::Unknown, sampleKey());
        QCOMPARE(labelText(&d, "hostLabel"), QStringLiteral("127.0.0.1"));
        QCOMPARE(labelText(&d, "portLabel"), QStringLiteral("2222"));
        QCOMPARE(labelText(&d, "keyTypeLabel"), QStringLiteral("ssh-ed25519"));
        QCOMPARE(labelText(&d, "fingerprintLabel"), sampleKey().fingerprintSha256);
        QVERIFY(d.findChild<QPushButton *>("acceptOnceButton"));
        QVERIFY(d.findChild<QPushButton *>("acceptRememberButton"));
        QVERIFY(d.findChild<QPushButton *>("cancelButton"));
        QCOMPARE(d.findChild<QPushButton *>("acceptOnceButton")->text(), QStringLiteral("Accept once"));
        QCOMPARE(d.findChild<QPushButton *>("acceptRememberButton")->text(), QStringLiteral("Accept and remember"));
        QVERIFY(d.findChild<QPushButton *>("cancelButton")->isDefault());   // Enter never trusts a key
    }

    void unknownKeyButtonsFromWorkerThread_data()
    {
        QTest::addColumn<QString>("button");
        QTest::addColumn<int>("expected");
        QTest::newRow("accept once") << "acceptOnceButton" << int(Decision::AcceptOnce);
        QTest::newRow("accept and remember") << "acceptRememberButton" << int(Decision::AcceptAndRemember);
        QTest::newRow("cancel") << "cancelButton" << int(Decision::Reject);
        QTest::newRow("escape") << "" << int(Decision::Reject);
    }

    void unknownKeyButtonsFromWorkerThread()
    {
        QFETCH(QString, button);
        QFETCH(int, expected);
        GuiSshCallbacks cb(QStringLiteral("testbed"));
        const auto r = askFromWorker<Decision>(
            cb, [&] { return cb.unknownHostKey(sampleKey()); },
            [&](QDialog *d) {
                QCOMPARE(labelText(d, "fingerprintLabel"), sampleKey().fingerprintSha256);
                QTRY_COMPARE(QApplication::focusWidget(), d->findChild<QPushButton *>("cancelButton"));
                if (button.isEmpty())
                    QTest::keyClick(d, Qt::Key_Escape);
                else
                    d->findChild<QPushButton *>(button)->click();
            });
        QVERIFY(r.has_value());
        QCOMPARE(int(*r), expected);
    }

    void changedKeyHasNoAcceptButton()
    {
        HostKeyDialog d(HostKeyDialog::Kind::Changed, sampleKey(), QStringLiteral("host key mismatch"));
        QVERIFY(!d.findChild<QPushButton *>("acceptOnceButton"));
        QVERIFY(!d.findChild<QPushButton *>("acceptRememberButton"));
        for (QPushButton *b : d.findChildren<QPushButton *>())
            QVERIFY2(!b->text().contains(QStringLiteral("Accept"), Qt::CaseInsensitive), qPrintable(b->text()));
        const QString explanation = labelText(&d, "explanation");
        QVERIFY2(explanation.contains(QStringLiteral("/tmp/a-researcher/known_hosts")), qPrintable(explanation));
        QVERIFY2(explanation.contains(QStringLiteral("line 3")), qPrintable(explanation));
        QVERIFY(explanation.contains(QStringLiteral("man-in-the-middle")));
        QVERIFY(d.findChild<QLabel *>("explanation")->styleSheet().contains(QStringLiteral("#b00020")));
        QCOMPARE(labelText(&d, "fingerprintLabel"), sampleKey().fingerprintSha256);
        d.findChild<QPushButton *>("closeButton")->click();
        QCOMPARE(d.decision(), Decision::Reject);
    }

    void changedKeyFromWorkerDoesNotWait()
    {
        GuiSshCallbacks cb(QStringLiteral("testbed"));
        QPointer<QDialog> dialog;
        connect(&cb, &GuiSshCallbacks::dialogOpened, this, [&](QDialog *d) { dialog = d; });
        QSignalSpy needsUser(&cb, &GuiSshCallbacks::needsUser);
        std::atomic<bool> returned{false};
        std::thread worker([&] {
            cb.hostKeyRefused(sampleKey(), QStringLiteral("host key mismatch"));
            returned = true;
        });
        worker.join();   // returns without an answer: the SSH layer refuses anyway
        QVERIFY(returned);
        QTRY_VERIFY(!dialog.isNull());
        auto *hk = qobject_cast<HostKeyDialog *>(dialog.data());
        QVERIFY(hk);
        QCOMPARE(hk->kind(), HostKeyDialog::Kind::Changed);
        QVERIFY(!hk->findChild<QPushButton *>("acceptOnceButton"));
        QCOMPARE(needsUser.count(), 1);
        // A retry with the same key does not stack a second warning.
        std::thread again([&] { cb.hostKeyRefused(sampleKey(), QString()); });
        again.join();
        QTRY_COMPARE(needsUser.count(), 2);
        QCOMPARE(findChildrenOfType(), 1);
        hk->reject();
        QCOMPARE(hk->decision(), Decision::Reject);
    }

    void stopAnswersPendingQuestion()
    {
        GuiSshCallbacks cb(QStringLiteral("testbed"));
        QPointer<QDialog> dialog;
        connect(&cb, &GuiSshCallbacks::dialogOpened, this, [&](QDialog *d) { dialog = d; });
        std::optional<Decision> result;
        std::thread worker([&] { result = cb.unknownHostKey(sampleKey()); });
        QTRY_VERIFY(!dialog.isNull());
        cb.stop();   // the connection is stopping: the worker must not hang
        worker.join();
        QCOMPARE(result, std::optional<Decision>(Decision::Reject));
        QTRY_VERIFY(dialog.isNull() || !dialog->isVisible());
        // Later questions are cancelled at once.
        std::optional<QString> pass = QStringLiteral("x");
        std::thread later([&] { pass = cb.passphrase(QStringLiteral("/k")); });
        later.join();
        QVERIFY(!pass.has_value());
    }

    void passphraseFromWorker()
    {
        GuiSshCallbacks cb(QStringLiteral("testbed"));
        const auto r = askFromWorker<std::optional<QString>>(
            cb, [&] { return cb.passphrase(QStringLiteral("/home/a-researcher/.ssh/id_ed25519")); },
            [](QDialog *d) {
                auto *edit = d->findChild<QLineEdit *>("passphraseEdit");
                QCOMPARE(edit->echoMode(), QLineEdit::Password);
                QTest::keyClicks(edit, QStringLiteral("correct horse"));
                QTest::keyClick(edit, Qt::Key_Return);
            });
        QVERIFY(r.has_value());
        QCOMPARE(*r, std::optional<QString>(QStringLiteral("correct horse")));
    }

    void mfaHonoursEcho()
    {
        const QList<SshCallbacks::KbdPrompt> prompts = {{QStringLiteral("Username:"), true},
                                                        {QStringLiteral("Verification code:"), false}};
        MfaDialog d(QStringLiteral("MFA"), QStringLiteral("Enter your code"), prompts);
        QCOMPARE(d.edits().size(), 2);
        QCOMPARE(d.edits()[0]->echoMode(), QLineEdit::Normal);
        QCOMPARE(d.edits()[1]->echoMode(), QLineEdit::Password);
        QCOMPARE(labelText(&d, "instructionLabel"), QStringLiteral("Enter your code"));

        GuiSshCallbacks cb(QStringLiteral("testbed-mfa"));
        const auto r = askFromWorker<std::optional<QStringList>>(
            cb, [&] { return cb.keyboardInteractive(QString(), QString(), prompts); },
            [](QDialog *dialog) {
                auto *mfa = qobject_cast<MfaDialog *>(dialog);
                QVERIFY(mfa);
                QCOMPARE(mfa->edits()[1]->echoMode(), QLineEdit::Password);
                mfa->edits()[0]->setText(QStringLiteral("researcher"));
                mfa->edits()[1]->setText(QStringLiteral("123456"));
                QTest::keyClick(mfa->edits()[1], Qt::Key_Return);
            });
        QVERIFY(r.has_value());
        QCOMPARE(*r, std::optional<QStringList>(QStringList{"researcher", "123456"}));
    }

    void mfaCancel()
    {
        GuiSshCallbacks cb(QStringLiteral("testbed-mfa"));
        QSignalSpy needsUser(&cb, &GuiSshCallbacks::needsUser);
        const auto r = askFromWorker<std::optional<QStringList>>(
            cb,
            [&] {
                return cb.keyboardInteractive(QString(), QString(), {{QStringLiteral("Code:"), false}});
            },
            [](QDialog *dialog) { dialog->reject(); });
        QVERIFY(r.has_value());
        QVERIFY(!r->has_value());
        QCOMPARE(needsUser.count(), 1);
    }

    void screenshots()
    {
        HostKeyDialog unknown(HostKeyDialog::Kind::Unknown, sampleKey());
        unknown.show();
        QVERIFY(unknown.grab().save(test::screenshotPath(QStringLiteral("hostkey-unknown.png"))));
        HostKeyDialog changed(HostKeyDialog::Kind::Changed, sampleKey(),
                              QStringLiteral("host key for 127.0.0.1 changed"));
        changed.show();
        QVERIFY(changed.grab().save(test::screenshotPath(QStringLiteral("hostkey-changed.png"))));
        MfaDialog mfa(QString(), QStringLiteral("Second factor"), {{QStringLiteral("Verification code:"), false}});
        mfa.show();
        QVERIFY(mfa.grab().save(test::screenshotPath(QStringLiteral("mfa.png"))));
    }

private:
    static int findChildrenOfType()
    {
        int n = 0;
        for (QWidget *w : QApplication::topLevelWidgets())
            if (auto *d = qobject_cast<HostKeyDialog *>(w); d && d->isVisible())
                ++n;
        return n;
    }
};

QTEST_MAIN(TestHostKeyDialog)
#include "tst_hostkeydialog.moc"
