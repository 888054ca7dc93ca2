// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QIODevice>

namespace scalelab {

// stderr for a command's messages, keeping a copy: a `--json` command that
// fails repeats them in the JSON object it prints on stdout. A write the
// target refuses (stderr closed or full) fails here too.
class ErrorTee : public QIODevice {
public:
    explicit ErrorTee(QIODevice *target);
    const QByteArray &kept() const { return m_kept; }
    bool failed() const { return m_failed; }

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 len) override;

private:
    static constexpr qsizetype kMaxKept = 64 * 1024;
    QIODevice *m_target;
    QByteArray m_kept;
    bool m_failed = false;
};

}   // namespace scalelab
