// libFuzzer harness for the desktop client IPC readers: IpcFrameReader on an arbitrary byte
// stream cut at arbitrary points, and ParseJson on every frame body and on the raw input, with
// the invariants the IPC code relies on. Built and run by scripts/fuzz-ipc.mjs with clang
// -fsanitize=fuzzer,address,undefined; not part of ctest (test_ipc.cpp runs a seeded fuzz there).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sdkauth/ipc_frame.hpp"
#include "sdkauth/ipc_json.hpp"

namespace {

constexpr std::uint32_t kLimit = 4096;

void Require(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "invariant broken: %s\n", what);
    std::abort();
  }
}

void CheckJson(const std::string& text) {
  const auto parsed = sdkauth::ParseJson(text);
  if (!parsed) return;
  const std::string written = sdkauth::WriteJson(*parsed);
  const auto again = sdkauth::ParseJson(written);
  Require(again.has_value(), "written JSON parses");
  Require(*again == *parsed, "ParseJson(WriteJson(v)) == v");
  Require(sdkauth::WriteJson(*again) == written, "writing is stable");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  CheckJson(input);

  // The first byte picks how the stream is cut, as a socket would deliver it.
  const std::size_t step = size > 0 ? 1 + data[0] % 64 : 1;
  sdkauth::IpcFrameReader reader(kLimit);
  std::size_t at = size > 0 ? 1 : 0;
  while (at < size) {
    const std::size_t take = std::min({step, reader.Wanted(), size - at});
    Require(take > 0, "the reader always wants a byte");
    reader.Feed(input.data() + at, take);
    at += take;
    Require(reader.Buffered() <= sdkauth::kIpcHeaderBytes + kLimit, "the reader holds at most one frame");
    sdkauth::IpcFrame frame;
    const auto status = reader.Next(&frame);
    if (status == sdkauth::IpcFrameReader::Status::Frame) {
      Require(frame.body.size() <= kLimit, "no frame over the limit");
      Require(static_cast<std::uint32_t>(frame.opcode) <= 4, "known opcodes only");
      Require(sdkauth::EncodeIpcFrame(frame.opcode, frame.body).size() == sdkauth::kIpcHeaderBytes + frame.body.size(),
              "a frame re-encodes to header plus body");
      CheckJson(frame.body);
    } else if (status != sdkauth::IpcFrameReader::Status::NeedMore) {
      Require(reader.Buffered() == 0, "a dead stream holds nothing");
      break;
    }
  }
  return 0;
}
