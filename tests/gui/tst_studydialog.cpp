// SPDX-License-Identifier: GPL-3.0-or-later
// The scaling study dialog: a name of its own beside the stored studies,
// repeats and run order, and one submit per study however often the button
// is clicked.

#include "IdleClusterService.h"

#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/ClusterService.h"
#include "ui/compose/ScalingStudyDialog.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace scalelab;

namespace {

// Records what the study dialog asks of the cluster layer.
class FakeClusters : public test::IdleClusterService {
public:
    using IdleClusterService::IdleClusterService;
    struct Call {
        QList<JobSpec> specs;
        QString name;
        StudyOrder order;
    };
    QList<Call> calls;
    void submit(const QList<JobSpec> &specs, const QString &studyName, StudyOrder order) override
    {
        calls.append({specs, studyName, order});
    }
};

}   // namespace

class TestStudyDialog : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<AppServices> m_services;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("SCALELAB_DATA_DIR", m_dir.filePath(QStringLiteral("data")).toUtf8());
        m_services = std::make_unique<AppServices>();
        QCOMPARE(m_services->storeError(), QString());
    }

    void studyDialogRepeatsOrderAndSingleSubmit()
    {
        FakeClusters fake;
        m_services->setClusters(&fake);
        const ClusterProfile *profile = m_services->profiles().find(QStringLiteral("testbed"));
        QVERIFY(profile);
        JobSpec base;
        base.profile = QStringLiteral("testbed");
        base.partition = QStringLiteral("gpu");
        base.framework = Framework::PytorchDdp;
        base.gpus = 1;
        base.time = QStringLiteral("00:10:00");
        base.jobName = QStringLiteral("honest");
        base.account = QStringLiteral("project_2001234");
        base.cpusPerGpu = 1;
        base.program = QStringLiteral("train.py");
        // A study with the proposed name exists: the dialog proposes another.
        StudyRecord existing;
        existing.name = QStringLiteral("honest testbed %1").arg(QDate::currentDate().toString(Qt::ISODate));
        QVERIFY(m_services->store().createStudy(existing).ok());
        ScalingStudyDialog dlg(*m_services, base, *profile);
        QTRY_VERIFY(!dlg.isLoading());   // the stored names are read on the pool
        QCOMPARE(dlg.nameEdit()->text(), existing.name + QStringLiteral(" (2)"));
        dlg.setSelectedGpuCounts({1, 2});
        dlg.repeatsBox()->setValue(2);
        QCOMPARE(dlg.variants().size(), 4);
        QCOMPARE(dlg.order(), StudyOrder::OneAtATime);   // the default
        QVERIFY(dlg.submitButton()->isEnabled());
        QTest::mouseDClick(dlg.submitButton(), Qt::LeftButton);
        QTest::mouseClick(dlg.submitButton(), Qt::LeftButton);
        QCOMPARE(fake.calls.size(), 1);
        QCOMPARE(fake.calls[0].specs.size(), 4);
        QCOMPARE(fake.calls[0].order, StudyOrder::OneAtATime);
        QCOMPARE(fake.calls[0].name, existing.name + QStringLiteral(" (2)"));
        QCOMPARE(fake.calls[0].specs[2].jobName, QStringLiteral("honest-1g-r2"));
        QVERIFY(!dlg.submitButton()->isEnabled());
        QVERIFY(dlg.nameEdit()->text() != fake.calls[0].name);   // the next study gets its own name
        // "All at once" is a choice; changing the study allows submitting it.
        dlg.orderCombo()->setCurrentIndex(1);
        QVERIFY(dlg.submitButton()->isEnabled());
        dlg.submitButton()->click();
        QCOMPARE(fake.calls.size(), 2);
        QCOMPARE(fake.calls[1].order, StudyOrder::AllAtOnce);
        m_services->setClusters(nullptr);
    }

    void cleanupTestCase() { m_services.reset(); }
};

QTEST_MAIN(TestStudyDialog)
#include "tst_studydialog.moc"
