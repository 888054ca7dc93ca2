// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled only to make the precompiled header the tests share
// (cmake/Precompiled.cmake, tests/CMakeLists.txt).
