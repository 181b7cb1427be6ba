// Types for mutation-modules.mjs, for the tests.
export const MODULES: Record<string, { mutate: string[]; tests: string[] }>;
export function globToRegExp(glob: string): RegExp;
export function mutates(moduleName: string, file: string): boolean;
export function mutatedFiles(moduleName: string, sources: string[]): string[];
