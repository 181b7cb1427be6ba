// SHA-256 against the FIPS 180-4 example vectors, including the million-'a' message and inputs
// fed in uneven pieces.
#include <string>

#include "harness.hpp"
#include "sdkauth/sha256.hpp"

namespace {
std::string Hex(const sdkauth::Sha256::Digest& d) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (auto b : d) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}
}  // namespace

TEST(EmptyMessage) {
  CHECK_EQ(Hex(sdkauth::Sha256::Hash("")),
           std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
}

TEST(Abc) {
  CHECK_EQ(Hex(sdkauth::Sha256::Hash("abc")),
           std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
}

TEST(TwoBlockMessage) {
  CHECK_EQ(Hex(sdkauth::Sha256::Hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
           std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
}

TEST(FourBlockMessage) {
  CHECK_EQ(Hex(sdkauth::Sha256::Hash(
               "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
               "klmnopqrlmnopqrsmnopqrstnopqrstu")),
           std::string("cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"));
}

TEST(OneMillionA) {
  sdkauth::Sha256 h;
  const std::string chunk(1000, 'a');
  for (int i = 0; i < 1000; ++i) h.Update(chunk);
  CHECK_EQ(Hex(h.Finish()),
           std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
}

TEST(PaddingBoundaries) {
  // 55, 56 and 64 bytes straddle the length field; byte-at-a-time must equal one shot.
  for (std::size_t n : {55u, 56u, 63u, 64u, 65u, 119u, 120u}) {
    const std::string text(n, 'x');
    sdkauth::Sha256 h;
    for (char c : text) h.Update(&c, 1);
    CHECK_EQ(Hex(h.Finish()), Hex(sdkauth::Sha256::Hash(text)));
  }
}
