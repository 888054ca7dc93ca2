// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QPlainTextEdit;
class QLabel;

namespace scalelab {

// Help ▸ Diagnostics: the end of the log file (LogFile), to read or copy into
// a report. The file holds no passphrase, password, TOTP code, key or user
// value (see core/base/Logging.h), so it can be pasted as is.
class DiagnosticsDialog : public QDialog {
public:
    explicit DiagnosticsDialog(QWidget *parent = nullptr);

    QString text() const;
    void reload();

private:
    QLabel *m_where = nullptr;
    QPlainTextEdit *m_text = nullptr;
};

}   // namespace scalelab
