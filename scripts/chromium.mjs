// Finds a Chromium for Playwright, in this order:
//   1. $PAUSEPOINT_CHROMIUM (an explicit path),
//   2. Playwright's own browser cache (where `npx playwright install` puts it),
//   3. /usr/bin/chromium (Debian's package),
// and, when none exists and `install` is asked for, installs one: Debian's
// package when running as root with apt-get, Playwright's installer otherwise.
import { existsSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { chromium } from '@playwright/test';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

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

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && commandExists('apt-get')) {
    console.log('No Chromium found: installing Debian\'s chromium package (about a minute)…');
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'chromium']);
  } else {
    console.log('No Chromium found: installing Playwright\'s Chromium…');
    run('npx', ['playwright', 'install', 'chromium']);
  }
  const installed = findChromium();
  if (!installed) throw new Error('Could not install Chromium: set PAUSEPOINT_CHROMIUM to a Chromium executable');
  return installed;
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
