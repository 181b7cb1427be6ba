#include "harness.hpp"

namespace harness {
namespace {
int failures = 0;
}
std::vector<Case>& Cases() {
  static std::vector<Case> cases;
  return cases;
}
void Fail(const char* file, int line, const std::string& message) {
  ++failures;
  std::cerr << file << ":" << line << ": " << message << "\n";
}
}  // namespace harness

int main() {
  int failed_cases = 0;
  for (const auto& c : harness::Cases()) {
    const int before = harness::failures;
    c.run();
    const bool ok = harness::failures == before;
    if (!ok) ++failed_cases;
    std::cout << (ok ? "ok   " : "FAIL ") << c.name << "\n";
  }
  std::cout << harness::Cases().size() - failed_cases << " passed, " << failed_cases << " failed\n";
  return failed_cases == 0 ? 0 : 1;
}
