// Opens a URL with the platform's handler. Only http and https URLs are handed over, so a
// crafted string can never make the OS run a program of its choosing.
#include <string>
#include <thread>

#include "sdkauth/client.hpp"
#include "sdkauth/url.hpp"

#if defined(_WIN32)
#include <windows.h>
#include <shellapi.h>
#else
#include <spawn.h>
#include <sys/wait.h>
extern char** environ;
#endif

namespace sdkauth {

bool OpenWithSystemHandler(const std::string& url) {
  const auto parts = SplitUrl(url);
  if (!parts || (parts->scheme != "http" && parts->scheme != "https")) return false;
#if defined(_WIN32)
  const auto result = reinterpret_cast<INT_PTR>(
      ShellExecuteA(nullptr, "open", url.c_str(), nullptr, nullptr, SW_SHOWNORMAL));
  return result > 32;
#else
#if defined(__APPLE__)
  const char* program = "open";
#else
  const char* program = "xdg-open";
#endif
  std::string arg0 = program;
  std::string arg1 = url;
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  pid_t pid = 0;
  if (posix_spawnp(&pid, program, nullptr, nullptr, argv, environ) != 0) return false;
  // Reap the child so it does not linger as a zombie; the thread ends with it.
  std::thread([pid] {
    int status = 0;
    waitpid(pid, &status, 0);
  }).detach();
  return true;
#endif
}

}  // namespace sdkauth
