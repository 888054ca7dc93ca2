// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/ingest/AnchorScan.h"
#include "core/ingest/CompiledRule.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QStringList>

#include <optional>

namespace scalelab {

// The rules one log scan runs: the built-in readers and a researcher's
// patterns compiled, grouped by the anchor text the scan finds first (rules
// sharing an anchor are tried on a line once it was found), with the anchors'
// AnchorScan and the texts rules check on a line before they run.
class LogRuleSet {
public:
    struct Group {
        QByteArray anchor;
        QList<int> rules;   // indexes into rules()
    };
    // A text a rule checks on a line: on the raw line (excluding texts) or on
    // the line without ANSI sequences (needed texts).
    struct Text {
        QByteArray bytes;
        bool raw = false;
    };

    LogRuleSet(const QList<MetricPattern> &userPatterns, bool includeBuiltins);

    const QList<CompiledRule> &rules() const { return m_rules; }
    const QList<Group> &groups() const { return m_groups; }
    const QList<int> &unanchored() const { return m_unanchored; }   // groups with no anchor: every line
    const QList<Text> &texts() const { return m_texts; }
    const QStringList &metricNames() const { return m_metricNames; }
    // The groups' anchors (index = group), then RunEndReader's.
    const AnchorScan &anchorScan() const { return *m_scan; }
    // Problems with the user patterns (bad regex, no capture group); those
    // patterns are left out.
    const Diagnostics &diagnostics() const { return m_diagnostics; }

private:
    std::optional<CompiledRule> compile(const MetricPattern &p, bool user, const QString &where);
    void addRule(CompiledRule c, bool user, const QString &where);
    int textId(const QByteArray &bytes, bool raw);

    QList<CompiledRule> m_rules;
    QList<Group> m_groups;
    QHash<QByteArray, int> m_groupOf;
    QList<int> m_unanchored;
    QList<Text> m_texts;
    QStringList m_metricNames;
    std::optional<AnchorScan> m_scan;
    Diagnostics m_diagnostics;
};

}   // namespace scalelab
