// The score issue 32 asks of each mutation module: killed (or timed out) over all mutants but
// those listed as equivalent. Stryker's own score counts every survivor; this one reads its JSON
// report against docs/mutation-equivalents.json, the list of mutants no caller can tell from the
// original (their reasons are in docs/mutation-equivalents.md), and names every survivor that is
// neither killed nor listed: a missing test, or a listing to write.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const EQUIVALENTS_FILE = path.join(root, 'docs', 'mutation-equivalents.json');

/** The longest text of a mutant kept in a key: a block emptied is known by its start. */
const KEY_CHARS = 160;

/** Whitespace folded and the text cut, so a key survives re-indentation and reformatting. */
export function keyText(text) {
  const folded = text.replace(/\s+/g, ' ').trim();
  return folded.length > KEY_CHARS ? folded.slice(0, KEY_CHARS) : folded;
}

/** Names that make a place in a file: classes, functions, methods, accessors, properties, module constants. */
function nameOf(node) {
  const name =
    node.name !== undefined && (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : undefined;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isClassLike(node) || ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) return name;
  if (ts.isPropertyDeclaration(node)) return name;
  if (ts.isVariableDeclaration(node)) {
    const init = node.initializer;
    const isFunction = init !== undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isClassExpression(init));
    const atModuleLevel = ts.isVariableDeclarationList(node.parent) && ts.isVariableStatement(node.parent.parent) && ts.isSourceFile(node.parent.parent.parent);
    return isFunction || atModuleLevel ? name : undefined;
  }
  if (ts.isPropertyAssignment(node) && node.initializer !== undefined && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer)))
    return name;
  return undefined;
}

// The last file parsed: a report's mutants come file by file, and each asks for its place.
let lastParsed = { fileName: '', source: '', file: undefined };
function parsed(fileName, source) {
  if (lastParsed.file === undefined || lastParsed.fileName !== fileName || lastParsed.source !== source) {
    lastParsed = { fileName, source, file: ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS) };
  }
  return lastParsed.file;
}

/**
 * Where in a file a place is, by the names around it: `TokenTransport.#exchange`,
 * `WindowCounter.take`, `describeNetworkError`, `UNEXPECTED_STATUS`; '' at the top level.
 * `line` and `column` are 1-based, as in Stryker's report.
 */
export function placeName(fileName, source, line, column) {
  const file = parsed(fileName, source);
  const offset = file.getPositionOfLineAndCharacter(line - 1, column - 1);
  const names = [];
  let node = file;
  for (;;) {
    const inner = node.getChildren(file).find((child) => child.getStart(file) <= offset && offset < child.getEnd());
    if (inner === undefined) break;
    const name = nameOf(inner);
    if (name !== undefined) names.push(name);
    node = inner;
  }
  return names.join('.');
}

/** The key of one mutant of a report's file: where it is (place and line), which mutator, what it replaced and with what. */
export function mutantKey(fileName, source, mutant) {
  const lines = source.split('\n');
  const { start, end } = mutant.location;
  const from = lines.slice(0, start.line - 1).reduce((sum, text) => sum + text.length + 1, 0) + start.column - 1;
  const to = lines.slice(0, end.line - 1).reduce((sum, text) => sum + text.length + 1, 0) + end.column - 1;
  const key = {
    file: fileName,
    in: placeName(fileName, source, start.line, start.column),
    // The line it starts on tells apart the same change made in two places of one function
    // (`false` made `true` in two object literals, say), of which one may be killed.
    line: keyText(lines[start.line - 1]),
    mutator: mutant.mutatorName,
    original: keyText(source.slice(from, to)),
    replacement: keyText(mutant.replacement ?? ''),
  };
  // The same text on the same line twice (or on two equal lines of one function): which one.
  const nth = occurrences(key, source).indexOf(from) + 1;
  return nth > 1 ? { ...key, nth } : key;
}

function sameKey(entry, key) {
  return (
    entry.file === key.file &&
    entry.in === key.in &&
    keyText(entry.line) === key.line &&
    (entry.nth ?? 1) === (key.nth ?? 1) &&
    entry.mutator === key.mutator &&
    keyText(entry.original) === key.original &&
    keyText(entry.replacement) === key.replacement
  );
}

/** The listed equivalents, checked for shape: a bad entry would silently list nothing. */
export function readEquivalents(file = EQUIVALENTS_FILE) {
  const list = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(list)) throw new Error(`${file} must hold a JSON array of equivalent mutants.`);
  list.forEach((entry, index) => {
    for (const field of ['module', 'file', 'in', 'line', 'mutator', 'original', 'replacement']) {
      if (typeof entry?.[field] !== 'string')
        throw new Error(`${file}: entry ${index} has no string '${field}'; each entry names module, file, in, line, mutator, original and replacement.`);
    }
    if (entry.nth !== undefined && !(Number.isInteger(entry.nth) && entry.nth >= 2)) {
      throw new Error(
        `${file}: entry ${index} has nth ${JSON.stringify(entry.nth)}; nth is left out for the first occurrence and is a whole number of 2 or more otherwise.`,
      );
    }
  });
  return list;
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/**
 * Scores a Stryker JSON report: `raw` as Stryker counts it, `score` without the mutants listed as
 * equivalent. `unlisted` are the survivors to kill or list; `killedButListed` are listings a test
 * now contradicts (the mutant is killed, so it was not equivalent).
 */
export function scoreReport(report, equivalents) {
  let detected = 0;
  let undetected = 0;
  const listed = [];
  const unlisted = [];
  const killedButListed = [];
  for (const [fileName, { source, mutants }] of Object.entries(report.files)) {
    for (const mutant of mutants) {
      const isDetected = DETECTED.has(mutant.status);
      if (!isDetected && !UNDETECTED.has(mutant.status)) continue; // ignored, static or not compiled
      const key = mutantKey(fileName, source, mutant);
      const where = { ...key, lineText: key.line, line: mutant.location.start.line, column: mutant.location.start.column, status: mutant.status };
      const isListed = equivalents.some((entry) => sameKey(entry, key));
      if (isDetected) {
        detected++;
        if (isListed) killedButListed.push(where);
      } else {
        undetected++;
        (isListed ? listed : unlisted).push(where);
      }
    }
  }
  const all = detected + undetected;
  const counted = all - listed.length;
  return {
    detected,
    all,
    raw: all === 0 ? 100 : (100 * detected) / all,
    listed: listed.length,
    score: counted === 0 ? 100 : (100 * detected) / counted,
    unlisted,
    killedButListed,
  };
}

/** One line per mutant: where it is and what it changed. */
export function describeMutant(m) {
  const cut = (text) => (text.length > 70 ? `${text.slice(0, 67)}...` : text);
  return `${m.file}:${m.line}:${m.column} in ${m.in || '(top level)'}, ${m.mutator}: \`${cut(m.original)}\` -> \`${cut(m.replacement)}\` (${m.status})`;
}

/** The printed score of a report, as `npm run mutate` ends. */
export function formatScore(moduleName, result, { goal = 85 } = {}) {
  const pct = (value) => `${value.toFixed(1)}%`;
  const lines = [
    `Mutation score of ${moduleName}:`,
    `  Stryker's (every mutant):          ${pct(result.raw)} (${result.detected} killed or timed out of ${result.all})`,
    `  Listed as equivalent:              ${result.listed} (docs/mutation-equivalents.json; reasons in docs/mutation-equivalents.md)`,
    `  Score (all but those listed):      ${pct(result.score)} (${result.detected} of ${result.all - result.listed})${result.score < goal ? `, below the goal of ${goal}%` : ''}`,
  ];
  if (result.unlisted.length > 0) {
    lines.push(`  Survivors neither killed nor listed (${result.unlisted.length}): kill each with a test, or list it as equivalent with its reason:`);
    for (const m of result.unlisted) lines.push(`    ${describeMutant(m)}`);
  }
  if (result.killedButListed.length > 0) {
    lines.push(`  Listed as equivalent but killed (${result.killedButListed.length}): a test tells them apart, so remove their listing:`);
    for (const m of result.killedButListed) lines.push(`    ${describeMutant(m)}`);
  }
  return lines.join('\n');
}

/** The entries to paste into docs/mutation-equivalents.json for the unlisted survivors, once each is known equivalent. */
export function entriesFor(moduleName, result) {
  const seen = new Set();
  const entries = [];
  for (const m of result.unlisted) {
    const entry = {
      module: moduleName,
      file: m.file,
      in: m.in,
      line: m.lineText,
      ...(m.nth ? { nth: m.nth } : {}),
      mutator: m.mutator,
      original: m.original,
      replacement: m.replacement,
    };
    const id = JSON.stringify(entry);
    if (seen.has(id)) continue;
    seen.add(id);
    entries.push(entry);
  }
  return entries;
}

// The folded text of the last source asked for (keyText's folding), with each folded character's
// offset in the source: a report's mutants come file by file.
let lastFolded = { source: undefined, folded: '', offsets: [], lineStarts: [], lines: [] };
function foldedOf(source) {
  if (lastFolded.source === source) return lastFolded;
  let folded = '';
  const offsets = [];
  let space = false;
  for (let i = 0; i < source.length; i++) {
    if (/\s/.test(source[i])) {
      space = folded.length > 0;
      continue;
    }
    if (space) {
      folded += ' ';
      offsets.push(i);
      space = false;
    }
    folded += source[i];
    offsets.push(i);
  }
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1);
  lastFolded = { source, folded, offsets, lineStarts, lines: source.split('\n') };
  return lastFolded;
}

/** Where a key's text starts in `source` (offsets, in source order): on a line of its `line`, in the place its `in` names. */
function occurrences(key, source) {
  const { folded, offsets, lineStarts, lines } = foldedOf(source);
  const wanted = keyText(key.original);
  const found = [];
  for (let at = folded.indexOf(wanted); at !== -1; at = folded.indexOf(wanted, at + 1)) {
    const offset = offsets[at];
    let line = lineStarts.length - 1;
    while (lineStarts[line] > offset) line--;
    if (keyText(lines[line]) !== keyText(key.line)) continue;
    if (placeName(key.file, source, line + 1, offset - lineStarts[line] + 1) === key.in) found.push(offset);
  }
  return found;
}

/**
 * Whether a listed equivalent still describes the code: its original text (whitespace folded)
 * occurs in its file on a line of its text, at a place of its name, at least `nth` times. A
 * listing whose code changed or moved says nothing.
 */
export function stillInSource(entry, source) {
  return occurrences(entry, source).length >= (entry.nth ?? 1);
}
