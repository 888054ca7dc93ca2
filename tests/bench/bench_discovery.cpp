// SPDX-License-Identifier: GPL-3.0-or-later
// Parse time of discovery output for a 1,000-node, 50-partition site (the
// issue asks for <= 100 ms). Printed, not asserted: timing is no test.
#include "DiscoveryFixtures.h"

#include <QElapsedTimer>
#include <QtTest>

#include <cstdio>

using namespace scalelab;

int main()
{
    QString parts, nodes;
    test::largeSite(50, 1000, &parts, &nodes);
    std::printf("input: %lld bytes of partitions, %lld bytes of nodes\n", (long long)parts.toUtf8().size(),
                (long long)nodes.toUtf8().size());
    QList<double> ms;
    int gpuPartitions = 0;
    for (int round = 0; round < 7; ++round) {
        QElapsedTimer t;
        t.start();
        DiscoveryInput in = test::testbedInput();
        in.partitions = ScontrolParsers::partitions(parts).items;
        in.nodes = ScontrolParsers::nodes(nodes).items;
        const BuiltProfile b = ProfileBuilder::build(in, nullptr);
        ms << t.nsecsElapsed() / 1e6;
        gpuPartitions = int(b.profile.partitions.size());
        if (in.partitions.size() != 50 || in.nodes.size() != 1000)
            return 1;
    }
    std::sort(ms.begin(), ms.end());
    std::printf(
        "parse + build, 1000 nodes / 50 partitions (%d GPU partitions): median %.1f ms, min %.1f ms, max %.1f ms "
        "(target 100 ms: ratio %.2f)\n",
        gpuPartitions, ms[3], ms[0], ms[6], ms[3] / 100.0);
    return 0;
}
