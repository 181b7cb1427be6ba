// Reading glibc symbol versions out of `objdump -T`, for the Linux prebuild checks.

/** Every GLIBC_x.y version the dynamic symbol table refers to, e.g. ['2.2.5', '2.34']. */
export function glibcVersions(objdumpT: string): string[] {
  return [...new Set([...objdumpT.matchAll(/\bGLIBC_(\d+(?:\.\d+)+)\b/g)].map((m) => m[1]!))];
}

/** The newest of some dotted versions. */
export function newestVersion(versions: string[]): string {
  const parts = (v: string) => v.split('.').map(Number);
  return versions.reduce((a, b) => {
    const [x, y] = [parts(a), parts(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0) ? a : b;
    }
    return a;
  });
}
