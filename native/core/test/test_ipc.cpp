// Desktop client IPC: the frame reader and the JSON reader on good and hostile input, a small
// seeded fuzz of both, and Authorize against scripted desktop clients on real Unix sockets.
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "harness.hpp"
#include "sdkauth/client.hpp"
#include "sdkauth/ipc_frame.hpp"
#include "sdkauth/ipc_json.hpp"

using sdkauth::IpcFrame;
using sdkauth::IpcFrameReader;
using sdkauth::IpcOpcode;
using sdkauth::JsonValue;
using sdkauth::ParseJson;
using sdkauth::WriteJson;

TEST(FrameRoundTrip) {
  const std::string bytes = sdkauth::EncodeIpcFrame(IpcOpcode::Frame, "{\"a\":1}");
  CHECK_EQ(bytes.size(), std::size_t{15});
  CHECK_EQ(static_cast<int>(bytes[0]), 1);  // little-endian opcode
  CHECK_EQ(static_cast<int>(bytes[4]), 7);  // little-endian length
  IpcFrameReader reader;
  IpcFrame frame;
  // Byte by byte: the reader waits for the whole frame.
  for (std::size_t i = 0; i + 1 < bytes.size(); ++i) {
    reader.Feed(&bytes[i], 1);
    CHECK(reader.Next(&frame) == IpcFrameReader::Status::NeedMore);
  }
  reader.Feed(&bytes.back(), 1);
  CHECK(reader.Next(&frame) == IpcFrameReader::Status::Frame);
  CHECK(frame.opcode == IpcOpcode::Frame);
  CHECK_EQ(frame.body, std::string("{\"a\":1}"));
  CHECK_EQ(reader.Buffered(), std::size_t{0});
}

TEST(FrameOverTheLimitIsRefusedFromItsHeader) {
  std::string header = sdkauth::EncodeIpcFrame(IpcOpcode::Frame, "");
  header[4] = 0x00;
  header[5] = 0x00;
  header[6] = 0x10;  // 1 MiB announced
  IpcFrameReader reader;
  reader.Feed(header.data(), header.size());
  IpcFrame frame;
  CHECK(reader.Next(&frame) == IpcFrameReader::Status::TooLarge);
  CHECK_EQ(reader.Buffered(), std::size_t{0});
  const std::string more(4096, 'x');
  reader.Feed(more.data(), more.size());  // ignored: the stream is dead
  CHECK_EQ(reader.Buffered(), std::size_t{0});
  CHECK(reader.Next(&frame) == IpcFrameReader::Status::TooLarge);
}

TEST(FrameWithUnknownOpcodeIsRefused) {
  std::string bytes = sdkauth::EncodeIpcFrame(IpcOpcode::Frame, "{}");
  bytes[0] = 9;
  IpcFrameReader reader;
  reader.Feed(bytes.data(), bytes.size());
  IpcFrame frame;
  CHECK(reader.Next(&frame) == IpcFrameReader::Status::BadOpcode);
}

TEST(FrameReaderWantsOnlyTheFrameInProgress) {
  IpcFrameReader reader;
  CHECK_EQ(reader.Wanted(), sdkauth::kIpcHeaderBytes);
  const std::string bytes = sdkauth::EncodeIpcFrame(IpcOpcode::Ping, "12345");
  reader.Feed(bytes.data(), 8);
  CHECK_EQ(reader.Wanted(), std::size_t{5});
}

TEST(JsonReadsTheShapesOfTheProtocol) {
  const auto v = ParseJson(
      " {\"cmd\":\"AUTHORIZE\",\"data\":{\"code\":\"abc\"},\"n\":-1.5e2,\"ok\":true,\"x\":null,"
      "\"list\":[1,\"two\",[]],\"esc\":\"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00\"} ");
  CHECK(v.has_value());
  CHECK_EQ(*v->StringAt("cmd"), std::string("AUTHORIZE"));
  CHECK_EQ(*v->Find("data")->StringAt("code"), std::string("abc"));
  CHECK_EQ(v->Find("n")->number, -150.0);
  CHECK(v->Find("ok")->boolean);
  CHECK(v->Find("x")->kind == JsonValue::Kind::Null);
  CHECK_EQ(v->Find("list")->items.size(), std::size_t{3});
  CHECK_EQ(*v->StringAt("esc"), std::string("a\"b\\c\n\xC3\xA9\xF0\x9F\x98\x80"));
  CHECK(v->StringAt("n") == nullptr);
  CHECK(ParseJson(WriteJson(*v)) == v);
}

TEST(JsonRefusesMalformedText) {
  for (const char* bad : {"", "{", "{\"a\"}", "{\"a\":}", "[1,]", "{\"a\":1,}", "01", "1.", "-",
                          "\"\\ud800\"", "\"\\udc00\"", "\"\\x\"", "\"a\nb\"", "tru", "nul", "1 2",
                          "{\"a\":1}x", "\"unterminated", "1e999", "-1e999", "1e-999", "[\"\\u12\"]"}) {
    if (ParseJson(bad).has_value()) harness::Fail(__FILE__, __LINE__, std::string("accepted: ") + bad);
  }
}

TEST(JsonBoundsNesting) {
  CHECK(ParseJson(std::string(32, '[') + std::string(32, ']')).has_value());
  CHECK(!ParseJson(std::string(33, '[') + std::string(33, ']')).has_value());
  CHECK(!ParseJson(std::string(100000, '[')).has_value());  // no recursion past the limit
}

// A seeded fuzz: random bytes and mutations of real frames never crash either reader, parsed
// JSON round-trips through the writer, and the frame reader never holds more than one frame.
TEST(FuzzFrameAndJsonReaders) {
  std::mt19937 random(12);
  const std::string seeds[] = {
      "{\"cmd\":\"DISPATCH\",\"evt\":\"READY\",\"data\":{\"v\":1}}",
      "{\"cmd\":\"AUTHORIZE\",\"nonce\":\"n\",\"evt\":\"ERROR\",\"data\":{\"code\":4000,\"message\":\"Unknown command\"}}",
      "[1,2.5e-3,\"\\u0041\",{\"a\":[true,false,null]}]"};
  for (int round = 0; round < 20000; ++round) {
    std::string text = seeds[round % 3];
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t at = random() % text.size();
      switch (random() % 3) {
        case 0: text[at] = static_cast<char>(random() % 256); break;
        case 1: text.erase(at, 1 + random() % 3); break;
        default: text.insert(at, 1, "{}[]\",:\\u0"[random() % 10]);
      }
    }
    if (const auto parsed = ParseJson(text)) {
      const auto again = ParseJson(WriteJson(*parsed));
      if (!again || !(*again == *parsed)) harness::Fail(__FILE__, __LINE__, "JSON round trip broke: " + text);
    }
    std::string stream = sdkauth::EncodeIpcFrame(IpcOpcode::Frame, text);
    if (round % 7 == 0) stream[random() % stream.size()] = static_cast<char>(random() % 256);
    IpcFrameReader reader(1024);
    IpcFrame frame;
    std::size_t at = 0;
    while (at < stream.size()) {
      const std::size_t take = std::min(reader.Wanted(), stream.size() - at);
      reader.Feed(stream.data() + at, take);
      at += take;
      if (reader.Buffered() > sdkauth::kIpcHeaderBytes + 1024) harness::Fail(__FILE__, __LINE__, "reader over its bound");
      const auto status = reader.Next(&frame);
      if (status == IpcFrameReader::Status::TooLarge || status == IpcFrameReader::Status::BadOpcode) break;
    }
  }
}

namespace {

// A scripted desktop client on a Unix socket: reads frames and answers with `script`.
class FakeDesktopClient {
 public:
  using Script = std::function<void(int fd, const IpcFrame& frame)>;
  FakeDesktopClient(const std::string& path, Script script) : script_(std::move(script)) {
    listen_fd_ = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
    unlink(path.c_str());
    if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(listen_fd_, 4) != 0) {
      harness::Fail(__FILE__, __LINE__, "cannot listen on " + path);
    }
    path_ = path;
    thread_ = std::thread([this] { Run(); });
  }
  ~FakeDesktopClient() {
    stop_ = true;
    shutdown(listen_fd_, SHUT_RDWR);
    close(listen_fd_);
    thread_.join();
    unlink(path_.c_str());
  }
  static void Send(int fd, IpcOpcode op, const std::string& body) {
    const std::string bytes = sdkauth::EncodeIpcFrame(op, body);
    (void)!send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  }

 private:
  void Run() {
    while (!stop_) {
      const int fd = accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) return;
      IpcFrameReader reader;
      char buffer[4096];
      for (;;) {
        const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0) break;
        reader.Feed(buffer, static_cast<std::size_t>(n));
        IpcFrame frame;
        while (reader.Next(&frame) == IpcFrameReader::Status::Frame) script_(fd, frame);
      }
      close(fd);
    }
  }
  Script script_;
  std::string path_;
  int listen_fd_ = -1;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Answers the handshake with READY, then AUTHORIZE with `answer` (with {NONCE} replaced).
FakeDesktopClient::Script Answering(std::string answer) {
  return [answer](int fd, const IpcFrame& frame) {
    if (frame.opcode == IpcOpcode::Handshake) {
      FakeDesktopClient::Send(fd, IpcOpcode::Frame, "{\"cmd\":\"DISPATCH\",\"evt\":\"READY\",\"data\":{\"v\":1}}");
      return;
    }
    const auto message = ParseJson(frame.body);
    std::string reply = answer;
    const std::size_t at = reply.find("{NONCE}");
    if (at != std::string::npos) reply.replace(at, 7, *message->StringAt("nonce"));
    FakeDesktopClient::Send(fd, IpcOpcode::Frame, reply);
  };
}

struct Temp {
  std::string dir;
  Temp() {
    char pattern[] = "/tmp/sdkauth-ipc-XXXXXX";
    dir = mkdtemp(pattern);
  }
  ~Temp() { rmdir(dir.c_str()); }
};

struct RecordingOpener : sdkauth::UrlOpener {
  std::atomic<int> opened{0};
  void Open(const std::string&) override { ++opened; }
};

struct Outcome {
  std::atomic<bool> done{false};
  sdkauth::ClientResult result;
  std::string code, redirect;
};

std::unique_ptr<sdkauth::Client> NewClient(const std::string& dir, std::shared_ptr<RecordingOpener> opener,
                                           sdkauth::AuthorizeVia via, int connect_ms = 500) {
  sdkauth::ClientCreateOptions options;
  options.DesktopClient.SocketDir = dir;
  options.DesktopClient.ConnectTimeoutMs = connect_ms;
  options.DesktopClient.ApproveTimeoutMs = 2000;
  auto client = std::make_unique<sdkauth::Client>(options);
  client->SetApplicationId(1234);
  client->SetUrlOpener(opener);
  client->SetAuthorizeVia(via);
  return client;
}

void Authorize(sdkauth::Client& client, Outcome* out) {
  sdkauth::AuthorizationArgs args;
  args.SetScopes("openid sdk.social_layer");
  client.Authorize(args, [out](sdkauth::ClientResult r, std::string code, std::string redirect) {
    out->result = r;
    out->code = code;
    out->redirect = redirect;
    out->done = true;
  });
}

// Drains callbacks until `done` or about 5 s have passed.
void Wait(sdkauth::Client& client, const std::function<bool()>& done) {
  for (int i = 0; i < 500 && !done(); ++i) {
    client.RunCallbacks();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  client.RunCallbacks();
}

}  // namespace

TEST(AuthorizeThroughTheDesktopClient) {
  Temp temp;
  FakeDesktopClient desktop(temp.dir + "/discord-ipc-0",
                            Answering("{\"cmd\":\"AUTHORIZE\",\"nonce\":\"{NONCE}\",\"evt\":null,\"data\":{\"code\":\"ipc-code\"}}"));
  auto opener = std::make_shared<RecordingOpener>();
  auto client = NewClient(temp.dir, opener, sdkauth::AuthorizeVia::Auto);
  Outcome out;
  Authorize(*client, &out);
  Wait(*client, [&] { return out.done.load(); });
  CHECK(out.done);
  CHECK(out.result.Successful());
  CHECK_EQ(out.code, std::string("ipc-code"));
  CHECK_EQ(out.redirect, std::string(sdkauth::kDesktopClientRedirectUri));
  CHECK_EQ(opener->opened.load(), 0);
}

TEST(SquatterIsSkippedForTheNextSocket) {
  Temp temp;
  FakeDesktopClient squatter(temp.dir + "/discord-ipc-0",
                             Answering("{\"cmd\":\"AUTHORIZE\",\"nonce\":\"{NONCE}\",\"evt\":\"ERROR\",\"data\":{\"code\":4000,\"message\":\"Unknown command\"}}"));
  FakeDesktopClient desktop(temp.dir + "/discord-ipc-1",
                            Answering("{\"cmd\":\"AUTHORIZE\",\"nonce\":\"{NONCE}\",\"data\":{\"code\":\"second\"}}"));
  auto opener = std::make_shared<RecordingOpener>();
  auto client = NewClient(temp.dir, opener, sdkauth::AuthorizeVia::DesktopClient);
  Outcome out;
  Authorize(*client, &out);
  Wait(*client, [&] { return out.done.load(); });
  CHECK(out.result.Successful());
  CHECK_EQ(out.code, std::string("second"));
}

TEST(DenialEndsTheSignInWithoutTheBrowser) {
  Temp temp;
  FakeDesktopClient desktop(temp.dir + "/discord-ipc-0",
                            Answering("{\"cmd\":\"AUTHORIZE\",\"nonce\":\"{NONCE}\",\"evt\":\"ERROR\",\"data\":{\"code\":5000,\"message\":\"OAuth2 Error: access_denied: denied <b>\"}}"));
  auto opener = std::make_shared<RecordingOpener>();
  auto client = NewClient(temp.dir, opener, sdkauth::AuthorizeVia::Auto);
  Outcome out;
  Authorize(*client, &out);
  Wait(*client, [&] { return out.done.load(); });
  CHECK(out.result.Type() == sdkauth::ErrorType::AuthorizationFailed);
  CHECK_EQ(out.result.OAuthError(), std::string("access_denied"));
  CHECK(out.result.Error().find('<') == std::string::npos);
  CHECK_EQ(opener->opened.load(), 0);
}

TEST(SilentSocketFallsBackToTheBrowser) {
  Temp temp;
  FakeDesktopClient silent(temp.dir + "/discord-ipc-0", [](int, const IpcFrame&) {});
  auto opener = std::make_shared<RecordingOpener>();
  auto client = NewClient(temp.dir, opener, sdkauth::AuthorizeVia::Auto, 200);
  Outcome out;
  Authorize(*client, &out);
  Wait(*client, [&] { return opener->opened.load() > 0; });
  CHECK_EQ(opener->opened.load(), 1);
  CHECK(client->IsAuthorizing());
  CHECK(!out.done);
  client->AbortAuthorize();
  Wait(*client, [&] { return out.done.load(); });
  CHECK(out.result.Type() == sdkauth::ErrorType::Aborted);
}

TEST(HugeFrameFailsTheDesktopOnlyPathWithRPCError) {
  Temp temp;
  FakeDesktopClient huge(temp.dir + "/discord-ipc-0", [](int fd, const IpcFrame&) {
    std::string header = sdkauth::EncodeIpcFrame(IpcOpcode::Frame, "");
    header[6] = 0x10;  // announces 1 MiB
    (void)!send(fd, header.data(), header.size(), MSG_NOSIGNAL);
  });
  auto opener = std::make_shared<RecordingOpener>();
  auto client = NewClient(temp.dir, opener, sdkauth::AuthorizeVia::DesktopClient);
  Outcome out;
  Authorize(*client, &out);
  Wait(*client, [&] { return out.done.load(); });
  CHECK(out.result.Type() == sdkauth::ErrorType::RPCError);
  CHECK(out.result.Error().find("size limit") != std::string::npos);
  CHECK_EQ(opener->opened.load(), 0);
}

TEST(NoSocketAndDesktopOnlyIsRPCError) {
  Temp temp;
  auto opener = std::make_shared<RecordingOpener>();
  auto client = NewClient(temp.dir, opener, sdkauth::AuthorizeVia::DesktopClient);
  Outcome out;
  Authorize(*client, &out);
  Wait(*client, [&] { return out.done.load(); });
  CHECK(out.result.Type() == sdkauth::ErrorType::RPCError);
}

TEST(DestroyingTheClientCancelsAnAttempt) {
  Temp temp;
  FakeDesktopClient silent(temp.dir + "/discord-ipc-0", [](int, const IpcFrame&) {});
  auto opener = std::make_shared<RecordingOpener>();
  auto client = NewClient(temp.dir, opener, sdkauth::AuthorizeVia::Auto, 60000);
  Outcome out;
  Authorize(*client, &out);
  const auto start = std::chrono::steady_clock::now();
  client.reset();  // must not wait out the 60 s step
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  CHECK_EQ(opener->opened.load(), 0);
}
