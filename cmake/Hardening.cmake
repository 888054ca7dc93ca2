# SPDX-License-Identifier: GPL-3.0-or-later
# Debian's hardening defaults (what dpkg-buildflags would add), and the GNU
# linker options the project uses, each only where the toolchain has it: the
# macOS linker has neither -z relro nor --as-needed.
include(CheckCXXCompilerFlag)
include(CheckLinkerFlag)
check_cxx_compiler_flag(-fstack-protector-strong SCALELAB_HAVE_STACK_PROTECTOR)
if(SCALELAB_HAVE_STACK_PROTECTOR)
  add_compile_options(-fstack-protector-strong)
endif()
# _FORTIFY_SOURCE needs optimisation; a Debug build would only warn. Not in
# the sanitizer build: AddressSanitizer checks every access that fortified
# calls check, and that build compiles its tests without optimisation.
if(NOT SCALELAB_SANITIZE AND NOT SCALELAB_FUZZ)
  add_compile_definitions($<$<NOT:$<CONFIG:Debug>>:_FORTIFY_SOURCE=2>)
endif()
check_linker_flag(CXX "LINKER:-z,relro,-z,now" SCALELAB_HAVE_RELRO)
if(SCALELAB_HAVE_RELRO)
  add_link_options("LINKER:-z,relro,-z,now")
endif()
check_linker_flag(CXX "LINKER:--as-needed" SCALELAB_HAVE_AS_NEEDED)
