// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ssh/SshCallbacks.h"

#include <QObject>
#include <QPointer>
#include <QWidget>

#include <atomic>
#include <functional>

class QDialog;

namespace scalelab {

// SshCallbacks for the desktop app. The SSH layer calls these ON ITS WORKER
// THREAD; each question is posted to the GUI thread, where a dialog is shown
// with open() (no nested event loop), and the worker waits for the answer.
// stop() (thread-safe) makes every pending and later question answer
// "cancelled" at once — call it before stopping the connection, whose stop()
// waits for the worker.
//
// One instance per ClusterConnection; it lives on the GUI thread.
class GuiSshCallbacks : public QObject, public SshCallbacks {
    Q_OBJECT
public:
    explicit GuiSshCallbacks(QString clusterName, QObject *parent = nullptr);
    ~GuiSshCallbacks() override;

    void setDialogParent(QWidget *parent) { m_dialogParent = parent; }
    void stop() { m_stopped = true; }
    bool isStopped() const { return m_stopped; }

    HostKeyDecision unknownHostKey(const HostKeyInfo &info) override;
    void hostKeyRefused(const HostKeyInfo &info, const QString &message) override;
    std::optional<QString> passphrase(const QString &keyPath) override;
    std::optional<QStringList> keyboardInteractive(const QString &name, const QString &instruction,
                                                   const QList<KbdPrompt> &prompts) override;

Q_SIGNALS:
    // On the GUI thread, right before the dialog is opened (tests find it here).
    void dialogOpened(QDialog *dialog);
    // The researcher cancelled a question or a host key was refused: automatic
    // reconnects would only ask again, so the owner should wait for the user.
    void needsUser(const QString &why);

private:
    template <typename T>
    T ask(std::function<QDialog *(std::function<void(T)>)> makeDialog, T cancelled);
    QWidget *dialogParent() const;

    QString m_cluster;
    QPointer<QWidget> m_dialogParent;
    std::atomic<bool> m_stopped{false};
    QStringList m_refusedShown;   // GUI thread: host key warnings currently open
};

}   // namespace scalelab
