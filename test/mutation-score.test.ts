// The mutation score of issue 32 (scripts/lib/mutation-score.mjs, printed by `npm run mutate`):
// killed over all mutants but the ones docs/mutation-equivalents.json lists, each listing still
// pointing at code that exists and explained in docs/mutation-equivalents.md.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from './support/built.js';

// ES modules of scripts/; this file is compiled as CommonJS, so they are loaded with import().
let score: typeof import('../scripts/lib/mutation-score.mjs', { with: { 'resolution-mode': 'import' } });
let modules: typeof import('../scripts/lib/mutation-modules.mjs', { with: { 'resolution-mode': 'import' } });
beforeAll(async () => {
  score = await import('../scripts/lib/mutation-score.mjs');
  modules = await import('../scripts/lib/mutation-modules.mjs');
});

const work = mkdtempSync(path.join(os.tmpdir(), 'social-sdk-auth-mutation-score-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SOURCE = [
  'export class Counter {',
  '  #count = 0;',
  '  take(limit: number): boolean {',
  '    if (this.#count >= limit) return false;',
  '    this.#count++;',
  '    return true;',
  '  }',
  '}',
  "export const NAME = 'counter';",
  'export function sweep(windows: Map<string, number>, now: number): void {',
  '  for (const [key, end] of windows) {',
  '    if (end <= now) windows.delete(key);',
  '  }',
  '}',
].join('\n');
const FILE = 'src/example.ts';

/** Where the `occurrence`-th `text` of SOURCE is, as Stryker's report writes it (1-based). */
function at(text: string, occurrence = 0) {
  let offset = -1;
  for (let i = 0; i <= occurrence; i++) offset = SOURCE.indexOf(text, offset + 1);
  if (offset === -1) throw new Error(`no ${text} in the example`);
  const position = (index: number) => {
    const before = SOURCE.slice(0, index).split('\n');
    return { line: before.length, column: before[before.length - 1].length + 1 };
  };
  return { start: position(offset), end: position(offset + text.length) };
}

const mutant = (text: string, mutatorName: string, replacement: string, status: string, occurrence = 0) => ({
  mutatorName,
  replacement,
  status,
  location: at(text, occurrence),
});

const REPORT = {
  files: {
    [FILE]: {
      source: SOURCE,
      mutants: [
        mutant('this.#count >= limit', 'EqualityOperator', 'this.#count > limit', 'Killed'),
        mutant('this.#count >= limit', 'ConditionalExpression', 'false', 'Survived'),
        mutant('end <= now', 'EqualityOperator', 'end < now', 'Survived'),
        mutant('{\n    if (end <= now) windows.delete(key);\n  }', 'BlockStatement', '{}', 'Timeout'),
        mutant("'counter'", 'StringLiteral', '""', 'NoCoverage'),
        mutant('true', 'BooleanLiteral', 'false', 'Ignored'),
      ],
    },
  },
};

const EQUIVALENTS = [
  {
    module: 'example',
    file: FILE,
    in: 'sweep',
    line: 'if (end <= now) windows.delete(key);',
    mutator: 'EqualityOperator',
    original: 'end <= now',
    replacement: 'end < now',
  },
  // Listed, yet the run detected it: the listing is wrong.
  {
    module: 'example',
    file: FILE,
    in: 'sweep',
    line: 'for (const [key, end] of windows) {',
    mutator: 'BlockStatement',
    original: '{ if (end <= now) windows.delete(key); }',
    replacement: '{}',
  },
];

describe('a mutant’s place', () => {
  it('is named by the class, method, function or constant around it', () => {
    const place = (text: string) => score.placeName(FILE, SOURCE, at(text).start.line, at(text).start.column);
    expect(place('this.#count >= limit')).toBe('Counter.take');
    expect(place('#count = 0')).toBe('Counter.#count');
    expect(place('end <= now')).toBe('sweep');
    expect(place("'counter'")).toBe('NAME');
  });

  it('is keyed by its text with whitespace folded, so a reformatted block keeps its key', () => {
    const key = score.mutantKey(FILE, SOURCE, REPORT.files[FILE].mutants[3]);
    const { module: _module, ...listed } = EQUIVALENTS[1];
    expect(key).toEqual(listed); // the listing of the block emptied, written folded
    expect(score.keyText(`a\n\n   b\tc ${'x'.repeat(300)}`)).toHaveLength(160);
  });
});

describe('the score of a report', () => {
  it('counts out the listed survivors, and names the unlisted ones and the listings a test contradicts', () => {
    const result = score.scoreReport(REPORT, EQUIVALENTS);
    expect(result.detected).toBe(2); // killed and timed out; the ignored one is not counted
    expect(result.all).toBe(5);
    expect(result.raw).toBeCloseTo(40);
    expect(result.listed).toBe(1);
    expect(result.score).toBeCloseTo(50); // 2 of the 4 not listed
    expect(result.unlisted.map((m) => [m.in, m.replacement, m.status])).toEqual([
      ['Counter.take', 'false', 'Survived'],
      ['NAME', '""', 'NoCoverage'],
    ]);
    expect(result.killedButListed.map((m) => [m.in, m.mutator])).toEqual([['sweep', 'BlockStatement']]);
  });

  it('tells apart the same change on two lines of one function by the line', () => {
    const twice = 'export function f(a: boolean) {\n  const x = { ok: false };\n  const y = { done: false };\n  return a ? x : y;\n}';
    const falseAt = (text: string) => {
      const offset = twice.indexOf(text) + text.indexOf('false');
      const before = twice.slice(0, offset).split('\n');
      const start = { line: before.length, column: before[before.length - 1].length + 1 };
      return { mutatorName: 'BooleanLiteral', replacement: 'true', status: 'Survived', location: { start, end: { ...start, column: start.column + 5 } } };
    };
    const report = { files: { [FILE]: { source: twice, mutants: [falseAt('{ ok: false }'), falseAt('{ done: false }')] } } };
    const listing = [
      { module: 'example', file: FILE, in: 'f', line: 'const x = { ok: false };', mutator: 'BooleanLiteral', original: 'false', replacement: 'true' },
    ];
    const result = score.scoreReport(report, listing);
    expect(result.listed).toBe(1);
    expect(result.unlisted.map((m) => m.lineText)).toEqual(['const y = { done: false };']);
    expect(score.stillInSource(listing[0], twice)).toBe(true);
    expect(score.stillInSource({ ...listing[0], line: 'const z = { ok: false };' }, twice)).toBe(false);
  });

  it('tells apart the same change twice on one line by which occurrence it is (nth, from the second)', () => {
    const pair = 'export function g() {\n  return [false, false];\n}';
    const at = (offset: number) => ({
      mutatorName: 'BooleanLiteral',
      replacement: 'true',
      status: 'Survived',
      location: { start: { line: 2, column: offset + 1 }, end: { line: 2, column: offset + 6 } },
    });
    const line = pair.split('\n')[1];
    const report = { files: { [FILE]: { source: pair, mutants: [at(line.indexOf('false')), at(line.lastIndexOf('false'))] } } };
    const second = {
      module: 'example',
      file: FILE,
      in: 'g',
      line: 'return [false, false];',
      nth: 2,
      mutator: 'BooleanLiteral',
      original: 'false',
      replacement: 'true',
    };
    const result = score.scoreReport(report, [second]);
    expect(result.listed).toBe(1);
    expect(result.unlisted.map((m) => [m.column, m.nth])).toEqual([[11, undefined]]);
    expect(score.stillInSource(second, pair)).toBe(true);
    expect(score.stillInSource({ ...second, nth: 3 }, pair)).toBe(false);
  });

  it('is printed with the goal, each unlisted survivor and each contradicted listing', () => {
    const text = score.formatScore('example', score.scoreReport(REPORT, EQUIVALENTS));
    expect(text).toContain("Stryker's (every mutant):          40.0% (2 killed or timed out of 5)");
    expect(text).toContain('Score (all but those listed):      50.0% (2 of 4), below the goal of 85%');
    expect(text).toContain('src/example.ts:4:9 in Counter.take, ConditionalExpression: `this.#count >= limit` -> `false` (Survived)');
    expect(text).toContain('src/example.ts:9:21 in NAME, StringLiteral: `\'counter\'` -> `""` (NoCoverage)');
    expect(text).toContain('Listed as equivalent but killed (1): a test tells them apart, so remove their listing:');
    const clean = score.formatScore('example', score.scoreReport({ files: { [FILE]: { source: SOURCE, mutants: [REPORT.files[FILE].mutants[0]] } } }, []));
    expect(clean).not.toMatch(/below the goal|neither killed|but killed/);
  });

  it('is what `npm run mutate -- --score` prints for a report, with the entries to paste after --entries', () => {
    const reportPath = path.join(work, 'example.json');
    writeFileSync(reportPath, JSON.stringify(REPORT));
    const printed = execFileSync(process.execPath, ['scripts/mutate.mjs', '--score', reportPath, '--entries'], { cwd: projectRoot, encoding: 'utf8' });
    expect(printed).toContain('Mutation score of example:');
    expect(printed).toContain('Survivors neither killed nor listed (3)');
    const entries = JSON.parse(printed.slice(printed.indexOf('[\n')));
    expect(entries).toContainEqual(EQUIVALENTS[0]);
    expect(entries).toHaveLength(3);
  });

  it('is refused, with the reason, for a report that is not there', () => {
    const missing = spawnSync(process.execPath, ['scripts/mutate.mjs', '--score', path.join(work, 'none.json')], { cwd: projectRoot, encoding: 'utf8' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--score needs the path of a report Stryker wrote (build/mutation/<module>.json); there is no file');
  });
});

describe('the files a module run mutates', () => {
  it('leave out what a `!` glob names, and give Stryker the files themselves', () => {
    const sources = ['src/emulator/kernel/pipeline.ts', 'src/emulator/kernel/ratelimit.ts', 'src/shared/redact.ts', 'src/emulator/kernel/README.md'];
    expect(modules.mutatedFiles('emulator/kernel', sources)).toEqual(['src/emulator/kernel/pipeline.ts']);
    expect(modules.mutates('emulator/kernel', 'src/emulator/kernel/ratelimit.ts')).toBe(false);
    expect(modules.mutates('emulator/ratelimit', 'src/emulator/kernel/ratelimit.ts')).toBe(true);
    expect(modules.mutatedFiles('emulator/ratelimit', sources)).toEqual(['src/emulator/kernel/ratelimit.ts']);
    expect(modules.mutatedFiles('rules/lobbies', sources)).toEqual([]);
  });
});

describe('docs/mutation-equivalents.json', () => {
  const listing = () => score.readEquivalents();
  const reasons = readFileSync(path.join(projectRoot, 'docs', 'mutation-equivalents.md'), 'utf8');
  const section = (name: string) => {
    const start = reasons.indexOf(`\n## ${name}\n`);
    if (start === -1) return '';
    const end = reasons.indexOf('\n## ', start + 1);
    return reasons.slice(start, end === -1 ? undefined : end);
  };

  it('lists each mutant once, of a module and a file that module mutates', () => {
    const seen = new Set<string>();
    for (const entry of listing()) {
      const id = score.keyId(entry);
      expect(seen.has(id), `listed twice: ${id}`).toBe(false);
      seen.add(id);
      expect(Object.keys(modules.MODULES), entry.module).toContain(entry.module);
      expect(modules.mutates(entry.module, entry.file), `${entry.module} does not mutate ${entry.file}`).toBe(true);
    }
  });

  it('points at code that is still there: each listed text, in the function it names', () => {
    const stale = listing().filter((entry) => {
      const file = path.join(projectRoot, entry.file);
      return !existsSync(file) || !score.stillInSource(entry, readFileSync(file, 'utf8'));
    });
    expect(stale.map((entry) => score.describeMutant({ ...entry, lineText: entry.line, line: 0, column: 0, status: 'listed' }))).toEqual([]);
  });

  it('gives each listing its reason: the module’s section of docs/mutation-equivalents.md names the place', () => {
    for (const entry of listing()) {
      const text = section(entry.module);
      expect(text, `docs/mutation-equivalents.md has no section ## ${entry.module}`).not.toBe('');
      // The outermost class or function it is in, written as code (`RequestCore`, `takeLimits`):
      // an inner name alone (`constructor`, `take`) could be any place's.
      const outermost = entry.in.split('.')[0];
      expect(outermost, `${entry.file}: an entry names no place`).not.toBe('');
      expect(text.includes(`\`${outermost}`), `the ${entry.module} section does not name ${entry.in}`).toBe(true);
    }
  });

  it('refuses an entry without one of its fields, saying which', () => {
    const bad = path.join(work, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ ...EQUIVALENTS[0], replacement: undefined }]));
    expect(() => score.readEquivalents(bad)).toThrow(
      /entry 0 has no string 'replacement'; each entry names module, file, in, line, mutator, original and replacement/,
    );
  });
});
