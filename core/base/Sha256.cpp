// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/Sha256.h"

#include <openssl/evp.h>

namespace scalelab {

struct Sha256::State {
    EVP_MD_CTX *ctx = nullptr;
};

Sha256::Sha256()
    : d(std::make_unique<State>())
{
    d->ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(d->ctx, EVP_sha256(), nullptr);
}

Sha256::~Sha256()
{
    EVP_MD_CTX_free(d->ctx);
}

void Sha256::add(const char *data, qint64 size)
{
    if (size > 0)
        EVP_DigestUpdate(d->ctx, data, size_t(size));
}

QByteArray Sha256::hexDigest()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(d->ctx, digest, &length);
    return QByteArray(reinterpret_cast<const char *>(digest), int(length)).toHex();
}

QByteArray Sha256::hexOf(const QByteArray &data)
{
    Sha256 h;
    h.add(data);
    return h.hexDigest();
}

}   // namespace scalelab
