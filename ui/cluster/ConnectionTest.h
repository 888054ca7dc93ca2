// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"
#include "core/discovery/SacctmgrParsers.h"
#include "core/ssh/SshConnectionSettings.h"
#include "ui/common/AppSettings.h"

#include <QObject>
#include <QPointer>

#include <memory>

class QTemporaryDir;
class QWidget;

namespace scalelab {

class ClusterConnection;
class GuiSshCallbacks;

// One "Test connection" of the Connections dialog: a one-off login through a
// ClusterConnection (host key, passphrase and MFA dialogs as in real use)
// that asks Slurm its version and the researcher's accounts and partitions
// (LoginCheck). The connection and its callbacks live until their task ended,
// even when this object is gone by then; a result arrives only while it lives.
class ConnectionTest : public QObject {
    Q_OBJECT
public:
    explicit ConnectionTest(QWidget *dialogParent);
    ~ConnectionTest() override;

    // What to try: `alias` of the researcher's SSH config as it is, or, with
    // `hostDetails`, a one-off config entry for them (kept while this lives).
    Result<SshConnectionSettings> prepare(const QString &alias, const AppSettings::ClusterConnection *hostDetails);
    void start(const SshConnectionSettings &settings);
    // Stops waiting: its questions answer "cancelled", no finished() follows.
    void cancel();
    bool isRunning() const { return m_connection != nullptr; }

    // "account: partition, partition" lines ("all partitions" when none is named).
    static QStringList accountLines(const QList<AccountPartitions> &accounts);

Q_SIGNALS:
    void connected(const QString &banner);
    // The lines to show; messages name the host details, not the one-off file.
    void finished(bool ok, const QString &text);

private:
    Result<SshConnectionSettings> writeHostDetails(const AppSettings::ClusterConnection &c);
    void finish(bool ok, const QString &rawText);

    QPointer<QWidget> m_dialogParent;
    ClusterConnection *m_connection = nullptr;   // deletes itself once its task ended
    GuiSshCallbacks *m_callbacks = nullptr;
    std::shared_ptr<QTemporaryDir> m_configDir;
};

}   // namespace scalelab
