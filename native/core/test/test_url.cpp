// URL helpers: encoding, strict decoding, query parsing, splitting and constant-time comparison.
#include <string>

#include "harness.hpp"
#include "sdkauth/url.hpp"

TEST(PercentEncoding) {
  CHECK_EQ(sdkauth::PercentEncode("a b&c=d/é~"), std::string("a%20b%26c%3Dd%2F%C3%A9~"));
  CHECK_EQ(*sdkauth::PercentDecode("a%20b+c", true), std::string("a b c"));
  CHECK_EQ(*sdkauth::PercentDecode("a+b", false), std::string("a+b"));
  CHECK(!sdkauth::PercentDecode("%", true).has_value());
  CHECK(!sdkauth::PercentDecode("%4", true).has_value());
  CHECK(!sdkauth::PercentDecode("%zz", true).has_value());
}

TEST(QueryParsing) {
  auto q = sdkauth::ParseQuery("code=abc&state=x%2By&&empty=&flag");
  CHECK(q.has_value());
  CHECK_EQ(q->size(), std::size_t(4));
  CHECK_EQ(*sdkauth::FindParam(*q, "state"), std::string("x+y"));
  CHECK_EQ(*sdkauth::FindParam(*q, "flag"), std::string(""));
  bool dup = false;
  auto d = sdkauth::ParseQuery("a=1&a=2");
  sdkauth::FindParam(*d, "a", &dup);
  CHECK(dup);
  std::string many;
  for (int i = 0; i < 100; ++i) many += "p=1&";
  CHECK(!sdkauth::ParseQuery(many).has_value());
}

TEST(SplitUrl) {
  auto a = sdkauth::SplitUrl("MyGame:/authorize/callback?code=1#frag");
  CHECK(a.has_value());
  CHECK_EQ(a->scheme, std::string("mygame"));
  CHECK(!a->has_authority);
  CHECK_EQ(a->path, std::string("/authorize/callback"));
  CHECK_EQ(a->query, std::string("code=1"));
  CHECK_EQ(a->fragment, std::string("frag"));
  auto b = sdkauth::SplitUrl("http://127.0.0.1:5000/callback");
  CHECK(b->has_authority);
  CHECK_EQ(b->authority, std::string("127.0.0.1:5000"));
  CHECK(!sdkauth::SplitUrl("no scheme").has_value());
  CHECK(!sdkauth::SplitUrl("1abc:/x").has_value());
  CHECK(!sdkauth::SplitUrl("a:/\x01").has_value());
}

TEST(ConstantTimeEquals) {
  CHECK(sdkauth::ConstantTimeEquals("abc", "abc"));
  CHECK(!sdkauth::ConstantTimeEquals("abc", "abd"));
  CHECK(!sdkauth::ConstantTimeEquals("abc", "ab"));
  CHECK(!sdkauth::ConstantTimeEquals("abc", "abcd"));
  CHECK(!sdkauth::ConstantTimeEquals("", "a"));
}
