// SPDX-License-Identifier: GPL-3.0-or-later
// The ProxyJump bridge's socket pair: writing after the other end has gone
// (a session ending while the bridge still forwards data) is a failed write,
// never a SIGPIPE that ends the program. Found by tst_sshsession's proxyJump
// on the 24.11 cluster, where the timing made the bridge write last.
#include "core/ssh/PlatformSocket.h"

#include <QtTest>

using namespace scalelab;

class TestPlatformSocket : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void writeAfterThePeerClosedFailsWithoutASignal()
    {
        int fds[2] = {-1, -1};
        QCOMPARE(PlatformSocket::makePair(fds).errorText(), QString());
        const QByteArray data(64 * 1024, 'x');
        QVERIFY(PlatformSocket::writeAll(fds[0], data.constData(), 16));
        PlatformSocket::closeFd(fds[1]);
        // With the default SIGPIPE action a plain write() here ends the test
        // process, so reaching the checks below is the test.
        QVERIFY(!PlatformSocket::writeAll(fds[0], data.constData(), int(data.size())));
        QVERIFY(!PlatformSocket::writeAll(fds[0], data.constData(), 1));
        PlatformSocket::closeFd(fds[0]);
    }
};

QTEST_GUILESS_MAIN(TestPlatformSocket)
#include "tst_platformsocket.moc"
