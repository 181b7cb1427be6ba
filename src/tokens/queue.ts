// One queue per storage location, shared by every store instance in this process.
const queues = new Map<string, Promise<void>>();

/**
 * Runs `operation` after every earlier operation queued under `key` has settled, so calls on
 * one storage location take effect in call order (the last `save` called is the one kept).
 */
export function serialize<T>(key: string, operation: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const result = previous.then(operation);
  const tail = result.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return result;
}
