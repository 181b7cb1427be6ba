// Whether a program is there to run: on PATH, or at an absolute path. CommonJS so that both the
// ES-module scripts (scripts/lib/system.mjs) and the CommonJS ones (platform-run.cjs, which the
// TypeScript tests load) share it.
'use strict';
const { accessSync, constants, statSync } = require('node:fs');
const path = require('node:path');

function runnable(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Whether `command` is a program on PATH (or, for an absolute path, a program there). */
function has(command) {
  if (path.isAbsolute(command)) return runnable(command);
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && runnable(path.join(dir, command)));
}

module.exports = { has };
