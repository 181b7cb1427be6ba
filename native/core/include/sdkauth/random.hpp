// Bytes from the operating system's CSPRNG: getrandom on Linux, arc4random_buf on the BSDs and
// macOS, BCryptGenRandom on Windows. No user-space generator, no seeding.
#pragma once
#include <cstddef>

namespace sdkauth {

// Fills `out` with `size` random bytes. Returns false only if the OS refuses, which callers
// must treat as fatal for the operation (never fall back to a weaker source).
bool SecureRandomBytes(void* out, std::size_t size);

}  // namespace sdkauth
