// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/cluster/GuiSshCallbacks.h"

#include "ui/cluster/HostKeyDialog.h"
#include "ui/cluster/MfaDialog.h"
#include "ui/cluster/PassphraseDialog.h"

#include <QApplication>
#include <QMetaObject>
#include <QThread>

#include <chrono>
#include <future>
#include <memory>

namespace scalelab {

namespace {

// The answer of one question, shared by the worker (waiting) and the GUI
// thread (dialog); set once, whoever comes first.
template <typename T>
struct Pending {
    std::promise<T> promise;
    std::atomic<bool> answered{false};
    QPointer<QDialog> dialog;   // GUI thread only

    void set(T value)
    {
        if (!answered.exchange(true))
            promise.set_value(std::move(value));
    }
};

}   // namespace

GuiSshCallbacks::GuiSshCallbacks(QString clusterName, QObject *parent)
    : QObject(parent)
    , m_cluster(std::move(clusterName))
{}

GuiSshCallbacks::~GuiSshCallbacks()
{
    m_stopped = true;
}

QWidget *GuiSshCallbacks::dialogParent() const
{
    if (m_dialogParent)
        return m_dialogParent->window();
    return QApplication::activeWindow();
}

template <typename T>
T GuiSshCallbacks::ask(std::function<QDialog *(std::function<void(T)>)> makeDialog, T cancelled)
{
    // Asking from the GUI thread would wait for ourselves.
    if (m_stopped || QThread::currentThread() == thread())
        return cancelled;
    auto state = std::make_shared<Pending<T>>();
    std::future<T> future = state->promise.get_future();
    QMetaObject::invokeMethod(
        this,
        [this, state, makeDialog, cancelled] {
            if (m_stopped) {
                state->set(cancelled);
                return;
            }
            QDialog *d = makeDialog([state](T v) { state->set(std::move(v)); });
            state->dialog = d;
            Q_EMIT dialogOpened(d);
            d->open();
        },
        Qt::QueuedConnection);
    using namespace std::chrono_literals;
    while (future.wait_for(100ms) != std::future_status::ready) {
        if (m_stopped) {
            state->set(cancelled);
            QMetaObject::invokeMethod(
                this,
                [state] {
                    if (state->dialog)
                        state->dialog->reject();
                },
                Qt::QueuedConnection);
            break;
        }
    }
    return future.get();
}

SshCallbacks::HostKeyDecision GuiSshCallbacks::unknownHostKey(const HostKeyInfo &info)
{
    return ask<HostKeyDecision>(
        [this, info](std::function<void(HostKeyDecision)> reply) -> QDialog * {
            auto *d = new HostKeyDialog(HostKeyDialog::Kind::Unknown, info, {}, dialogParent());
            connect(d, &HostKeyDialog::decided, this, [this, reply, info](HostKeyDecision decision) {
                reply(decision);
                if (decision == HostKeyDecision::Reject)
                    Q_EMIT needsUser(tr("%1: the host key of %2 was not accepted").arg(m_cluster, info.host));
            });
            return d;
        },
        HostKeyDecision::Reject);
}

void GuiSshCallbacks::hostKeyRefused(const HostKeyInfo &info, const QString &message)
{
    if (m_stopped)
        return;
    // Nothing to answer: the SSH layer refuses anyway. Do not wait for the
    // dialog; show one warning per host key, not one per retry.
    QMetaObject::invokeMethod(
        this,
        [this, info, message] {
            const QString key = QStringLiteral("%1:%2 %3").arg(info.host).arg(info.port).arg(info.fingerprintSha256);
            Q_EMIT needsUser(tr("%1: the host key of %2 has CHANGED; connection refused").arg(m_cluster, info.host));
            if (m_refusedShown.contains(key))
                return;
            m_refusedShown << key;
            auto *d = new HostKeyDialog(HostKeyDialog::Kind::Changed, info, message, dialogParent());
            connect(d, &QDialog::finished, this, [this, key] { m_refusedShown.removeAll(key); });
            Q_EMIT dialogOpened(d);
            d->open();
        },
        Qt::QueuedConnection);
}

std::optional<QString> GuiSshCallbacks::passphrase(const QString &keyPath)
{
    return ask<std::optional<QString>>(
        [this, keyPath](std::function<void(std::optional<QString>)> reply) -> QDialog * {
            auto *d = new PassphraseDialog(keyPath, dialogParent());
            connect(d, &PassphraseDialog::answered, this, [this, reply](std::optional<QString> v) {
                if (!v)
                    Q_EMIT needsUser(tr("%1: login cancelled").arg(m_cluster));
                reply(std::move(v));
            });
            return d;
        },
        std::nullopt);
}

std::optional<QStringList> GuiSshCallbacks::keyboardInteractive(const QString &name, const QString &instruction,
                                                                const QList<KbdPrompt> &prompts)
{
    return ask<std::optional<QStringList>>(
        [this, name, instruction, prompts](std::function<void(std::optional<QStringList>)> reply) -> QDialog * {
            const QString title = name.trimmed().isEmpty() ? tr("Login to %1").arg(m_cluster) : name;
            auto *d = new MfaDialog(title, instruction, prompts, dialogParent());
            connect(d, &MfaDialog::answered, this, [this, reply](std::optional<QStringList> v) {
                if (!v)
                    Q_EMIT needsUser(tr("%1: login cancelled").arg(m_cluster));
                reply(std::move(v));
            });
            return d;
        },
        std::nullopt);
}

}   // namespace scalelab
