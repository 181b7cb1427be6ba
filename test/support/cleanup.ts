// What a test opens and must undo after itself: one list per file, undone last-first after each
// test, every step awaited, so the next test starts from nothing left over.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

export interface Cleanup {
  /** Closes `thing` after the test; returns it, so it can wrap a constructor call. */
  track<T extends { close(): unknown }>(thing: T): T;
  /** Runs `step` after the test. */
  defer(step: () => unknown): void;
  /** A new empty folder under the system temp dir, its name starting with `prefix`, removed after the test. */
  tempDir(prefix: string): string;
}

/**
 * Registers one afterEach that undoes, last first, what each test of the file added through the
 * returned functions. Call it at the top of the file, before any afterEach that must run first:
 * vitest runs after-hooks last registered first.
 */
export function cleanupAfterEach(): Cleanup {
  const steps: Array<() => unknown> = [];
  afterEach(async () => {
    // Every step runs even when one fails (the next test must not inherit what is left); the first failure is then reported.
    const failures: unknown[] = [];
    for (const step of steps.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  });
  return {
    track(thing) {
      steps.push(() => thing.close());
      return thing;
    },
    defer(step) {
      steps.push(step);
    },
    tempDir(prefix) {
      const dir = mkdtempSync(path.join(tmpdir(), prefix));
      steps.push(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    },
  };
}
