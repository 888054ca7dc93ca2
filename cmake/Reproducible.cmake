# SPDX-License-Identifier: GPL-3.0-or-later
# Byte-identical builds of one commit from any directory (checked by
# packaging/reproducible.sh): source and build paths are mapped away in debug
# info and __FILE__, and time stamps come from SOURCE_DATE_EPOCH when set
# (rcc and CPack read it at build time; gzip -n for the documentation).
include(CheckCXXCompilerFlag)
check_cxx_compiler_flag("-ffile-prefix-map=/a=b" SCALELAB_HAVE_FILE_PREFIX_MAP)
if(SCALELAB_HAVE_FILE_PREFIX_MAP)
  add_compile_options("-ffile-prefix-map=${CMAKE_SOURCE_DIR}/=" "-ffile-prefix-map=${CMAKE_BINARY_DIR}/=")
endif()
