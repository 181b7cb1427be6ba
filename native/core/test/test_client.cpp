// The Client as a C++ host uses it: Authorize over a real loopback socket, custom-scheme
// redirects, abort, the token calls over a scripted TokenTransport, and the queue dispatcher.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "harness.hpp"
#include "sdkauth/client.hpp"
#include "sdkauth/token_exchange.hpp"
#include "sdkauth/url.hpp"

namespace {

int Connect(std::uint16_t port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Sends `request` and returns the whole response (the listener closes after replying).
std::string Exchange(std::uint16_t port, const std::string& request) {
  int fd = Connect(port);
  if (fd < 0) return "";
  send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string out;
  char buf[4096];
  for (;;) {
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  close(fd);
  return out;
}

struct RecordingOpener : sdkauth::UrlOpener {
  std::vector<std::string> urls;
  void Open(const std::string& url) override { urls.push_back(url); }
};

std::string Param(const std::string& url, const char* name) {
  const auto parts = sdkauth::SplitUrl(url);
  return *sdkauth::FindParam(*sdkauth::ParseQuery(parts->query), name);
}

std::uint16_t PortOf(const std::string& redirect) {
  const auto parts = sdkauth::SplitUrl(redirect);
  return static_cast<std::uint16_t>(std::stoi(parts->authority.substr(parts->authority.find(':') + 1)));
}

struct Outcome {
  bool done = false;
  sdkauth::ClientResult result;
  std::string code;
  std::string redirect;
};

sdkauth::AuthorizationCallback Record(Outcome* out) {
  return [out](sdkauth::ClientResult r, std::string code, std::string redirect) {
    out->done = true;
    out->result = r;
    out->code = code;
    out->redirect = redirect;
  };
}

void Pump(sdkauth::Client& client, const Outcome& out) {
  for (int i = 0; i < 500 && !out.done; ++i) {
    client.RunCallbacks();
    if (!out.done) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

sdkauth::AuthorizationArgs Args() {
  sdkauth::AuthorizationArgs args;
  args.SetScopes(sdkauth::Client::GetDefaultCommunicationScopes());
  return args;
}

}  // namespace

TEST(LoopbackAuthorizeCompletes) {
  sdkauth::Client client;
  client.SetApplicationId(1234);
  auto opener = std::make_shared<RecordingOpener>();
  client.SetUrlOpener(opener);
  auto args = Args();
  auto pair = client.CreateAuthorizationCodeVerifier();
  args.SetCodeChallenge(pair.Challenge());
  args.SetNonce(std::string("n1"));
  Outcome out;
  client.Authorize(args, Record(&out));
  CHECK_EQ(opener->urls.size(), std::size_t(1));
  const std::string url = opener->urls[0];
  CHECK(url.rfind("https://discord.com/oauth2/authorize?", 0) == 0);
  CHECK_EQ(Param(url, "client_id"), std::string("1234"));
  CHECK_EQ(Param(url, "response_type"), std::string("code"));
  CHECK_EQ(Param(url, "scope"), std::string("openid sdk.social_layer"));
  CHECK_EQ(Param(url, "code_challenge"), pair.Challenge().Challenge());
  CHECK_EQ(Param(url, "code_challenge_method"), std::string("S256"));
  CHECK_EQ(Param(url, "nonce"), std::string("n1"));
  const std::string state = Param(url, "state");
  CHECK_EQ(state.size(), std::size_t(43));
  const std::string redirect = Param(url, "redirect_uri");
  CHECK(redirect.rfind("http://127.0.0.1:", 0) == 0);
  const std::uint16_t port = PortOf(redirect);

  // Probes and wrong states do not end the flow.
  CHECK(Exchange(port, "GET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\n").find(" 404 ") != std::string::npos);
  CHECK(Exchange(port, "GET /callback?code=x&state=wrong HTTP/1.1\r\n\r\n").find(" 400 ") != std::string::npos);
  CHECK(Exchange(port, "garbage\r\n\r\n").find(" 400 ") != std::string::npos);
  client.RunCallbacks();
  CHECK(!out.done);

  const std::string reply =
      Exchange(port, "GET /callback?code=the-code&state=" + state + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  CHECK(reply.find("HTTP/1.1 200 OK") == 0);
  // The page knows only that the redirect arrived: the token exchange has not happened yet.
  CHECK(reply.find("Sign-in received") != std::string::npos);
  CHECK(reply.find("return to the game") != std::string::npos);
  CHECK(reply.find("Signed in") == std::string::npos);
  CHECK(reply.find("Cache-Control: no-store") != std::string::npos);
  CHECK(reply.find("Referrer-Policy: no-referrer") != std::string::npos);
  Pump(client, out);
  CHECK(out.done);
  CHECK(out.result.Successful());
  CHECK_EQ(out.code, std::string("the-code"));
  CHECK_EQ(out.redirect, redirect);
  CHECK(!client.IsAuthorizing());
  // The listener is closed once the flow ends.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(Connect(port) < 0);
}

TEST(LoopbackDeniedConsent) {
  sdkauth::Client client;
  client.SetApplicationId(1);
  auto opener = std::make_shared<RecordingOpener>();
  client.SetUrlOpener(opener);
  Outcome out;
  client.Authorize(Args(), Record(&out));
  const std::string url = opener->urls.at(0);
  const std::string reply =
      Exchange(PortOf(Param(url, "redirect_uri")),
               "GET /callback?error=access_denied&state=" + Param(url, "state") + " HTTP/1.1\r\n\r\n");
  CHECK(reply.find("HTTP/1.1 200 OK") == 0);
  CHECK(reply.find("Sign-in did not complete") != std::string::npos);
  CHECK(reply.find("The player declined the authorization (access_denied). You can close this tab "
                   "and return to the game.") != std::string::npos);
  CHECK(reply.find("Cache-Control: no-store") != std::string::npos);
  CHECK(reply.find("Referrer-Policy: no-referrer") != std::string::npos);
  Pump(client, out);
  CHECK(out.result.Type() == sdkauth::ErrorType::AuthorizationFailed);
  CHECK_EQ(out.result.OAuthError(), std::string("access_denied"));
}

TEST(ListenerSurvivesHostileConnections) {
  sdkauth::ClientCreateOptions options;
  options.Limits.connection_timeout_ms = 1000;
  sdkauth::Client client(options);
  client.SetApplicationId(1);
  auto opener = std::make_shared<RecordingOpener>();
  client.SetUrlOpener(opener);
  Outcome out;
  client.Authorize(Args(), Record(&out));
  const std::string url = opener->urls.at(0);
  const std::uint16_t port = PortOf(Param(url, "redirect_uri"));
  std::vector<int> slow;
  for (int i = 0; i < 50; ++i) {
    int fd = Connect(port);
    if (fd >= 0) {
      send(fd, "GET /callback", 13, MSG_NOSIGNAL);  // never finishes its head
      slow.push_back(fd);
    }
  }
  CHECK(Exchange(port, "GET /" + std::string(20000, 'a') + " HTTP/1.1\r\n\r\n").find(" 431 ") !=
        std::string::npos);
  std::string binary(512, '\0');
  for (std::size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>(i * 37);
  Exchange(port, binary + "\r\n\r\n");
  const std::string reply =
      Exchange(port, "GET /callback?code=ok&state=" + Param(url, "state") + " HTTP/1.1\r\n\r\n");
  CHECK(reply.find(" 200 ") != std::string::npos);
  Pump(client, out);
  CHECK(out.result.Successful());
  for (int fd : slow) close(fd);
}

TEST(PreferredPortFallsBackWhenTaken) {
  sdkauth::Client first;
  first.SetApplicationId(1);
  auto opener1 = std::make_shared<RecordingOpener>();
  first.SetUrlOpener(opener1);
  Outcome out1;
  first.Authorize(Args(), Record(&out1));
  const std::uint16_t taken = PortOf(Param(opener1->urls.at(0), "redirect_uri"));
  sdkauth::ClientCreateOptions options;
  options.LoopbackPort = taken;
  sdkauth::Client second(options);
  second.SetApplicationId(1);
  auto opener2 = std::make_shared<RecordingOpener>();
  second.SetUrlOpener(opener2);
  Outcome out2;
  second.Authorize(Args(), Record(&out2));
  const std::uint16_t got = PortOf(Param(opener2->urls.at(0), "redirect_uri"));
  CHECK(got != taken);
  CHECK(got != 0);
}

TEST(AbortAndSupersede) {
  sdkauth::Client client;
  client.SetApplicationId(1);
  client.SetUrlOpener(std::make_shared<RecordingOpener>());
  Outcome first, second;
  client.Authorize(Args(), Record(&first));
  client.Authorize(Args(), Record(&second));
  Pump(client, first);
  CHECK(first.result.Type() == sdkauth::ErrorType::Aborted);
  CHECK_EQ(first.result.Error(), std::string("This sign-in was replaced by a newer one."));
  CHECK(!second.done);
  client.AbortAuthorize();
  Pump(client, second);
  CHECK(second.result.Type() == sdkauth::ErrorType::Aborted);
  CHECK(!client.IsAuthorizing());
}

TEST(ConcurrentAuthorizeEndsEveryFlow) {
  // Two threads racing Authorize: every flow must reach its callback exactly once.
  for (int round = 0; round < 20; ++round) {
    sdkauth::Client client;
    client.SetApplicationId(1);
    client.SetUrlOpener(std::make_shared<RecordingOpener>());
    std::atomic<int> calls{0};
    auto count = [&calls](sdkauth::ClientResult, std::string, std::string) { ++calls; };
    std::thread a([&] { client.Authorize(Args(), count); });
    std::thread b([&] { client.Authorize(Args(), count); });
    a.join();
    b.join();
    client.AbortAuthorize();
    for (int i = 0; i < 100 && calls.load() < 2; ++i) {
      client.RunCallbacks();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    CHECK_EQ(calls.load(), 2);
    CHECK(!client.IsAuthorizing());
  }
}

TEST(ValidationFailureIsReportedThroughCallback) {
  sdkauth::Client client;
  Outcome out;
  client.Authorize(Args(), Record(&out));  // no application id anywhere
  CHECK(!out.done);                         // never inline: always through the dispatcher
  Pump(client, out);
  CHECK(out.result.Type() == sdkauth::ErrorType::ValidationError);
}

TEST(CustomSchemeRedirect) {
  sdkauth::Client client;
  client.SetApplicationId(987);
  auto opener = std::make_shared<RecordingOpener>();
  client.SetUrlOpener(opener);
  Outcome out;
  CHECK(!client.HandleRedirect("discord-987:/authorize/callback?code=x&state=y"));  // nothing pending
  auto args = Args();
  client.Authorize(args, Record(&out));
  client.AbortAuthorize();
  Pump(client, out);

  sdkauth::ClientCreateOptions options;
  options.Redirect = sdkauth::RedirectMode::CustomScheme;
  sdkauth::Client custom(options);
  custom.SetApplicationId(987);
  custom.SetUrlOpener(opener);
  Outcome result;
  custom.Authorize(args, Record(&result));
  const std::string url = opener->urls.back();
  CHECK_EQ(Param(url, "redirect_uri"), std::string("discord-987:/authorize/callback"));
  const std::string state = Param(url, "state");
  CHECK(!custom.HandleRedirect("other:/authorize/callback?code=x&state=" + state));
  CHECK(!custom.HandleRedirect("discord-987:/elsewhere?code=x&state=" + state));
  CHECK(!custom.HandleRedirect("discord-987://host/authorize/callback?code=x&state=" + state));
  CHECK(!custom.HandleRedirect("discord-987:/authorize/callback?code=x&state=nope"));
  CHECK(custom.IsAuthorizing());
  CHECK(custom.HandleRedirect("DISCORD-987:/authorize/callback?code=abc&state=" + state));
  CHECK(!custom.HandleRedirect("discord-987:/authorize/callback?code=abc&state=" + state));  // replay
  Pump(custom, result);
  CHECK(result.result.Successful());
  CHECK_EQ(result.code, std::string("abc"));

  auto with_param = Args();
  with_param.SetCustomSchemeParam(std::string("MyGame"));
  Outcome third;
  client.Authorize(with_param, Record(&third));  // loopback client, scheme param selects custom mode
  CHECK_EQ(Param(opener->urls.back(), "redirect_uri"), std::string("mygame:/authorize/callback"));
  client.AbortAuthorize();
}

namespace {
struct ScriptedTransport : sdkauth::TokenTransport {
  std::vector<sdkauth::TokenGrant> grants;
  sdkauth::TransportResponse next;
  void Send(const sdkauth::TokenGrant& grant,
            std::function<void(sdkauth::TransportResponse)> done) override {
    grants.push_back(grant);
    std::thread([done, r = next] { done(r); }).detach();  // from another thread, as real I/O may
  }
};
struct TokenOutcome {
  bool done = false;
  sdkauth::ClientResult result;
  std::string access, refresh, scopes, id_token;
  std::int32_t expires = 0;
};
sdkauth::TokenExchangeCallback RecordTokens(TokenOutcome* out) {
  return [out](sdkauth::ClientResult r, std::string a, std::string rt, sdkauth::AuthorizationTokenType,
               std::int32_t e, std::string s, std::string id) {
    *out = TokenOutcome{true, r, a, rt, s, id, e};
  };
}
void PumpTokens(sdkauth::Client& client, const TokenOutcome& out) {
  for (int i = 0; i < 500 && !out.done; ++i) {
    client.RunCallbacks();
    if (!out.done) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}
}  // namespace

TEST(TokenGrantsAndResultMapping) {
  sdkauth::ClientCreateOptions options;
  options.ApiBase = "http://127.0.0.1:9/api/v10/";
  sdkauth::Client client(options);
  client.SetApplicationId(55);
  auto transport = std::make_shared<ScriptedTransport>();
  client.SetTokenTransport(transport);
  const auto pair = client.CreateAuthorizationCodeVerifier();

  transport->next.outcome = sdkauth::TransportResponse::Outcome::Ok;
  transport->next.access_token = "at";
  transport->next.refresh_token = "rt";
  transport->next.token_type = "bearer";
  transport->next.expires_in = 604800;
  transport->next.scope = "openid sdk.social_layer";
  TokenOutcome ok;
  client.GetToken(0, "code1", pair.Verifier(), "http://127.0.0.1:1234/callback", RecordTokens(&ok));
  PumpTokens(client, ok);
  CHECK(ok.result.Successful());
  CHECK_EQ(ok.access, std::string("at"));
  CHECK_EQ(ok.expires, 604800);
  const auto& grant = transport->grants.at(0);
  CHECK_EQ(grant.endpoint, std::string("http://127.0.0.1:9/api/v10/oauth2/token"));
  CHECK_EQ(grant.client_id, std::string("55"));
  CHECK_EQ(grant.grant_type, std::string("authorization_code"));
  CHECK_EQ(*sdkauth::FindParam(grant.parameters, "code_verifier"), pair.Verifier());
  CHECK_EQ(*sdkauth::FindParam(grant.parameters, "redirect_uri"), std::string("http://127.0.0.1:1234/callback"));

  transport->next = {};
  transport->next.outcome = sdkauth::TransportResponse::Outcome::HttpError;
  transport->next.status = 400;
  transport->next.oauth_error = "invalid_grant";
  TokenOutcome bad;
  client.RefreshToken(0, "old-refresh", RecordTokens(&bad));
  PumpTokens(client, bad);
  CHECK(bad.result.Type() == sdkauth::ErrorType::HTTPError);
  CHECK_EQ(bad.result.OAuthError(), std::string("invalid_grant"));
  CHECK(!bad.result.Retryable());
  CHECK(bad.result.Error().find("old-refresh") == std::string::npos);
  CHECK_EQ(transport->grants.back().grant_type, std::string("refresh_token"));

  transport->next = {};
  transport->next.outcome = sdkauth::TransportResponse::Outcome::HttpError;
  transport->next.status = 429;
  transport->next.retry_after = 3;
  TokenOutcome limited;
  client.RefreshToken(0, "r", RecordTokens(&limited));
  PumpTokens(client, limited);
  CHECK(limited.result.Retryable());
  CHECK(limited.result.RetryAfter() == 3.0f);
  CHECK_EQ(limited.result.Status(), 429);

  transport->next = {};
  transport->next.outcome = sdkauth::TransportResponse::Outcome::NetworkError;
  transport->next.message = "connection refused";
  TokenOutcome down;
  client.RefreshToken(0, "r", RecordTokens(&down));
  PumpTokens(client, down);
  CHECK(down.result.Type() == sdkauth::ErrorType::NetworkError);
  CHECK(down.result.Retryable());

  transport->next = {};
  transport->next.outcome = sdkauth::TransportResponse::Outcome::Ok;
  transport->next.access_token = "x";
  transport->next.token_type = "mac";
  TokenOutcome odd;
  client.RefreshToken(0, "r", RecordTokens(&odd));
  PumpTokens(client, odd);
  CHECK(odd.result.Type() == sdkauth::ErrorType::HTTPError);

  TokenOutcome invalid;
  client.GetToken(0, "code", "short", "http://127.0.0.1/callback", RecordTokens(&invalid));
  PumpTokens(client, invalid);
  CHECK(invalid.result.Type() == sdkauth::ErrorType::ValidationError);
  CHECK(invalid.result.Error().find("codeVerifier") != std::string::npos);
}

TEST(EveryGrantIsValidatedBeforeItIsSent) {
  sdkauth::Client client;  // no application id yet
  auto transport = std::make_shared<ScriptedTransport>();
  client.SetTokenTransport(transport);
  struct Revoked {
    bool done = false;
    sdkauth::ClientResult result;
  };
  auto revoke = [&client](std::uint64_t app, const std::string& token) {
    auto out = std::make_shared<Revoked>();
    client.RevokeToken(app, token, [out](sdkauth::ClientResult r) {
      out->done = true;
      out->result = r;
    });
    for (int i = 0; i < 500 && !out->done; ++i) {
      client.RunCallbacks();
      if (!out->done) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return out->result;
  };
  auto invalid = [](const sdkauth::ClientResult& r, const char* start) {
    // The message names the field as the caller knows it, and speaks no C++.
    return r.Type() == sdkauth::ErrorType::ValidationError && r.Error().rfind(start, 0) == 0 &&
           r.Error().find("::") == std::string::npos;
  };

  // The application id is checked first, for all three grants.
  TokenOutcome get, refresh;
  client.GetToken(0, "", "short", "", RecordTokens(&get));
  client.RefreshToken(0, "r", RecordTokens(&refresh));
  PumpTokens(client, get);
  PumpTokens(client, refresh);
  CHECK(invalid(get.result, "applicationId is not set"));
  CHECK(invalid(refresh.result, "applicationId is not set"));
  CHECK(invalid(revoke(0, "t"), "applicationId is not set"));

  // Then each argument in order; the first that breaks its rule is named.
  client.SetApplicationId(9);
  const auto verifier = client.CreateAuthorizationCodeVerifier().Verifier();
  TokenOutcome code, bad_verifier, redirect, empty_refresh, long_refresh;
  client.GetToken(0, "has\ttab", "short", "x", RecordTokens(&code));
  client.GetToken(0, "c", "short", "x", RecordTokens(&bad_verifier));
  client.GetToken(0, "c", verifier, "not a uri", RecordTokens(&redirect));
  client.RefreshToken(0, "", RecordTokens(&empty_refresh));
  client.RefreshToken(0, std::string(8193, 'r'), RecordTokens(&long_refresh));
  for (auto* out : {&code, &bad_verifier, &redirect, &empty_refresh, &long_refresh}) PumpTokens(client, *out);
  CHECK(invalid(code.result, "code must be"));
  CHECK(invalid(bad_verifier.result, "codeVerifier must be"));
  CHECK(invalid(redirect.result, "redirectUri must be"));
  CHECK(invalid(empty_refresh.result, "refreshToken must be"));
  CHECK(invalid(long_refresh.result, "refreshToken must be"));
  CHECK(invalid(revoke(0, std::string(8193, 't')), "token must be"));
  CHECK(invalid(revoke(0, "tab\there"), "token must be"));
  CHECK(transport->grants.empty());

  // A valid revocation goes to the revocation endpoint, with no grant_type.
  transport->next.outcome = sdkauth::TransportResponse::Outcome::Ok;
  CHECK(revoke(7, "the-token").Successful());
  CHECK_EQ(transport->grants.size(), std::size_t(1));
  const auto& grant = transport->grants.at(0);
  CHECK(grant.kind == sdkauth::GrantKind::Revoke);
  CHECK_EQ(grant.endpoint, std::string("https://discord.com/api/v10/oauth2/token/revoke"));
  CHECK_EQ(grant.client_id, std::string("7"));
  CHECK_EQ(grant.grant_type, std::string());
  CHECK_EQ(grant.parameters.size(), std::size_t(1));
  CHECK_EQ(*sdkauth::FindParam(grant.parameters, "token"), std::string("the-token"));

  // Its failures are mapped like the token endpoint's, naming the revocation endpoint.
  transport->next = {};
  transport->next.outcome = sdkauth::TransportResponse::Outcome::HttpError;
  transport->next.status = 503;
  const auto failed = revoke(0, "the-token");
  CHECK(failed.Type() == sdkauth::ErrorType::HTTPError);
  CHECK_EQ(failed.Error(), std::string("The revocation endpoint answered HTTP 503. The service had a problem: try again later."));
  CHECK(failed.Retryable());
  CHECK_EQ(failed.Status(), 503);
}

TEST(TokenExchangeHalvesWithoutAClient) {
  // What the Node addon calls: the grant comes back at once, and only a response is mapped.
  const std::string api = "https://discord.com/api/v10";
  const auto no_app = sdkauth::PrepareRefreshTokenGrant(api, 0, "r");
  CHECK(!no_app.grant);
  CHECK(no_app.result.Type() == sdkauth::ErrorType::ValidationError);
  CHECK(no_app.result.Error().rfind("applicationId is not set", 0) == 0);
  const auto bad_verifier = sdkauth::PrepareAuthorizationCodeGrant(api, 5, "c", "short", "x");
  CHECK(!bad_verifier.grant);
  CHECK(bad_verifier.result.Error().rfind("codeVerifier must be", 0) == 0);

  const std::string verifier(43, 'v');
  const auto code = sdkauth::PrepareAuthorizationCodeGrant(api, 5, "the-code", verifier, "http://127.0.0.1:1/callback");
  CHECK(code.result.Successful());
  CHECK(code.grant.has_value());
  CHECK_EQ(code.grant->endpoint, api + "/oauth2/token");
  CHECK_EQ(code.grant->client_id, std::string("5"));
  CHECK_EQ(code.grant->grant_type, std::string("authorization_code"));
  CHECK_EQ(*sdkauth::FindParam(code.grant->parameters, "code"), std::string("the-code"));
  CHECK_EQ(*sdkauth::FindParam(code.grant->parameters, "code_verifier"), verifier);
  const auto revoke = sdkauth::PrepareRevokeGrant(api, 5, "t");
  CHECK(revoke.grant && revoke.grant->endpoint == api + "/oauth2/token/revoke" && revoke.grant->grant_type.empty());

  sdkauth::TransportResponse ok;
  ok.outcome = sdkauth::TransportResponse::Outcome::Ok;
  ok.access_token = "a";
  ok.token_type = "bearer";
  CHECK(sdkauth::TransportResult(ok, sdkauth::GrantKind::RefreshToken).Successful());
  ok.token_type = "mac";
  const auto refused = sdkauth::TransportResult(ok, sdkauth::GrantKind::RefreshToken);
  CHECK(refused.Type() == sdkauth::ErrorType::HTTPError);
  CHECK_EQ(refused.Error(), std::string("The token endpoint sent a response this client cannot use: expected a Bearer access_token."));
  sdkauth::TransportResponse empty_ok;
  empty_ok.outcome = sdkauth::TransportResponse::Outcome::Ok;
  CHECK(sdkauth::TransportResult(empty_ok, sdkauth::GrantKind::Revoke).Successful());
  CHECK(!sdkauth::TransportResult(empty_ok, sdkauth::GrantKind::AuthorizationCode).Successful());
}

TEST(NoTransportIsClientNotReady) {
  sdkauth::Client client;
  client.SetApplicationId(1);
  TokenOutcome out;
  client.RefreshToken(0, "r", RecordTokens(&out));
  PumpTokens(client, out);
  CHECK(out.result.Type() == sdkauth::ErrorType::ClientNotReady);
}

TEST(QueueDispatcherRunsOnlyWhatWasQueued) {
  sdkauth::QueueDispatcher dispatcher;
  int runs = 0;
  dispatcher.Post([&] {
    ++runs;
    dispatcher.Post([&] { ++runs; });
  });
  CHECK_EQ(dispatcher.RunCallbacks(), std::size_t(1));
  CHECK_EQ(runs, 1);
  CHECK_EQ(dispatcher.Pending(), std::size_t(1));
  dispatcher.RunCallbacks();
  CHECK_EQ(runs, 2);
}

TEST(DestroyingTheClientEndsTheFlow) {
  auto queue = std::make_shared<sdkauth::QueueDispatcher>();
  Outcome out;
  {
    sdkauth::Client client;
    client.SetApplicationId(1);
    client.SetDispatcher(queue);
    client.SetUrlOpener(std::make_shared<RecordingOpener>());
    client.Authorize(Args(), Record(&out));
  }
  queue->RunCallbacks();
  CHECK(out.done);
  CHECK(out.result.Type() == sdkauth::ErrorType::ClientDestroyed);
}
