// SHA-256 (FIPS 180-4), written here so the core needs no crypto library.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sdkauth {

class Sha256 {
 public:
  using Digest = std::array<std::uint8_t, 32>;
  Sha256();
  void Update(const void* data, std::size_t size);
  void Update(std::string_view text) { Update(text.data(), text.size()); }
  Digest Finish();
  static Digest Hash(const void* data, std::size_t size);
  static Digest Hash(std::string_view text) { return Hash(text.data(), text.size()); }

 private:
  void Block(const std::uint8_t* block);
  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

}  // namespace sdkauth
