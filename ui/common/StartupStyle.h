// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProxyStyle>

namespace scalelab {

// The application's style: the platform's (or Fusion for the dark palette),
// except that the menu bar's overflow chevron is decoded the first time it
// is drawn instead of when the menu bar is built. QMenuBar asks for that
// icon in its constructor, and decoding it is a millisecond of the first
// window that is almost never shown (only when the menus do not fit).
class StartupStyle : public QProxyStyle {
public:
    explicit StartupStyle(const QString &baseKey);

    QIcon standardIcon(StandardPixmap icon, const QStyleOption *option = nullptr,
                       const QWidget *widget = nullptr) const override;
};

}   // namespace scalelab
