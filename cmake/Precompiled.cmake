# SPDX-License-Identifier: GPL-3.0-or-later
# Build speed on small machines (CI has 2 cores and builds the project three
# times: for the tests, and twice for the reproducible-build check).
#
# Precompiled headers, for the tests only: nearly every test includes
# <QtTest>, which pulls all of Qt Core (and with Qt Widgets, the widget test
# helpers) in, 270,000 lines before the test's own first line. The tests of
# one library share one precompiled header (REUSE_FROM a donor target compiled
# with the same flags: tests/CMakeLists.txt), so it is parsed once, not ~70
# times. Measured on single files: a unit test 30 % less compile time, a GUI
# test 22 % less. The product's own files include much less, and there a
# precompiled Qt was slower (a 180 MB header loaded for a file that needs a
# tenth of it: ui/compose/JobForm 13.1 s against 7.6 s of CPU), so they parse
# what they include. No project header and no POSIX header goes in.
#
# lld, when the compiler can use it: linking ~150 test executables with debug
# line tables takes a quarter of the time GNU ld needs (0.5 s against 2.1 s
# for tst_results).
option(SCALELAB_PCH "Precompile <QtTest> once for all tests (a third less test compile time)" ON)

# scalelab_test_precompile(<target>): the donor's precompiled header.
function(scalelab_test_precompile target)
  if(SCALELAB_PCH)
    target_precompile_headers(${target} PRIVATE <QtTest> <QTemporaryDir> <QProcess> <QElapsedTimer>
      <algorithm> <functional> <memory> <optional> <vector>)
  endif()
endfunction()

# scalelab_reuse_precompiled(<target> <donor>): use <donor>'s precompiled
# header; the donor is compiled with the same flags (see tests/CMakeLists.txt).
# AUTOMOC's mocs_compilation.cpp of a test is empty (its moc is included by
# the test file itself) and skips it: loading a 230 MB precompiled header for
# an empty file cost 2.6 s of CPU, 123 times per build.
function(scalelab_reuse_precompiled target donor)
  if(SCALELAB_PCH)
    target_precompile_headers(${target} REUSE_FROM ${donor})
    set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${target}_autogen/mocs_compilation.cpp
      PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  endif()
endfunction()

include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=lld" SCALELAB_HAVE_LLD)
if(SCALELAB_HAVE_LLD)
  add_link_options(-fuse-ld=lld)
endif()
