// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <tl/expected.hpp>

#include <type_traits>
#include <utility>

namespace scalelab {

// What went wrong, as a value callers can branch on. Messages are for people;
// decisions are taken on the code, never on the message text.
enum class ErrorCode {
    StoreUnavailable,   // the store cannot be opened (directory, SQLite file)
    StoreNewerSchema,   // written by a newer ScaleLab: refused for the life of the RunStore
    StoreFailed,   // an SQL statement or transaction failed
    StoreBusy,   // another ScaleLab or program held the store's write lock past the wait
    StoreDamaged,   // the store file is damaged: refused (no read, no write) until restored
    NotFound,   // no run/study with that id or token
    InvalidValue,   // a value ScaleLab will not store or send (empty name, unsafe path, bad token)
    WrongState,   // the run is not in a state that allows the call (already submitted, ...)
    Transport,   // the connection failed: the outcome of a remote command is unknown
    RemoteFailed,   // the remote command ran and failed
    LocalFile,   // a local file could not be written or read
};

struct Error {
    ErrorCode code = ErrorCode::StoreFailed;
    QString message;
};

// A value or an Error; [[nodiscard]] so a failed write cannot go unnoticed.
// Parsers and validators keep the {value, diagnostics} shape instead: they
// report many findings, not one failure.
template <typename T>
class [[nodiscard]] Result : public tl::expected<T, Error> {
    using Base = tl::expected<T, Error>;

public:
    using Base::Base;   // the constructors of tl::expected (clang needs this spelling)
    Result(const tl::expected<T, Error> &e)
        : tl::expected<T, Error>(e)
    {}
    Result(tl::expected<T, Error> &&e)
        : tl::expected<T, Error>(std::move(e))
    {}

    // On a temporary, value() and * return the value itself, not a reference
    // into the dying Result: `for (auto &r : store.runs().value())` is safe.
    std::add_lvalue_reference_t<T> value() & requires(!std::is_void_v<T>) { return Base::value(); }
    std::add_lvalue_reference_t<const T> value() const &requires(!std::is_void_v<T>) { return Base::value(); }
    T value() && requires(!std::is_void_v<T>) { return std::move(Base::value()); }
    T value() const &&requires(!std::is_void_v<T>) { return Base::value(); }
    std::add_lvalue_reference_t<T> operator*() & requires(!std::is_void_v<T>) { return Base::operator*(); }
    std::add_lvalue_reference_t<const T> operator*() const &requires(!std::is_void_v<T>) { return Base::operator*(); }
    T operator*() && requires(!std::is_void_v<T>) { return std::move(Base::operator*()); }

    bool ok() const { return this->has_value(); }
    bool failedWith(ErrorCode code) const { return !ok() && this->error().code == code; }
    // "" on success: for messages and for tests comparing with QString().
    QString errorText() const { return ok() ? QString() : this->error().message; }
};

inline tl::unexpected<Error> fail(ErrorCode code, QString message)
{
    return tl::unexpected<Error>(Error{code, std::move(message)});
}
inline tl::unexpected<Error> fail(Error error)
{
    return tl::unexpected<Error>(std::move(error));
}

// Success of a Result<void>.
inline Result<void> success()
{
    return {};
}

}   // namespace scalelab
