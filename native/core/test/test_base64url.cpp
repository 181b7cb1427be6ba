// base64url against the RFC 4648 §10 vectors (translated to the URL alphabet, no padding),
// the URL-safe characters, and decoding's refusal of non-canonical input.
#include <string>
#include <vector>

#include "harness.hpp"
#include "sdkauth/base64url.hpp"

TEST(Rfc4648Vectors) {
  CHECK_EQ(sdkauth::Base64UrlEncode(""), std::string(""));
  CHECK_EQ(sdkauth::Base64UrlEncode("f"), std::string("Zg"));
  CHECK_EQ(sdkauth::Base64UrlEncode("fo"), std::string("Zm8"));
  CHECK_EQ(sdkauth::Base64UrlEncode("foo"), std::string("Zm9v"));
  CHECK_EQ(sdkauth::Base64UrlEncode("foob"), std::string("Zm9vYg"));
  CHECK_EQ(sdkauth::Base64UrlEncode("fooba"), std::string("Zm9vYmE"));
  CHECK_EQ(sdkauth::Base64UrlEncode("foobar"), std::string("Zm9vYmFy"));
}

TEST(UrlAlphabet) {
  const unsigned char bytes[] = {0xfb, 0xff, 0xbf};
  CHECK_EQ(sdkauth::Base64UrlEncode(bytes, 3), std::string("-_-_"));
}

TEST(RoundTrip) {
  std::string all;
  for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
  for (std::size_t n = 0; n <= all.size(); n += 7) {
    const std::string text = all.substr(0, n);
    const auto decoded = sdkauth::Base64UrlDecode(sdkauth::Base64UrlEncode(text));
    CHECK(decoded.has_value());
    CHECK(std::string(decoded->begin(), decoded->end()) == text);
  }
}

TEST(DecodeRejectsBadInput) {
  CHECK(!sdkauth::Base64UrlDecode("Zg==").has_value());  // padding is not base64url here
  CHECK(!sdkauth::Base64UrlDecode("Z").has_value());     // impossible length
  CHECK(!sdkauth::Base64UrlDecode("Zm+v").has_value());  // '+' belongs to standard base64
  CHECK(!sdkauth::Base64UrlDecode("Zh").has_value());    // non-zero trailing bits
}
