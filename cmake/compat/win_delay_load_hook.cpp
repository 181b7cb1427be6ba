// Linked into the Windows prebuild only. Node-API is imported from "node.exe" with delay
// loading; when the module is first used, this hook answers that import with the running
// executable, so the binary also loads in hosts with another name: Electron apps, Node
// single-executable applications, a renamed node.exe.
#include <windows.h>
#include <delayimp.h>

#include <cstring>

namespace {

FARPROC WINAPI ResolveNodeToHost(unsigned notify, PDelayLoadInfo info) {
  if (notify != dliNotePreLoadLibrary || info == nullptr || info->szDll == nullptr) return nullptr;
  if (_stricmp(info->szDll, "node.exe") != 0) return nullptr;
  return reinterpret_cast<FARPROC>(GetModuleHandleW(nullptr));
}

// mingw-w64's delay-load helper owns the hook variable; set it before anything is called.
struct InstallHook {
  InstallHook() { __pfnDliNotifyHook2 = ResolveNodeToHost; }
} install_hook;

}  // namespace
