// Types for system.mjs, for the tests.
export const packages: Record<string, string>;
export const prebuildTools: Record<string, { compiler: string; strip: string; other: string[] }>;
export const hostTarget: string;
export function has(command: string): boolean;
export function testCommands(host?: string): string[];
export function defaultPrebuildTargets(host?: string): string[];
export function prebuildCommands(target: string, host?: string): string[];
