// Finds a Chromium for Playwright, in this order:
//   1. $PAUSEPOINT_CHROMIUM (an explicit path),
//   2. Playwright's own browser cache (where `npx playwright install` puts it),
//   3. /usr/bin/chromium (Debian's package),
// and, when none exists and `install` is asked for, installs one: Debian's
// package when running as root with apt-get, Playwright's installer otherwise.
//
// The end-to-end tests prefer Chromium's headless shell (`findTestChromium`): the
// same Blink and V8 without the browser's own UI layer, which a test never sees.
// On this 2-core machine it spent about a quarter less CPU on the same specs
// (12 tests: 51.6 → 39.0 s of user + system time). The benchmarks and the README's
// pictures keep the full browser a person runs (`findChromium`).
import { existsSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { chromium } from '@playwright/test';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export function findChromium() {
  const explicit = process.env.PAUSEPOINT_CHROMIUM;
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`PAUSEPOINT_CHROMIUM points at ${explicit}, which does not exist`);
    return { path: explicit, source: 'PAUSEPOINT_CHROMIUM' };
  }
  const cached = safe(() => chromium.executablePath());
  if (cached && existsSync(cached)) return { path: cached, source: 'playwright cache' };
  if (existsSync(DEBIAN_CHROMIUM)) return { path: DEBIAN_CHROMIUM, source: 'debian package' };
  return undefined;
}

/** The Chromium the end-to-end tests run: an explicit one, else Debian's headless shell, else `findChromium`'s. */
export function findTestChromium() {
  if (!process.env.PAUSEPOINT_CHROMIUM && existsSync(DEBIAN_HEADLESS_SHELL)) return { path: DEBIAN_HEADLESS_SHELL, source: 'debian headless shell' };
  return findChromium();
}

/**
 * What `npm test` needs: a Chromium (the pictures are made in the full browser) and, on Debian as root,
 * the headless shell beside it for the end-to-end tests (about 40 s to install; where it will not
 * install, the tests run in the full browser). Returns the tests' Chromium.
 */
export function ensureChromium() {
  const canApt = isRoot() && commandExists('apt-get');
  if (!findChromium()) {
    if (canApt) {
      console.log('No Chromium found: installing Debian\'s chromium package (about a minute)…');
      run('apt-get', ['update', '-qq']);
      run('apt-get', ['install', '-y', '-qq', 'chromium']);
    } else {
      console.log('No Chromium found: installing Playwright\'s Chromium…');
      run('npx', ['playwright', 'install', 'chromium']);
    }
    if (!findChromium()) throw new Error('Could not install Chromium: set PAUSEPOINT_CHROMIUM to a Chromium executable');
  }
  if (canApt && !process.env.PAUSEPOINT_CHROMIUM && !existsSync(DEBIAN_HEADLESS_SHELL)) {
    console.log('Installing Debian\'s chromium-headless-shell for the end-to-end tests…');
    const installed = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium-headless-shell'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (installed.status !== 0) console.log('chromium-headless-shell did not install: the end-to-end tests run in the full browser.');
  }
  return findTestChromium();
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function safe(fn) {
  try {
    return fn();
  } catch {
    return undefined; // Playwright throws when its registry has no entry for this platform.
  }
}

function commandExists(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function run(cmd, args) {
  execFileSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = process.argv.includes('--install') ? ensureChromium() : findChromium();
  console.log(found ? `${found.path} (${found.source})` : 'no chromium found');
}
