#include "sdkauth/ipc_frame.hpp"

namespace sdkauth {
namespace {

void PutU32(std::string* out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

std::uint32_t GetU32(const std::string& bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

}  // namespace

std::string EncodeIpcFrame(IpcOpcode opcode, const std::string& body) {
  std::string frame;
  frame.reserve(kIpcHeaderBytes + body.size());
  PutU32(&frame, static_cast<std::uint32_t>(opcode));
  PutU32(&frame, static_cast<std::uint32_t>(body.size()));
  frame += body;
  return frame;
}

void IpcFrameReader::Feed(const char* data, std::size_t size) {
  if (failed_ != Status::NeedMore) return;
  buffer_.append(data, size);
}

std::size_t IpcFrameReader::Wanted() const {
  if (buffer_.size() < kIpcHeaderBytes) return kIpcHeaderBytes - buffer_.size();
  const std::uint32_t length = GetU32(buffer_, 4);
  if (length > max_body_) return 1;
  const std::size_t whole = kIpcHeaderBytes + length;
  return buffer_.size() < whole ? whole - buffer_.size() : 1;
}

IpcFrameReader::Status IpcFrameReader::Next(IpcFrame* frame) {
  if (failed_ != Status::NeedMore) return failed_;
  if (buffer_.size() < kIpcHeaderBytes) return Status::NeedMore;
  const std::uint32_t opcode = GetU32(buffer_, 0);
  const std::uint32_t length = GetU32(buffer_, 4);
  if (opcode > static_cast<std::uint32_t>(IpcOpcode::Pong)) {
    failed_ = Status::BadOpcode;
    buffer_.clear();
    return failed_;
  }
  if (length > max_body_) {
    failed_ = Status::TooLarge;
    buffer_.clear();
    return failed_;
  }
  if (buffer_.size() < kIpcHeaderBytes + length) return Status::NeedMore;
  frame->opcode = static_cast<IpcOpcode>(opcode);
  frame->body = buffer_.substr(kIpcHeaderBytes, length);
  buffer_.erase(0, kIpcHeaderBytes + length);
  return Status::Frame;
}

}  // namespace sdkauth
