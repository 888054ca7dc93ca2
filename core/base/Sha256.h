// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

#include <memory>

namespace scalelab {

// SHA-256 through OpenSSL's libcrypto (its SHA extensions where the CPU has
// them: a project folder is hashed at several hundred MB/s, about what
// coreutils' sha256sum on the cluster reads). The digest in lower-case hex.
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;

    void add(const char *data, qint64 size);
    void add(const QByteArray &data) { add(data.constData(), data.size()); }
    QByteArray hexDigest();   // ends the hash; 64 characters
    static QByteArray hexOf(const QByteArray &data);

private:
    struct State;
    std::unique_ptr<State> d;
};

}   // namespace scalelab
