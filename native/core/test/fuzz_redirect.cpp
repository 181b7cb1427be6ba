// libFuzzer harness for redirect parsing: SplitUrl, ParseQuery, PercentDecode/PercentEncode and
// EvaluateRedirect on arbitrary bytes, checking the invariants callers rely on. Built and run
// by scripts/fuzz-redirect.mjs with clang -fsanitize=fuzzer,address,undefined; not part of ctest.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sdkauth/redirect.hpp"
#include "sdkauth/url.hpp"

namespace {

// The state the corpus uses (test/fuzz/corpus/*.jsonl with {STATE} expanded).
const std::string kState = "Fuzz-state_0.~9";

void Require(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "invariant broken: %s\n", what);
    std::abort();
  }
}

bool VisibleAscii(const std::string& text) {
  if (text.empty()) return false;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u > 0x7E) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);

  // Encoding then decoding gives back any byte string; the encoding is plain ASCII.
  const std::string encoded = sdkauth::PercentEncode(input);
  const auto decoded = sdkauth::PercentDecode(encoded, true);
  Require(decoded && *decoded == input, "PercentDecode(PercentEncode(x)) == x");

  // A parsed query survives re-encoding: same names and values, in the same order.
  if (const auto params = sdkauth::ParseQuery(input)) {
    Require(params->size() <= 64, "ParseQuery keeps at most 64 parameters");
    const auto again = sdkauth::ParseQuery(sdkauth::EncodeQuery(*params));
    Require(again && *again == *params, "ParseQuery(EncodeQuery(p)) == p");
  }

  if (const auto parts = sdkauth::SplitUrl(input)) {
    for (char c : input) {
      const auto u = static_cast<unsigned char>(c);
      Require(u > 0x20 && u < 0x7F, "SplitUrl accepts only visible ASCII");
    }
    Require(!parts->scheme.empty(), "a split URL has a scheme");
    for (char c : parts->scheme) Require(!(c >= 'A' && c <= 'Z'), "the scheme is lower-cased");
    Require(parts->has_authority || parts->authority.empty(), "no authority without '//'");
    Require(parts->path.find_first_of("?#") == std::string::npos, "the path holds no '?' or '#'");
    Require(parts->query.find('#') == std::string::npos, "the query holds no '#'");
  }

  // Only the right state can end the flow, and success always carries a usable code.
  for (const std::string& state : {kState, input}) {
    const auto verdict = sdkauth::EvaluateRedirect(input, state);
    if (verdict.kind == sdkauth::RedirectVerdict::Kind::Success) {
      Require(VisibleAscii(verdict.code) && verdict.code.size() <= 2048, "a code is 1-2048 visible ASCII");
    }
    if (verdict.kind != sdkauth::RedirectVerdict::Kind::Ignore) {
      Require(input.find("state") != std::string::npos || input.find('%') != std::string::npos,
              "a verdict needs a state parameter");
      Require(!verdict.result.Successful() || verdict.kind == sdkauth::RedirectVerdict::Kind::Success,
              "a failure carries a failed result");
    }
  }
  return 0;
}
