// SPDX-License-Identifier: GPL-3.0-or-later
// KnownHostsFile: verdicts, line numbers, hashed entries, append round-trip,
// the size cap.
#include "core/base/InputLimits.h"
#include "core/ssh/KnownHostsFile.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using scalelab::KnownHostsFile;
using Status = scalelab::KnownHostsFile::Status;

namespace {
// Three real public keys (generated with ssh-keygen for this test).
const QString kEd1 = QStringLiteral("AAAAC3NzaC1lZDI1NTE5AAAAIKzlOmzub1vZLSWGlZxV4mE4KvI8zzjTNFaEBC6L/nzc");
const QString kEd2 = QStringLiteral("AAAAC3NzaC1lZDI1NTE5AAAAIPB9fyn/P/AIF/SIZCSQiRmyChU+Hy23r7h27pp9Ja4l");
const QString kEcdsa = QStringLiteral("AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEd795hbXKJUIF+"
                                      "C0KDoHazuoKKzdBJKUMnuN7jDRJHKgvPsWBon68Ea3P664c8Xl5s8HFtc8tJNi4oHeo/CoLM=");
const QString kEdType = QStringLiteral("ssh-ed25519");
const QString kEcdsaType = QStringLiteral("ecdsa-sha2-nistp256");
}   // namespace

class TestKnownHosts : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString &name, const QString &text)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            qFatal("cannot write %s", qPrintable(path));
        f.write(text.toUtf8());
        return path;
    }

private Q_SLOTS:
    void fingerprintLikeSshKeygen()
    {
        // ssh-keygen -lf prints SHA256:Rb92WyLeoIZx0vFim8w7fq6yh7SIODUXBTQiASD8K88 for kEd1.
        QCOMPARE(KnownHostsFile::fingerprintSha256(kEd1),
                 QStringLiteral("SHA256:Rb92WyLeoIZx0vFim8w7fq6yh7SIODUXBTQiASD8K88"));
    }

    void missingFileIsUnknown()
    {
        const KnownHostsFile f(m_dir.filePath(QStringLiteral("nope/known_hosts")));
        const auto r = f.lookup(QStringLiteral("127.0.0.1"), 2222, kEdType, kEd1);
        QCOMPARE(r.status, Status::Unknown);
        QCOMPARE(r.line, 0);
    }

    void plainEntriesAndPorts()
    {
        const QString p =
            write(QStringLiteral("plain"), QStringLiteral("# comment line\n"
                                                          "\n"
                                                          "cluster.example.org,10.0.0.5 %1 %2 comment\n"
                                                          "[127.0.0.1]:2222 %1 %2\n"
                                                          "*.wild.example.org,!bad.wild.example.org %1 %2\n")
                                               .arg(kEdType, kEd1));
        const KnownHostsFile f(p);
        QCOMPARE(f.lookup(QStringLiteral("cluster.example.org"), 22, kEdType, kEd1).status, Status::Match);
        QCOMPARE(f.lookup(QStringLiteral("10.0.0.5"), 22, kEdType, kEd1).line, 3);
        const auto port = f.lookup(QStringLiteral("127.0.0.1"), 2222, kEdType, kEd1);
        QCOMPARE(port.status, Status::Match);
        QCOMPARE(port.line, 4);
        // The same address on another port is another host for known_hosts.
        QCOMPARE(f.lookup(QStringLiteral("127.0.0.1"), 22, kEdType, kEd1).status, Status::Unknown);
        QCOMPARE(f.lookup(QStringLiteral("127.0.0.1"), 2223, kEdType, kEd1).status, Status::Unknown);
        QCOMPARE(f.lookup(QStringLiteral("a.wild.example.org"), 22, kEdType, kEd1).status, Status::Match);
        QCOMPARE(f.lookup(QStringLiteral("bad.wild.example.org"), 22, kEdType, kEd1).status, Status::Unknown);
    }

    void hashedEntriesFromSshKeygen()
    {
        // Produced by `ssh-keygen -H` from "[127.0.0.1]:2222 ..." and "cluster.example.org ...".
        const QString p = write(QStringLiteral("hashed"),
                                QStringLiteral("|1|yUYAT+6262rjZZgZIn+09VY7Ltc=|+ZQYuxTQp00gQYzz8lKQl09GpW0= %1 %2\n"
                                               "|1|R5b5kjpMbOmN4Y8bkzvt0aET4qY=|yIb8mLXQzTcGzxbjriup6HbB8pM= %1 %2\n")
                                    .arg(kEdType, kEd1));
        const KnownHostsFile f(p);
        const auto a = f.lookup(QStringLiteral("127.0.0.1"), 2222, kEdType, kEd1);
        QCOMPARE(a.status, Status::Match);
        QCOMPARE(a.line, 1);
        const auto b = f.lookup(QStringLiteral("cluster.example.org"), 22, kEdType, kEd1);
        QCOMPARE(b.status, Status::Match);
        QCOMPARE(b.line, 2);
        QCOMPARE(f.lookup(QStringLiteral("other.example.org"), 22, kEdType, kEd1).status, Status::Unknown);
        // A hashed entry with another key of the same type is a changed key.
        const auto c = f.lookup(QStringLiteral("cluster.example.org"), 22, kEdType, kEd2);
        QCOMPARE(c.status, Status::Changed);
        QCOMPARE(c.line, 2);
    }

    void changedOtherTypeRevokedWithLines()
    {
        const QString p = write(QStringLiteral("conflicts"),
                                QStringLiteral("# header\n"
                                               "[127.0.0.1]:2222 %1 %2\n"   // line 2: other ed25519 key
                                               "[127.0.0.1]:2223 %3 %4\n"   // line 3: only ECDSA known
                                               "@revoked * %1 %5\n"   // line 4: kEd1 revoked everywhere
                                               "@cert-authority * %1 %2\n")   // ignored
                                    .arg(kEdType, kEd2, kEcdsaType, kEcdsa, kEd1));
        const KnownHostsFile f(p);
        auto r = f.lookup(QStringLiteral("127.0.0.1"), 2222, kEdType, kEd1);
        QCOMPARE(r.status, Status::Revoked);   // revoked wins over everything
        QCOMPARE(r.line, 4);
        QCOMPARE(r.path, p);

        const QString p2 = write(QStringLiteral("conflicts2"), QStringLiteral("# header\n"
                                                                              "[127.0.0.1]:2222 %1 %2\n"
                                                                              "[127.0.0.1]:2223 %3 %4\n")
                                                                   .arg(kEdType, kEd2, kEcdsaType, kEcdsa));
        const KnownHostsFile f2(p2);
        r = f2.lookup(QStringLiteral("127.0.0.1"), 2222, kEdType, kEd1);
        QCOMPARE(r.status, Status::Changed);
        QCOMPARE(r.line, 2);
        r = f2.lookup(QStringLiteral("127.0.0.1"), 2223, kEdType, kEd1);
        QCOMPARE(r.status, Status::OtherType);
        QCOMPARE(r.line, 3);
        QCOMPARE(f2.knownKeyTypes(QStringLiteral("127.0.0.1"), 2223), QStringList{kEcdsaType});
        // The right ECDSA key still matches.
        QCOMPARE(f2.lookup(QStringLiteral("127.0.0.1"), 2223, kEcdsaType, kEcdsa).status, Status::Match);
    }

    void appendRoundTrip()
    {
        const QString path = m_dir.filePath(QStringLiteral("new/dir/known_hosts"));
        const KnownHostsFile f(path);
        QCOMPARE(f.append(QStringLiteral("127.0.0.1"), 2222, kEdType, kEd1).errorText(), QString());
        QCOMPARE(f.append(QStringLiteral("cluster.example.org"), 22, kEcdsaType, kEcdsa).errorText(), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QCOMPARE(text, (QStringLiteral("[127.0.0.1]:2222 %1 %2\ncluster.example.org %3 %4\n")
                            .arg(kEdType, kEd1, kEcdsaType, kEcdsa))
                           .toUtf8());
        QCOMPARE(file.permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther),
                 QFile::Permissions());
        auto r = f.lookup(QStringLiteral("127.0.0.1"), 2222, kEdType, kEd1);
        QCOMPARE(r.status, Status::Match);
        QCOMPARE(r.line, 1);
        QCOMPARE(f.lookup(QStringLiteral("cluster.example.org"), 22, kEcdsaType, kEcdsa).line, 2);

        // Appending to a file without a trailing newline keeps entries apart.
        const QString p2 = write(QStringLiteral("nonl"), QStringLiteral("example.net %1 %2").arg(kEdType, kEd2));
        const KnownHostsFile f2(p2);
        QCOMPARE(f2.append(QStringLiteral("127.0.0.1"), 2224, kEdType, kEd1).errorText(), QString());
        QCOMPARE(f2.lookup(QStringLiteral("example.net"), 22, kEdType, kEd2).status, Status::Match);
        QCOMPARE(f2.lookup(QStringLiteral("127.0.0.1"), 2224, kEdType, kEd1).line, 2);
    }

    void oversizedFileIsRefusedAndReported()
    {
        using scalelab::InputLimits::kMaxFileBytes;
        const QString entry = QStringLiteral("cluster.example.org %1 %2\n").arg(kEdType, kEd1);
        // Exactly at the cap: read as usual (the padding is empty lines; NUL
        // bytes would be refused as no text).
        const QString atCap = m_dir.filePath(QStringLiteral("at-cap"));
        {
            QFile f(atCap);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const QByteArray bytes = entry.toUtf8();
            QCOMPARE(f.write(bytes + QByteArray(kMaxFileBytes - bytes.size(), '\n')), kMaxFileBytes);
        }
        const auto ok = KnownHostsFile(atCap).lookup(QStringLiteral("cluster.example.org"), 22, kEdType, kEd1);
        QCOMPARE(ok.status, Status::Match);
        QVERIFY(ok.fileRead());

        // One byte more: refused whole, never cut, and said so (result and log).
        const QString over = write(QStringLiteral("over-cap"), entry);
        QVERIFY(QFile::resize(over, kMaxFileBytes + 1));
        const KnownHostsFile f(over);
        const QRegularExpression logged(QStringLiteral("over-cap: this known_hosts file is larger than 16 MB"));
        QTest::ignoreMessage(QtWarningMsg, logged);
        const auto r = f.lookup(QStringLiteral("cluster.example.org"), 22, kEdType, kEd1);
        QCOMPARE(r.status, Status::Unknown);
        QCOMPARE(r.line, 0);
        QVERIFY(!r.fileRead());
        QCOMPARE(r.problem.rule, QStringLiteral("input-too-large"));
        QVERIFY2(r.problem.message.contains(over), qPrintable(r.problem.message));
        QVERIFY2(r.problem.message.contains(QStringLiteral("16 MB")), qPrintable(r.problem.message));
        QTest::ignoreMessage(QtWarningMsg, logged);
        QCOMPARE(f.knownKeyTypes(QStringLiteral("cluster.example.org"), 22), QStringList());

        // A key appended there would never be read back: refused, file untouched.
        const QString err = f.append(QStringLiteral("other.example.org"), 22, kEdType, kEd2).errorText();
        QVERIFY2(err.contains(over) && err.contains(QStringLiteral("16 MB")), qPrintable(err));
        QCOMPARE(QFileInfo(over).size(), kMaxFileBytes + 1);

        // A missing file stays silent: the normal first connection.
        QVERIFY(KnownHostsFile(m_dir.filePath(QStringLiteral("absent")))
                    .lookup(QStringLiteral("a"), 22, kEdType, kEd1)
                    .fileRead());
    }
};

QTEST_GUILESS_MAIN(TestKnownHosts)
#include "tst_knownhosts.moc"
