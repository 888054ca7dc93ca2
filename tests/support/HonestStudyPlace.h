// SPDX-License-Identifier: GPL-3.0-or-later
// The Results place of the tests that read the "honest" study (HonestStudy.h):
// a fresh data folder, the study stored, the place shown at 1280x800 on it,
// and Qt's model checker on its runs table for the whole test case (every
// reload, re-ingest, hidden run, grouping and filter the test makes).
#pragma once

#include "HonestStudy.h"
#include "ui/common/AppServices.h"
#include "ui/results/ResultsPlace.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

namespace scalelab::test {

struct HonestStudyPlace {
    QTemporaryDir dir;
    std::unique_ptr<AppServices> services;
    std::unique_ptr<ResultsPlace> place;
    std::unique_ptr<QAbstractItemModelTester> tester;
    QList<qint64> runs;
    qint64 study = 0;

    // QVERIFY/QCOMPARE inside: the caller's test fails when this does.
    void open()
    {
        QVERIFY(dir.isValid());
        qputenv("SCALELAB_DATA_DIR", dir.filePath(QStringLiteral("data")).toUtf8());
        services = std::make_unique<AppServices>();
        QCOMPARE(services->storeError(), QString());
        fillHonestStudy(services->store(), study, runs);
        QCOMPARE(runs.size(), 4);
        place = std::make_unique<ResultsPlace>(*services);
        tester = std::make_unique<QAbstractItemModelTester>(place->model(),
                                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        place->resize(1280, 800);
        place->show();
        QVERIFY(QTest::qWaitForWindowExposed(place.get()));
        QTRY_VERIFY(!place->isLoading());
        place->showStudy(study);
        QTRY_VERIFY(!place->isLoading());
        QCOMPARE(place->chartStudyId(), study);
    }
};

}   // namespace scalelab::test
