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

/**
 * What the key functions read of one source, made once: a report's mutants come file by file.
 * The parse (for places) is made when first asked; the folded text is keyText's folding of the
 * whole source, with each folded character's offset in it.
 */
let lastIndex;
function indexOf(fileName, source) {
  if (lastIndex?.fileName === fileName && lastIndex.source === source) return lastIndex;
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
  const lines = source.split('\n');
  const lineStarts = [0];
  for (const text of lines.slice(0, -1)) lineStarts.push(lineStarts[lineStarts.length - 1] + text.length + 1);
  let parsed;
  lastIndex = {
    fileName,
    source,
    folded,
    offsets,
    lines,
    lineStarts,
    get parsed() {
      parsed ??= ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      return parsed;
    },
    /** The 0-based line an offset is on. */
    lineOf(offset) {
      let low = 0;
      let high = lineStarts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (lineStarts[middle] <= offset) low = middle;
        else high = middle - 1;
      }
      return low;
    },
  };
  return lastIndex;
}

/**
 * Where in a file a place is, by the names around it: `TokenTransport.#exchange`,
 * `WindowCounter.take`, `describeNetworkError`, `UNEXPECTED_STATUS`; '' at the top level.
 * `line` and `column` are 1-based, as in Stryker's report.
 */
export function placeName(fileName, source, line, column) {
  const index = indexOf(fileName, source);
  return placeAt(index, index.lineStarts[line - 1] + column - 1);
}

/** The place of an offset of an indexed source (`placeName`). */
function placeAt(index, offset) {
  const file = index.parsed;
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
  const index = indexOf(fileName, source);
  const { start, end } = mutant.location;
  const from = index.lineStarts[start.line - 1] + start.column - 1;
  const to = index.lineStarts[end.line - 1] + end.column - 1;
  const key = {
    file: fileName,
    in: placeAt(index, from),
    // The line it starts on tells apart the same change made in two places of one function
    // (`false` made `true` in two object literals, say), of which one may be killed.
    line: keyText(index.lines[start.line - 1]),
    mutator: mutant.mutatorName,
    original: keyText(source.slice(from, to)),
    replacement: keyText(mutant.replacement ?? ''),
  };
  // The same text on the same line twice (or on two equal lines of one function): which one.
  const nth = occurrences(key, source).indexOf(from) + 1;
  return nth > 1 ? { ...key, nth } : key;
}

/** One string per key, the same for an entry and the mutant it lists (texts folded, `nth` 1 when left out). */
export function keyId(key) {
  return JSON.stringify([key.file, key.in, keyText(key.line), key.nth ?? 1, key.mutator, keyText(key.original), keyText(key.replacement)]);
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
  const listing = new Set(equivalents.map(keyId));
  for (const [fileName, { source, mutants }] of Object.entries(report.files)) {
    for (const mutant of mutants) {
      const isDetected = DETECTED.has(mutant.status);
      if (!isDetected && !UNDETECTED.has(mutant.status)) continue; // ignored, static or not compiled
      const key = mutantKey(fileName, source, mutant);
      const where = { ...key, lineText: key.line, line: mutant.location.start.line, column: mutant.location.start.column, status: mutant.status };
      const isListed = listing.has(keyId(key));
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

/** Where a key's text starts in `source` (offsets, in source order): on a line of its `line`, in the place its `in` names. */
function occurrences(key, source) {
  const index = indexOf(key.file, source);
  const wanted = keyText(key.original);
  const line = keyText(key.line);
  const found = [];
  for (let at = index.folded.indexOf(wanted); at !== -1; at = index.folded.indexOf(wanted, at + 1)) {
    const offset = index.offsets[at];
    if (keyText(index.lines[index.lineOf(offset)]) === line && placeAt(index, offset) === key.in) found.push(offset);
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
