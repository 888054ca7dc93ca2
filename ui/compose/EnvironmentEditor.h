// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/model/JobSpec.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QTableWidget;
class QPushButton;

namespace scalelab {

class WordCompleter;

// The environment part of the job form: modules, container, setup lines and
// exported variables.
class EnvironmentEditor : public QWidget {
    Q_OBJECT
public:
    explicit EnvironmentEditor(QWidget *parent = nullptr);

    JobEnvironment environment() const;
    void setEnvironment(const JobEnvironment &env);
    // The profile's defaults, and what the cluster was found to have (nullopt:
    // never listed) for completing Modules and Container.
    void setProfileHints(const ClusterProfile &profile);
    QStringList moduleCompletions() const;
    QStringList imageCompletions() const;

    // Spec field key ("environment.modules", ...) -> the widget editing it.
    QWidget *fieldWidget(const QString &field) const;

Q_SIGNALS:
    void edited();

private:
    void addVariableRow(const QString &name, const QString &value);
    void changed();

    QLineEdit *m_modules;
    QLineEdit *m_image;
    QComboBox *m_runtime;
    QLineEdit *m_binds;
    QPlainTextEdit *m_setup;
    QTableWidget *m_variables;
    QPushButton *m_addVariable;
    QPushButton *m_removeVariable;
    WordCompleter *m_moduleCompleter;
    WordCompleter *m_imageCompleter;
    bool m_updating = false;
};

}   // namespace scalelab
