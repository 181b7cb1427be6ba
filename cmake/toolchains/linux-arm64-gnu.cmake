# Cross build for Linux arm64 (glibc) with Debian's aarch64 cross GCC (g++-aarch64-linux-gnu),
# whose sysroot is /usr/aarch64-linux-gnu. Used by scripts/prebuilds.mjs for prebuilds/linux-arm64.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(SDKAUTH_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${SDKAUTH_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${SDKAUTH_TRIPLE}-g++)
set(CMAKE_STRIP ${SDKAUTH_TRIPLE}-strip)
set(CMAKE_FIND_ROOT_PATH /usr/${SDKAUTH_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
