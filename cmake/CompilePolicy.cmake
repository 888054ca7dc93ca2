# SPDX-License-Identifier: GPL-3.0-or-later
# The compile policy of the product (core, ssh, ui, app link scalelab_policy
# privately): Qt's stricter switches, so a loose conversion or a connection
# without a receiver does not compile. Tests are not held to it.
#   QT_NO_CONTEXTLESS_CONNECT  Qt 6.7 and later reject connect(sender, signal,
#                              lambda) without a context object; Debian 12 has
#                              Qt 6.4, so tst_architecture checks the same.
#   QT_NO_CAST_FROM_ASCII      not yet: every file but four compiles with it;
#                              the metric-pattern and lint-word tables
#                              (core/ingest/FrameworkReaders, core/scriptimport/
#                              LintRules*, ImportSummary) still use plain literals.
# SCALELAB_WERROR (on in ./setup.sh test, so in CI): every warning of every
# target, tests included, fails the build.
option(SCALELAB_WERROR "Treat compiler warnings as errors (./setup.sh test turns it on)" OFF)
if(SCALELAB_WERROR)
  add_compile_options(-Werror)
endif()
add_library(scalelab_policy INTERFACE)
target_compile_definitions(scalelab_policy INTERFACE
  QT_NO_CONTEXTLESS_CONNECT
  QT_NO_URL_CAST_FROM_STRING
  QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
  QT_NO_CAST_TO_ASCII
  QT_NO_CAST_FROM_BYTEARRAY)
# No Q_FOREACH either, except in ui/: QCustomPlot's header (Debian's
# libqcustomplot-dev 2.1, included by ui/results) still uses it.
add_library(scalelab_policy_strict INTERFACE)
target_link_libraries(scalelab_policy_strict INTERFACE scalelab_policy)
target_compile_definitions(scalelab_policy_strict INTERFACE QT_NO_FOREACH)
