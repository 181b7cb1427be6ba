// Types for mutation-score.mjs, for the tests.
export interface MutantKey {
  file: string;
  in: string;
  /** The text of the line the mutant starts on, whitespace folded. */
  line: string;
  /** Which occurrence of the same text on an equal line of the same place, when not the first. */
  nth?: number;
  mutator: string;
  original: string;
  replacement: string;
}
export interface Equivalent extends MutantKey {
  module: string;
}
export interface ScoredMutant extends Omit<MutantKey, 'line'> {
  /** The text of the line it starts on (the key's `line`). */
  lineText: string;
  line: number;
  column: number;
  status: string;
}
export interface StrykerMutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
export interface StrykerReport {
  files: Record<string, { source: string; mutants: StrykerMutant[] }>;
}
export interface ReportScore {
  detected: number;
  all: number;
  raw: number;
  listed: number;
  score: number;
  unlisted: ScoredMutant[];
  killedButListed: ScoredMutant[];
}
export const EQUIVALENTS_FILE: string;
export function keyText(text: string): string;
export function placeName(fileName: string, source: string, line: number, column: number): string;
export function keyId(key: MutantKey): string;
export function mutantKey(fileName: string, source: string, mutant: StrykerMutant): MutantKey;
export function readEquivalents(file?: string): Equivalent[];
export function scoreReport(report: StrykerReport, equivalents: Equivalent[]): ReportScore;
export function describeMutant(mutant: ScoredMutant): string;
export function formatScore(moduleName: string, result: ReportScore, options?: { goal?: number }): string;
export function entriesFor(moduleName: string, result: ReportScore): Equivalent[];
export function stillInSource(entry: MutantKey, source: string): boolean;
