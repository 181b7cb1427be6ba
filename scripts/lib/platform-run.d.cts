// Types for platform-run.cjs, for the tests in test/platforms/.
export const WINE: string;
export const WINESERVER: string;
export const QEMU: string;
export const ARM64_SYSROOT: string;
export const PLATFORM_NODE_VERSION: string;
export const foreignPlatforms: string[];
export function platformNode(platform: 'win32-x64' | 'linux-arm64'): string;
export function emulatorMissing(platform: string): string | undefined;
export function wineEnv(prefix: string, base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export function createWinePrefix(env: NodeJS.ProcessEnv): void;
export function stopWine(env: NodeJS.ProcessEnv): void;
export function winePath(linuxPath: string): string;
export function foreignNodeCommand(platform: string, node: string, args: string[]): { command: string; args: string[] };
export function runToFilesSync(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logs: string; timeoutMs: number },
): { code: number | null; error: string | undefined; stdout: string; stderr: string };
