// The one way the tests, benchmarks and scripts start a browser: Debian's Chromium (installed by
// scripts/ensure-system.mjs), headless, driven by playwright-core (whose own browsers download
// at install time, which this project does not do).
import { chromium } from 'playwright-core';

/** The system Chromium, headless; `args` are added to its command line. */
export function launchBrowser(args = []) {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', ...args] });
}
