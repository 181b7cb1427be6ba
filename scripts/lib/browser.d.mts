// Types for browser.mjs, for the tests.
import type { Browser } from 'playwright-core';
export function launchBrowser(args?: string[]): Promise<Browser>;
