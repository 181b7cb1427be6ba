// The process warnings a piece of a test emits (process.emitWarning), to check what the library
// reports when a caller's callback throws, and that no secret is in it.

/**
 * Runs `run` and returns the warnings the process emitted meanwhile and on the turn after it
 * (process.emitWarning emits on the next tick). The listener is removed whether `run` resolves or throws.
 */
export async function warningsDuring(run: () => unknown): Promise<Array<Error & { code?: string }>> {
  const warnings: Array<Error & { code?: string }> = [];
  const onWarning = (warning: Error): void => void warnings.push(warning);
  process.on('warning', onWarning);
  try {
    await run();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  return warnings;
}
