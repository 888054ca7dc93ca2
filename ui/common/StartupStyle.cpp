// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/StartupStyle.h"

#include <QIconEngine>
#include <QPainter>
#include <QPointer>

namespace scalelab {

namespace {

// Asks the base style for the icon on first use, then draws that.
class DeferredStandardIcon : public QIconEngine {
public:
    DeferredStandardIcon(QStyle *style, QStyle::StandardPixmap icon)
        : m_style(style)
        , m_icon(icon)
    {}

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state) override
    {
        loaded().paint(painter, rect, Qt::AlignCenter, mode, state);
    }
    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        return loaded().pixmap(size, mode, state);
    }
    QSize actualSize(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        return loaded().actualSize(size, mode, state);
    }
    QList<QSize> availableSizes(QIcon::Mode mode, QIcon::State state) override
    {
        return loaded().availableSizes(mode, state);
    }
    QIconEngine *clone() const override { return new DeferredStandardIcon(m_style, m_icon); }

private:
    const QIcon &loaded()
    {
        if (!m_loaded) {
            m_loaded = true;
            if (m_style)
                m_cache = m_style->standardIcon(m_icon);
        }
        return m_cache;
    }

    QPointer<QStyle> m_style;
    QStyle::StandardPixmap m_icon;
    bool m_loaded = false;
    QIcon m_cache;
};

}   // namespace

StartupStyle::StartupStyle(const QString &baseKey)
    : QProxyStyle(baseKey)
{}

QIcon StartupStyle::standardIcon(StandardPixmap icon, const QStyleOption *option, const QWidget *widget) const
{
    if (icon == SP_ToolBarHorizontalExtensionButton || icon == SP_ToolBarVerticalExtensionButton)
        return QIcon(new DeferredStandardIcon(baseStyle(), icon));
    return QProxyStyle::standardIcon(icon, option, widget);
}

}   // namespace scalelab
