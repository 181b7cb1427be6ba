// Types for prebuild-check.mjs, for the tests.
export interface PlatformPromise {
  format: 'ELF' | 'PE' | 'Mach-O';
  arch: string;
  libraries: string[];
  delayLoaded?: string[];
  minimumOs: { name: string; version: string };
}
export const platforms: Record<'linux-x64' | 'linux-arm64' | 'win32-x64' | 'darwin-x64' | 'darwin-arm64', PlatformPromise>;
export const ENTRY_POINT: string;
