// SPDX-License-Identifier: GPL-3.0-or-later
// Editing the Compose form in the window as a researcher does: the mouse
// wheel over unfocused fields, Tab, Edit ▸ Undo/Redo, the modified mark in the
// title, the unsaved-changes question on Quit, Open and Clone, Ctrl+Q, the
// form restored on the next start, and Help.
#include "IsolatedHost.h"
#include "ScreenshotDir.h"
#include "core/model/JobSpecJson.h"
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "ui/compose/ComposeFiles.h"
#include "ui/compose/ComposePlace.h"
#include "ui/compose/DiagnosticsPanel.h"
#include "ui/compose/FormHistory.h"
#include "ui/compose/JobForm.h"
#include "ui/compose/ScriptPreview.h"
#include "ui/compose/SegmentsEditor.h"
#include "ui/window/HelpDialog.h"
#include "ui/window/MainWindow.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QCompleter>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QAbstractItemView>
#include <QCheckBox>
#include <QLabel>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QStandardPaths>
#include <QLineEdit>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QUndoStack>
#include <QWheelEvent>
#include <QtTest>

#include <memory>

using namespace scalelab;

namespace {

void wheelOver(QWidget *w, int steps)
{
    const QPointF pos = QPointF(w->rect().center());
    QWheelEvent ev(pos, w->mapToGlobal(pos), QPoint(), QPoint(0, 120 * steps), Qt::NoButton, Qt::NoModifier,
                   Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &ev);
}

QMessageBox *openQuestion(ComposePlace *compose)
{
    return compose->files()->pendingQuestion();
}

void answer(QMessageBox *box, QMessageBox::StandardButton which)
{
    QAbstractButton *b = box->button(which);
    QVERIFY(b);
    b->click();
}

}   // namespace

class TestComposeEditing : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateFromHost(m_dir, QStringLiteral("tst_composeediting"));
        qputenv("SCALELAB_SETTINGS_FILE", m_dir.filePath(QStringLiteral("settings.ini")).toUtf8());
        QApplication::setQuitOnLastWindowClosed(false);
    }

    void init()
    {
        // Each test starts from a fresh form, not the one the last test left.
        AppSettings::reset(AppSettings::Key::LastSpecJson);
        m_services = std::make_unique<AppServices>();
        m_window = std::make_unique<MainWindow>(*m_services);
        m_window->resize(1280, 800);
        m_window->show();
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        m_compose = m_window->compose();
        QVERIFY(m_compose);
        // A place built after the window is shown appears with the next events.
        QTRY_VERIFY(m_compose->isVisible());
    }

    void cleanup()
    {
        if (QMessageBox *box = m_compose ? openQuestion(m_compose) : nullptr)
            box->done(QMessageBox::Cancel);
        m_window.reset();
        m_services.reset();
        m_compose = nullptr;
    }

    void wheelOverUnfocusedSpinBoxChangesNothing()
    {
        QSpinBox *gpus = m_compose->form()->gpusSpin();
        gpus->setValue(4);
        m_compose->form()->timeEdit()->setFocus();
        QVERIFY(!gpus->hasFocus());
        wheelOver(gpus, 1);
        QCOMPARE(gpus->value(), 4);
        QCOMPARE(m_compose->spec().gpus, 4);
        // The wheel goes on to the form's scroll area instead of the field.
        QComboBox *framework = qobject_cast<QComboBox *>(m_compose->form()->fieldWidget(QStringLiteral("framework")));
        QVERIFY(framework);
        const int before = framework->currentIndex();
        wheelOver(framework, -1);
        QCOMPARE(framework->currentIndex(), before);
    }

    void wheelOverFocusedSpinBoxChangesIt()
    {
        QSpinBox *gpus = m_compose->form()->gpusSpin();
        gpus->setValue(4);
        gpus->setFocus();
        QVERIFY(gpus->hasFocus());
        wheelOver(gpus, 1);
        QCOMPARE(gpus->value(), 5);
    }

    void tabFollowsTheLayout()
    {
        JobForm *form = m_compose->form();
        const QStringList expected{QStringLiteral("profile"),
                                   QStringLiteral("partition"),
                                   QStringLiteral("account"),
                                   QStringLiteral("time"),
                                   QStringLiteral("gpus"),
                                   QStringLiteral("nodes"),
                                   QStringLiteral("framework"),
                                   QStringLiteral("launcher"),
                                   QStringLiteral("cpusPerGpu"),
                                   QStringLiteral("memory"),
                                   QStringLiteral("program"),
                                   QStringLiteral("args"),
                                   QStringLiteral("jobName"),
                                   QStringLiteral("monitoring.gpuSampleSeconds"),
                                   QStringLiteral("monitoring.metricDirs")};
        form->fieldWidget(expected.first())->setFocus();
        QStringList seen{QApplication::focusWidget()->objectName()};
        for (int i = 1; i < expected.size(); ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QWidget *f = QApplication::focusWidget();
            // A spin box's line edit stands for its spin box.
            while (f && f->objectName().isEmpty() && f->parentWidget())
                f = f->parentWidget();
            seen << (f ? f->objectName() : QString());
        }
        QCOMPARE(seen, expected);
    }

    // The metric folders field reads and writes the spec's list, split like a
    // shell, and a validator finding on it focuses it.
    void metricFoldersFieldIsTheSpecsList()
    {
        JobForm *form = m_compose->form();
        auto *edit = qobject_cast<QLineEdit *>(form->fieldWidget(QStringLiteral("monitoring.metricDirs")));
        QVERIFY(edit);
        edit->setText(QStringLiteral("/scratch/$USER/tb 'with space'"));
        QCOMPARE(form->spec().metricDirs, QStringList({"/scratch/$USER/tb", "with space"}));
        JobSpec s = form->spec();
        s.metricDirs = {QStringLiteral("out")};
        form->setSpec(s);
        QCOMPARE(edit->text(), QStringLiteral("out"));
    }

    // The segment fields (a run longer than the time limit) give the spec
    // back, through the spec file's text too; "One job" leaves no --signal in
    // the script; SegmentRules' error shows under the fields and activating it
    // frames the lead field.
    void segmentFieldsRoundTripAndShowTheirErrors()
    {
        JobForm *form = m_compose->form();
        JobSpec s = form->spec();
        s.time = QStringLiteral("01:00:00");
        s.program = QStringLiteral("/home/researcher/train.py");
        s.segments = SegmentSpec{};
        s.segments.count = 4;
        s.segments.signalLeadSeconds = 300;
        s.segments.signal = QStringLiteral("USR2");
        s.segments.requeue = true;
        s.segments.checkpointSeconds = 90;
        m_compose->loadSpec(s);
        QCOMPARE(form->spec().segments, s.segments);
        const JobSpecParseResult back = parseJobSpec(jobSpecToJson(form->spec()));
        QVERIFY(back.spec);
        QCOMPARE(back.spec->segments, s.segments);
        QVERIFY(m_compose->preview()->script().contains(QStringLiteral("#SBATCH --signal=B:USR2@300")));
        QVERIFY(m_compose->preview()->script().contains(QStringLiteral("#SBATCH --requeue")));

        s.segments.count = 0;
        s.segments.untilDone = true;
        m_compose->loadSpec(s);
        QCOMPARE(form->spec().segments, s.segments);

        // Edited as a researcher does: the mode combo, then the lead spin box.
        auto *mode = qobject_cast<QComboBox *>(form->fieldWidget(QStringLiteral("segments.count")));
        QVERIFY(mode);
        mode->setCurrentIndex(0);
        QCOMPARE(form->spec().segments, SegmentSpec{});
        QVERIFY(!m_compose->preview()->script().contains(QStringLiteral("--signal")));
        mode->setCurrentIndex(1);
        auto *count = qobject_cast<QSpinBox *>(form->fieldWidget(QStringLiteral("segments.count")));
        QVERIFY(count);
        count->setValue(3);
        auto *lead = qobject_cast<QSpinBox *>(form->fieldWidget(QStringLiteral("segments.signalLead")));
        QVERIFY(lead);
        lead->setValue(3600);   // not shorter than the hour's limit
        QCOMPARE(form->spec().segments.count, 3);
        QLabel *findings = form->segmentsEditor()->findingsLabel();
        QVERIFY(findings->isVisible());
        QVERIFY2(findings->text().contains(QStringLiteral("shorter than the time limit")),
                 qPrintable(findings->text()));
        QTableWidgetItem *row = m_compose->diagnosticsPanel()->itemForRule(QStringLiteral("segments-lead"));
        QVERIFY(row);
        Q_EMIT m_compose->diagnosticsPanel()->tree()->itemActivated(row);
        QCOMPARE(lead->property("diagnostic").toString(), QStringLiteral("error"));
        QScrollArea *area = nullptr;
        for (QWidget *p = form->parentWidget(); p && !area; p = p->parentWidget())
            area = qobject_cast<QScrollArea *>(p);
        QVERIFY(area);
        area->ensureWidgetVisible(findings);
        m_compose->grab().save(test::screenshotPath(QStringLiteral("compose-segments.png")));
        lead->setValue(300);
        QVERIFY(!findings->isVisible());
    }

    // A discovered profile's modules and images complete in Environment; a
    // version the cluster lacks is a warning on the Modules field.
    void modulesCompleteFromTheDiscoveredList()
    {
        QFile shipped(QStringLiteral(SCALELAB_TESTS_DIR "/../profiles/testbed.json"));
        QVERIFY(shipped.open(QIODevice::ReadOnly));
        QJsonObject profile = QJsonDocument::fromJson(shipped.readAll()).object();
        const QString source = QStringLiteral("module -t spider (on testbed, 2026-11-27)");
        profile.insert(
            QStringLiteral("availableModules"),
            QJsonObject{{"value", QJsonArray{"cuda/12.2", "pytorch/2.4.1", "pytorch/2.6.0"}}, {"source", source}});
        profile.insert(QStringLiteral("containerImages"),
                       QJsonObject{{"value", QJsonArray{"/tmp/scalelab-testcluster/containers/pytorch_24.05.sif"}},
                                   {"source", QStringLiteral("ls (on testbed, 2026-11-27)")}});
        const QString dir = m_dir.filePath(QStringLiteral("user-profiles"));
        QVERIFY(QDir().mkpath(dir));
        QFile user(dir + QStringLiteral("/testbed.json"));
        QVERIFY(user.open(QIODevice::WriteOnly));
        user.write(QJsonDocument(profile).toJson());
        user.close();
        qputenv("SCALELAB_USER_PROFILE_DIR", dir.toUtf8());
        cleanup();
        init();
        JobSpec s = m_compose->spec();
        s.profile = QStringLiteral("testbed");
        s.partition = QStringLiteral("gpu");
        s.environment.modules = {QStringLiteral("pytorch/2.9")};
        m_compose->loadSpec(s);
        auto *modules =
            qobject_cast<QLineEdit *>(m_compose->form()->fieldWidget(QStringLiteral("environment.modules")));
        QVERIFY(modules && modules->completer());
        QVERIFY2(modules->toolTip().contains(source), qPrintable(modules->toolTip()));
        bool warned = false;
        for (const Diagnostic &d : m_compose->diagnosticsPanel()->diagnostics())
            warned = warned
                     || (d.rule == QLatin1String("module-not-on-cluster") && d.severity == Severity::Warning
                         && d.message.contains(QLatin1String("pytorch/2.4.1, pytorch/2.6.0")));
        QVERIFY(warned);
        // Typing the last word of the list offers the cluster's versions; taking one keeps the words before.
        modules->setFocus();
        modules->clear();
        QTest::keyClicks(modules, QStringLiteral("cuda/12.2, pyt"));
        QCompleter *c = modules->completer();
        QTRY_VERIFY(c->popup()->isVisible());
        QCOMPARE(c->completionCount(), 2);
        c->setCurrentRow(1);
        QCOMPARE(c->pathFromIndex(c->currentIndex()), QStringLiteral("cuda/12.2, pytorch/2.6.0"));
        c->popup()->setCurrentIndex(c->completionModel()->index(0, 0));
        QTest::keyClick(c->popup(), Qt::Key_Return);
        QCOMPARE(m_compose->spec().environment.modules, (QStringList{"cuda/12.2", "pytorch/2.4.1"}));
        bool stillWarned = false;
        for (const Diagnostic &d : m_compose->diagnosticsPanel()->diagnostics())
            stillWarned = stillWarned || d.rule == QLatin1String("module-not-on-cluster");
        QVERIFY(!stillWarned);
        auto *image =
            qobject_cast<QLineEdit *>(m_compose->form()->fieldWidget(QStringLiteral("environment.container.image")));
        QVERIFY(image && image->completer());
        image->completer()->setCompletionPrefix(QStringLiteral("pyt"));
        QCOMPARE(image->completer()->completionCount(), 1);
        qunsetenv("SCALELAB_USER_PROFILE_DIR");
    }

    void undoAndRedoFormEdits()
    {
        QAction *undo = m_window->action(QStringLiteral("undo"));
        QAction *redo = m_window->action(QStringLiteral("redo"));
        QVERIFY(undo && redo);
        QVERIFY(!undo->isEnabled());
        QLineEdit *program = qobject_cast<QLineEdit *>(m_compose->form()->fieldWidget(QStringLiteral("program")));
        program->setFocus();
        QTest::keyClicks(program, QStringLiteral("/home/researcher/train.py"));   // one step: one field
        QSpinBox *gpus = m_compose->form()->gpusSpin();
        gpus->setFocus();
        gpus->setValue(4);
        QCOMPARE(m_compose->history()->stack()->count(), 2);
        QVERIFY(undo->isEnabled());
        undo->trigger();
        QCOMPARE(m_compose->spec().gpus, 1);
        QCOMPARE(m_compose->spec().program, QStringLiteral("/home/researcher/train.py"));
        undo->trigger();
        QCOMPARE(m_compose->spec().program, QString());
        QVERIFY(!undo->isEnabled());
        QVERIFY(!m_window->isWindowModified());
        redo->trigger();
        QCOMPARE(m_compose->spec().program, QStringLiteral("/home/researcher/train.py"));
        redo->trigger();
        QCOMPARE(m_compose->spec().gpus, 4);
        // The preview follows the undone state too.
        QVERIFY(m_window->isWindowModified());
    }

    void titleShowsFileAndModifiedMark()
    {
        QCOMPARE(m_window->windowTitle(), QStringLiteral("Untitled[*] — ScaleLab"));
        QVERIFY(!m_window->isWindowModified());
        const QString path = m_dir.filePath(QStringLiteral("scaling-8.json"));
        QCOMPARE(m_compose->files()->saveSpecFile(path), QString());
        QCOMPARE(m_window->windowTitle(), QStringLiteral("scaling-8.json[*] — ScaleLab"));
        m_compose->form()->gpusSpin()->setValue(8);
        QVERIFY(m_window->isWindowModified());
        QCOMPARE(m_compose->files()->saveSpecFile(path), QString());
        QVERIFY(!m_window->isWindowModified());
    }

    void quitAsksWhenUnsavedAndCancelKeepsTheWindow()
    {
        m_compose->form()->gpusSpin()->setValue(3);
        QVERIFY(m_window->isWindowModified());
        QVERIFY(!m_window->close());   // asked, not closed
        QMessageBox *box = openQuestion(m_compose);
        QVERIFY(box);
        QVERIFY(box->text().contains(QLatin1String("before quitting")));
        answer(box, QMessageBox::Cancel);
        QVERIFY(m_window->isVisible());
        QCOMPARE(m_compose->spec().gpus, 3);
    }

    void ctrlQQuitsAfterDiscard()
    {
        m_compose->form()->gpusSpin()->setValue(6);
        QTest::keyClick(m_window.get(), Qt::Key_Q, Qt::ControlModifier);
        QMessageBox *box = openQuestion(m_compose);
        QVERIFY2(box, "Ctrl+Q did not reach the Quit action");
        answer(box, QMessageBox::Discard);
        QTRY_VERIFY(!m_window->isVisible());
    }

    void ctrlQQuitsAtOnceWhenNothingIsUnsaved()
    {
        QVERIFY(!m_compose->isModified());
        QTest::keyClick(m_window.get(), Qt::Key_Q, Qt::ControlModifier);
        QTRY_VERIFY(!m_window->isVisible());
        QVERIFY(!openQuestion(m_compose));
    }

    void openAsksAndSaveKeepsTheEdits()
    {
        const QString path = m_dir.filePath(QStringLiteral("kept.json"));
        QCOMPARE(m_compose->files()->saveSpecFile(path), QString());
        m_compose->form()->gpusSpin()->setValue(7);
        bool opened = false;
        m_compose->files()->whenDiscardable(QStringLiteral("opening another spec"), [&opened] { opened = true; });
        QMessageBox *box = openQuestion(m_compose);
        QVERIFY(box);
        QVERIFY(!opened);
        answer(box, QMessageBox::Save);
        QVERIFY(opened);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(parseJobSpec(f.readAll()).spec->gpus, 7);
    }

    void importAsksBeforeReplacingAnEditedForm()
    {
        m_compose->form()->gpusSpin()->setValue(5);
        QVERIFY(m_compose->isModified());
        m_compose->files()->importScriptDialog();
        QMessageBox *box = openQuestion(m_compose);
        QVERIFY2(box, "Import replaced an edited form without asking");
        QVERIFY2(box->text().contains(QLatin1String("before importing a script")), qPrintable(box->text()));
        QVERIFY(!m_window->findChild<QFileDialog *>(QStringLiteral("importScriptDialog")));
        answer(box, QMessageBox::Cancel);
        QTRY_VERIFY(!openQuestion(m_compose));
        QVERIFY(!m_window->findChild<QFileDialog *>(QStringLiteral("importScriptDialog")));
        QCOMPARE(m_compose->spec().gpus, 5);

        // A dropped script asks too; Discard goes on with it.
        const QString script = QStringLiteral(SCALELAB_TEST_DATA_DIR "/scripts/csc-mahti-ddp-2node.sbatch");
        m_compose->files()->openDropped(script);
        box = openQuestion(m_compose);
        QVERIFY2(box, "a dropped script replaced an edited form without asking");
        QCOMPARE(m_compose->spec().gpus, 5);
        answer(box, QMessageBox::Discard);
        QVERIFY(m_compose->diagnosticsPanel()->hasImported());
        QTRY_VERIFY(!openQuestion(m_compose));

        // Nothing unsaved (an import is, so edit nothing after saving): the file dialog at once.
        QCOMPARE(m_compose->files()->saveSpecFile(m_dir.filePath(QStringLiteral("imported.json"))), QString());
        m_compose->files()->importScriptDialog();
        QVERIFY(!openQuestion(m_compose));
        auto *dialog = m_window->findChild<QFileDialog *>(QStringLiteral("importScriptDialog"));
        QVERIFY(dialog);
        dialog->reject();
    }

    void saveAsStartsInTheResearchersFolder()
    {
        const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        const QString home =
            QDir(!documents.isEmpty() && QFileInfo(documents).isDir() ? documents : QDir::homePath()).canonicalPath();
        // The working directory is never proposed: a window started from a terminal has an arbitrary one.
        const QString elsewhere = m_dir.filePath(QStringLiteral("cwd"));
        QVERIFY(QDir().mkpath(elsewhere));
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(elsewhere));
        auto startFolder = [this] {
            m_compose->files()->saveSpecAsDialog();
            auto *dialog = m_window->findChild<QFileDialog *>(QStringLiteral("saveSpecAsDialog"));
            if (!dialog)
                return QStringLiteral("(no dialog)");
            const QString folder = dialog->directory().canonicalPath();
            dialog->reject();
            delete dialog;
            return folder;
        };
        const QString untitled = startFolder();
        // A spec from ScaleLab's own folders (here its data folder) is not saved back there.
        const QString data = RunStore::defaultDataDirectory();
        QVERIFY(QDir().mkpath(data));
        QCOMPARE(m_compose->files()->saveSpecFile(QDir(data).filePath(QStringLiteral("from-data.json"))), QString());
        const QString fromData = startFolder();
        // A spec of the researcher's own: its folder.
        const QString mine = m_dir.filePath(QStringLiteral("mine"));
        QVERIFY(QDir().mkpath(mine));
        QCOMPARE(m_compose->files()->saveSpecFile(QDir(mine).filePath(QStringLiteral("train.json"))), QString());
        const QString fromMine = startFolder();
        QVERIFY(QDir::setCurrent(before));
        QCOMPARE(untitled, home);
        QCOMPARE(fromData, home);
        QCOMPARE(fromMine, QDir(mine).canonicalPath());
    }

    void openActionAsksFirst()
    {
        m_compose->form()->gpusSpin()->setValue(2);
        m_window->action(QStringLiteral("openSpec"))->trigger();
        QMessageBox *box = openQuestion(m_compose);
        QVERIFY2(box, "File ▸ Open replaced an edited form without asking");
        QVERIFY(box->text().contains(QLatin1String("opening another spec")));
        answer(box, QMessageBox::Cancel);
    }

    void cloneAsksAndDiscardLoadsTheRun()
    {
        m_compose->form()->gpusSpin()->setValue(2);
        JobSpec cloned = m_compose->spec();
        cloned.gpus = 16;
        Q_EMIT m_services->openSpecRequested(cloned);
        QCOMPARE(m_compose->spec().gpus, 2);   // not replaced yet
        QMessageBox *box = openQuestion(m_compose);
        QVERIFY2(box, "Clone replaced an edited form without asking");
        answer(box, QMessageBox::Discard);
        QCOMPARE(m_compose->spec().gpus, 16);
        // A run's spec is not a saved file.
        QVERIFY(m_window->isWindowModified());
        QCOMPARE(m_window->windowTitle(), QStringLiteral("Untitled[*] — ScaleLab"));
    }

    void lastProfileAndSpecComeBack()
    {
        JobSpec s = m_compose->spec();
        s.profile = QStringLiteral("lumi");
        s.partition.clear();
        s.gpus = 16;
        s.program = QStringLiteral("/scratch/project/researcher/train.py");
        m_compose->loadSpec(s);
        m_compose->history()->reset(false);
        QVERIFY(m_window->close());
        // The next start.
        m_window.reset();
        m_services = std::make_unique<AppServices>();
        m_window = std::make_unique<MainWindow>(*m_services);
        m_window->show();
        m_compose = m_window->compose();
        QTRY_COMPARE(m_compose->spec().profile, QStringLiteral("lumi"));
        QCOMPARE(m_compose->spec().gpus, 16);
        QCOMPARE(m_compose->spec().program, QStringLiteral("/scratch/project/researcher/train.py"));
        QCOMPARE(m_compose->form()->profileCombo()->currentData().toString(), QStringLiteral("lumi"));
    }

    void notesLeaveWhileAnErrorShows()
    {
        JobSpec s = m_compose->spec();
        s.profile = QStringLiteral("puhti");
        s.partition = QStringLiteral("gpu");
        s.gpus = 8;
        s.time = QStringLiteral("01:00:00");
        s.program = QStringLiteral("/scratch/project/train.py");
        s.account = QStringLiteral("project_2001234");
        m_compose->loadSpec(s);
        auto count = [this](Severity sev) {
            int n = 0;
            for (const Diagnostic &d : m_compose->diagnosticsPanel()->diagnostics())
                n += d.severity == sev;
            return n;
        };
        QCOMPARE(count(Severity::Error), 0);
        QVERIFY2(count(Severity::Info) > 0, "the valid job should carry its notes (omp-threads)");
        s.time = QStringLiteral("99-00:00:00");   // beyond the partition's limit: an error
        m_compose->loadSpec(s);
        QVERIFY(count(Severity::Error) > 0);
        QCOMPARE(count(Severity::Info), 0);
    }

    void helpHasGuideAndEveryShortcut()
    {
        m_window->action(QStringLiteral("guide"))->trigger();
        HelpDialog *help = m_window->helpDialog();
        QVERIFY(help);
        QVERIFY(help->isVisible());
        QVERIFY(help->guide()->toPlainText().contains(QLatin1String("Dry run")));
        QTableWidget *table = help->shortcuts();
        QStringList rows;
        for (int i = 0; i < table->rowCount(); ++i)
            rows << table->item(i, 0)->text() + QLatin1Char('=') + table->item(i, 1)->text();
        QVERIFY2(rows.contains(QStringLiteral("Quit=Ctrl+Q")), qPrintable(rows.join(QLatin1Char('\n'))));
        QVERIFY2(rows.contains(QStringLiteral("Undo=Ctrl+Z")), qPrintable(rows.join(QLatin1Char('\n'))));
        QVERIFY2(rows.contains(QStringLiteral("Submit=Ctrl+Return or Ctrl+Enter")),
                 qPrintable(rows.join(QLatin1Char('\n'))));
        QVERIFY2(rows.contains(QStringLiteral("Connections=Ctrl+K")), qPrintable(rows.join(QLatin1Char('\n'))));
        // Quit is bound once: Qt drops a key bound twice ("Ambiguous shortcut overload").
        QCOMPARE(m_window->action(QStringLiteral("quit"))->shortcuts().size(), 1);
        help->close();
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<MainWindow> m_window;
    ComposePlace *m_compose = nullptr;
};

QTEST_MAIN(TestComposeEditing)
#include "tst_composeediting.moc"
