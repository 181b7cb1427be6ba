// The error a promise rejects with; fails the test when it resolves instead.
export async function rejected<E = Error>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (error) {
    return error as E;
  }
  throw new Error('expected the promise to reject, but it resolved');
}
