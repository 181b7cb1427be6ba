// Types for plain-exports.mjs, for the tests.
import type { Plugin } from 'rolldown';

export const plainExports: Plugin;
