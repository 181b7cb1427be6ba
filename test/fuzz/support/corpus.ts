// Reads a checked-in corpus: JSON Lines under test/fuzz/corpus/, '#' lines are comments, and
// placeholders ({STATE}, {SCHEME}, {text*N}) are expanded for the flow at hand.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { Verdict } from './redirect-model.js';

export interface CorpusEntry {
  input: string;
  expect: Verdict['kind'];
  status?: number;
  note?: string;
  line: number;
}

export function readCorpus(name: string): CorpusEntry[] {
  const file = path.join(__dirname, '..', 'corpus', name);
  const entries: CorpusEntry[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      if (text.trim() === '' || text.startsWith('#')) return;
      entries.push({ ...(JSON.parse(text) as Omit<CorpusEntry, 'line'>), line: index + 1 });
    });
  return entries;
}

/** Expands the placeholders of a corpus input. */
export function expand(input: string, values: Record<string, string>): string {
  return input
    .replace(/\{([^{}*]+)\*(\d+)\}/g, (_, text: string, count: string) => text.repeat(Number(count)))
    .replace(/\{([A-Z]+)\}/g, (whole, key: string) => values[key] ?? whole);
}
