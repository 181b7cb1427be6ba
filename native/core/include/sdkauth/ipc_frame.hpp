// Frames of the desktop client's IPC: an 8-byte little-endian header (opcode u32, length u32)
// and a JSON body of that length. The reader refuses a frame whose header announces more than
// its limit before buffering any of the body, so a hostile peer cannot make it allocate.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace sdkauth {

enum class IpcOpcode : std::uint32_t { Handshake = 0, Frame = 1, Close = 2, Ping = 3, Pong = 4 };

constexpr std::size_t kIpcHeaderBytes = 8;
constexpr std::uint32_t kMaxIpcFrameBytes = 64 * 1024;

std::string EncodeIpcFrame(IpcOpcode opcode, const std::string& body);

struct IpcFrame {
  IpcOpcode opcode = IpcOpcode::Frame;
  std::string body;
};

class IpcFrameReader {
 public:
  enum class Status { NeedMore, Frame, TooLarge, BadOpcode };
  explicit IpcFrameReader(std::uint32_t max_body = kMaxIpcFrameBytes) : max_body_(max_body) {}
  // Takes bytes read from the peer. After TooLarge or BadOpcode the reader keeps that status:
  // the stream cannot be resynchronised.
  void Feed(const char* data, std::size_t size);
  // Takes the next whole frame out of the buffer, when there is one.
  Status Next(IpcFrame* frame);
  // Bytes buffered and not yet returned; never more than a header and `max_body`.
  std::size_t Buffered() const { return buffer_.size(); }
  // How many more bytes the reader wants before it can make progress (at least 1).
  std::size_t Wanted() const;

 private:
  std::uint32_t max_body_;
  std::string buffer_;
  Status failed_ = Status::NeedMore;
};

}  // namespace sdkauth
