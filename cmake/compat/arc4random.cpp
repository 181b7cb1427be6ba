// Linked into the Linux prebuilds only. The static libstdc++ of a glibc 2.36 toolchain refers to
// arc4random (GLIBC_2.36) from std::random_device; defining it here, hidden, keeps the binary
// loadable on glibc 2.35 (Ubuntu 22.04). Same contract: uniformly random, never fails silently.
#include <sys/random.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>

extern "C" __attribute__((visibility("hidden"))) std::uint32_t arc4random(void) {
  std::uint32_t value = 0;
  auto* p = reinterpret_cast<unsigned char*>(&value);
  std::size_t left = sizeof value;
  while (left > 0) {
    ssize_t n = getrandom(p, left, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      std::abort();  // as glibc's arc4random does: no entropy is not a recoverable state
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return value;
}
