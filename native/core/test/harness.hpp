// A minimal test harness: TEST(name) registers a case, CHECK/CHECK_EQ record failures, and
// main() runs every case and returns non-zero when any failed (ctest reads the exit status).
#pragma once
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace harness {
struct Case {
  const char* name;
  std::function<void()> run;
};
std::vector<Case>& Cases();
void Fail(const char* file, int line, const std::string& message);
struct Registrar {
  Registrar(const char* name, std::function<void()> run) { Cases().push_back({name, std::move(run)}); }
};
}  // namespace harness

#define HARNESS_CAT2(a, b) a##b
#define HARNESS_CAT(a, b) HARNESS_CAT2(a, b)
#define TEST(name)                                                                  \
  static void name();                                                               \
  static harness::Registrar HARNESS_CAT(registrar_, name)(#name, name);             \
  static void name()
#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) harness::Fail(__FILE__, __LINE__, "CHECK(" #cond ") failed");      \
  } while (0)
#define CHECK_EQ(a, b)                                                              \
  do {                                                                              \
    const auto va_ = (a);                                                           \
    const auto vb_ = (b);                                                           \
    if (!(va_ == vb_)) {                                                            \
      std::ostringstream os_;                                                       \
      os_ << "CHECK_EQ(" #a ", " #b ") failed: [" << va_ << "] != [" << vb_ << "]"; \
      harness::Fail(__FILE__, __LINE__, os_.str());                                 \
    }                                                                               \
  } while (0)
