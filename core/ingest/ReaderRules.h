// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Building blocks of the built-in reader table (FrameworkReaders.cpp,
// StackReaders.cpp): internal to core/ingest.

#include "core/ingest/MetricPattern.h"

#include <QStringList>

namespace scalelab::readers {

using A = MetricAggregation;

// A number as frameworks print it: 0.99, 98, .5, 1e-3, -0.2. This exact text
// is what LiteralNumberMatcher recognises, so "literal + kNum" rules run
// without a regex engine.
inline const QString kNum = QStringLiteral("([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)");
// The same in possessive form for rules the regex engine runs: no
// backtracking inside a long run of digits.
inline const QString kNumP = QStringLiteral("([-+]?+(?:[0-9]*+\\.)?[0-9]++(?:[eE][-+]?+[0-9]++)?+)");
// An unsigned number (a rate or a share that a framework prints as -100 while unknown is not read).
inline const QString kUNumP = QStringLiteral("((?:[0-9]*+\\.)?[0-9]++(?:[eE][-+]?+[0-9]++)?+)");

inline MetricPattern rule(const char *id, const char *name, const char *unit, A agg, const QString &regex,
                          const char *anchor, const char *meaning)
{
    MetricPattern p;
    p.rule = QString::fromLatin1(id);
    p.name = QString::fromLatin1(name);
    p.unit = QString::fromUtf8(unit);
    p.aggregation = agg;
    p.regex = regex;
    p.anchor = QString::fromLatin1(anchor);
    p.meaning = QString::fromUtf8(meaning);
    return p;
}

inline MetricPattern step(MetricPattern p, int valueGroup, int stepGroup)
{
    p.valueGroup = valueGroup;
    p.stepGroup = stepGroup;
    return p;
}

inline MetricPattern stepAfter(MetricPattern p, const char *literal)
{
    p.stepLiteral = QString::fromLatin1(literal);
    return p;
}

inline MetricPattern before(MetricPattern p, const char *literal, QStringList exclude = {})
{
    p.numberBefore = QString::fromLatin1(literal);
    p.excludeIf = exclude;
    return p;
}

inline MetricPattern form(MetricPattern p, ValueForm f)
{
    p.form = f;
    return p;
}

inline MetricPattern excluding(MetricPattern p, QStringList exclude)
{
    p.excludeIf = exclude;
    return p;
}

inline MetricPattern ambiguous(MetricPattern p)
{
    p.ambiguous = true;
    return p;
}

inline MetricPattern anyRank(MetricPattern p)
{
    p.anyRank = true;
    return p;
}

// The line in the framework's own format that the rule reads (listed by
// `scalelab metrics --list-readers`; tst_ingest_frameworks reads each).
inline MetricPattern ex(MetricPattern p, const char *example)
{
    p.example = QString::fromUtf8(example);
    return p;
}

// The framework readers (FrameworkReaders.cpp): Keras, PyTorch, Hugging
// Face, DeepSpeed, Horovod, tqdm, Lightning, NCCL and other common prints.
QList<MetricPattern> frameworkReaders();

// The big training stacks (StackReaders.cpp): Megatron-LM / Megatron-DeepSpeed,
// NeMo, fairseq, MLPerf, nanoGPT / llm.c, DeepSpeed-Chat, timm, torchvision
// references, JAX/Flax.
QList<MetricPattern> trainingStackReaders();

}   // namespace scalelab::readers
