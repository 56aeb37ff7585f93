// stories.mjs: the browser stories of prof. playwright-core drives the
// system's Chromium (never a downloaded browser) against the viewer page
// that `plotkit serve` serves, and writes one JSON line per sample for
// prof-merge --playwright.
//
// usage: node workloads/browser/stories.mjs --out FILE [--warmup N]
//          [--repeat N] [--story boot|large_viewport]... [--plotkit BIN]
//          [--url URL] [--chromium PATH] [--timeout SECONDS]
//
// Exit status: 0 every sample succeeded, 1 a sample errored, 2 bad
// arguments or an infrastructure failure (no chromium, no playwright-core,
// no server).

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync, renameSync } from 'node:fs';
import { dirname, join, resolve, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const me = 'stories';

function fail(msg) {
  process.stderr.write(`${me}: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = {
    out: null, warmup: 1, repeat: 3, stories: [], plotkit: join(root, 'bin', 'plotkit'),
    url: null, chromium: null, timeout: 60,
  };
  const count = (name, v, min) => {
    if (!/^\d+$/.test(v ?? '') || Number(v) < min) fail(`${name}: '${v}' is not a whole number >= ${min}`);
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[i + 1];
    switch (a) {
      case '--out': o.out = v; i++; break;
      case '--warmup': o.warmup = count(a, v, 0); i++; break;
      case '--repeat': o.repeat = count(a, v, 1); i++; break;
      case '--story': o.stories.push(v); i++; break;
      case '--plotkit': o.plotkit = v; i++; break;
      case '--url': o.url = v; i++; break;
      case '--chromium': o.chromium = v; i++; break;
      case '--timeout': o.timeout = count(a, v, 1); i++; break;
      case '-h': case '--help':
        process.stdout.write('usage: node workloads/browser/stories.mjs --out FILE [--warmup N] [--repeat N]\n' +
          '         [--story boot|large_viewport]... [--plotkit BIN] [--url URL]\n' +
          '         [--chromium PATH] [--timeout SECONDS]\n');
        process.exit(0);
      default: fail(`unknown argument '${a}'`);
    }
  }
  if (!o.out) fail('--out FILE is required');
  if (o.stories.length === 0) o.stories = Object.keys(STORIES);
  for (const s of o.stories) if (!STORIES[s]) fail(`unknown story '${s}' (${Object.keys(STORIES).join(', ')})`);
  return o;
}

// Debian's chromium: the binary itself starts faster than the wrapper.
function findChromium(given) {
  const candidates = given ? [given] : ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];
  for (const c of candidates) if (existsSync(c)) return c;
  fail(given ? `chromium not found at '${given}'`
    : "chromium is not installed: run 'make deps' (apt-get install -y chromium)");
}

async function loadPlaywright() {
  try {
    return await import('playwright-core');
  } catch (e) {
    fail("playwright-core is not installed: run 'make deps' (npm ci)");
  }
}

// `plotkit serve --port 0` prints "listening on http://127.0.0.1:PORT/".
function startServer(plotkit, timeoutS) {
  return new Promise((res, rej) => {
    if (!existsSync(plotkit)) { rej(new Error(`'${plotkit}' does not exist (run make)`)); return; }
    const child = spawn(plotkit, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); rej(new Error('the server did not start in time')); }, timeoutS * 1000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) { clearTimeout(timer); res({ child, url: m[1].replace(/\/$/, '') }); }
    });
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`the server exited with status ${code}: ${err.trim().split('\n').pop() || ''}`));
    });
  });
}

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// The CDP Performance domain's durations are seconds; counts are counts.
async function cdpMetrics(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
  return {
    style_recalc_ms: (m.RecalcStyleDuration ?? 0) * 1e3,
    layout_ms: (m.LayoutDuration ?? 0) * 1e3,
    script_ms: (m.ScriptDuration ?? 0) * 1e3,
    style_recalcs: m.RecalcStyleCount ?? 0,
    layouts: m.LayoutCount ?? 0,
    dom_nodes: m.Nodes ?? 0,
    js_heap_used_bytes: m.JSHeapUsedSize ?? 0,
  };
}

// Durations and counts add up over the page's life; sizes are as they are.
const CUMULATIVE = ['style_recalc_ms', 'layout_ms', 'script_ms', 'style_recalcs', 'layouts'];

function delta(after, before) {
  const d = { ...after };
  for (const k of CUMULATIVE) d[k] = after[k] - (before[k] ?? 0);
  return d;
}

function round6(x) {
  return Math.round(x * 1e6) / 1e6;
}

const STORIES = {
  // Navigation to the viewer ready: from the navigation's start (the
  // page's time origin) to the 'viewer-ready' mark after the first paint.
  boot: {
    fixture: 'viewer', floor: 20, viewport: { width: 1280, height: 800 },
    async run(page, cdp, url) {
      await page.goto(url + '/', { waitUntil: 'load' });
      await page.waitForFunction(() => document.documentElement.dataset.ready === '1');
      const ms = await page.evaluate(() => performance.getEntriesByName('viewer-ready')[0].startTime);
      return { duration_ms: ms, metrics: await cdpMetrics(cdp) };
    },
  },
  // The 8,000-circle preview on a large viewport: from the load click to
  // the 'preview-painted' mark (fetch, flatten on the server, preview,
  // into the document, painted).
  large_viewport: {
    fixture: 'dense-circles-8000', floor: 50, viewport: { width: 2560, height: 1600 },
    async run(page, cdp, url) {
      await page.goto(url + '/', { waitUntil: 'load' });
      await page.waitForFunction(() => document.documentElement.dataset.ready === '1');
      const before = await cdpMetrics(cdp);
      const last = await page.evaluate(() => window.plotkitViewer.loadDense());
      const ms = await page.evaluate(() => performance.getEntriesByName('preview')[0].duration);
      const m = delta(await cdpMetrics(cdp), before);
      return { duration_ms: ms, metrics: { shapes: last.shapes, paths: last.paths, points: last.points, ...m } };
    },
  },
};

async function fixtureChecksum(url, story) {
  const path = story.fixture === 'viewer' ? '/viewer.js' : '/fixtures/dense-circles.svg';
  const res = await fetch(url + path);
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  return createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex');
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const exe = findChromium(o.chromium);
  const { chromium } = await loadPlaywright();
  let server = null;
  let url = o.url;
  if (!url) {
    try {
      server = await startServer(o.plotkit, o.timeout);
    } catch (e) {
      fail(`cannot start 'plotkit serve': ${e.message}`);
    }
    url = server.url;
  }
  // launch() gives the browser a fresh, temporary user-data-dir of its own.
  let browser;
  try {
    browser = await chromium.launch({ executablePath: exe, args: FLAGS, timeout: o.timeout * 1000 });
  } catch (e) {
    server?.child.kill('SIGKILL');
    fail(`cannot start chromium '${exe}': ${e.message.split('\n')[0]}`);
  }
  const version = `Chromium ${browser.version()}`;
  const rows = [];
  let errors = 0;
  for (const name of o.stories) {
    const story = STORIES[name];
    let sum = null;
    try { sum = await fixtureChecksum(url, story); } catch (e) { /* recorded as null */ }
    for (let i = 0; i < o.warmup + o.repeat; i++) {
      const index = i - o.warmup;
      const context = await browser.newContext({ viewport: story.viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(o.timeout * 1000);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      let row;
      try {
        const r = await story.run(page, cdp, url);
        row = { outcome: 'success', duration_ms: round6(r.duration_ms), metrics: r.metrics, reason: null };
      } catch (e) {
        row = { outcome: 'error', duration_ms: null, metrics: {}, reason: e.message.split('\n')[0] };
      }
      await context.close();
      if (index < 0) continue; // warmup: no row
      if (row.outcome === 'error') errors++;
      for (const k of Object.keys(row.metrics)) row.metrics[k] = round6(row.metrics[k]);
      rows.push({
        workload: `browser.${name}`, workload_version: 1, fixture: story.fixture, fixture_checksum: sum,
        warning_floor_ms: story.floor, backend: 'chromium', kind: 'warm', index, ...row,
        env: { browser: version, viewport: `${story.viewport.width}x${story.viewport.height}` },
      });
      const tail = row.outcome === 'success' ? `${row.duration_ms.toFixed(1)} ms` : `error: ${row.reason}`;
      process.stderr.write(`${me}: browser.${name} #${index}: ${tail}\n`);
    }
  }
  await browser.close();
  server?.child.kill('SIGTERM');
  // Whole or nothing: a temporary sibling, then rename.
  const tmp = join(dirname(o.out), `.${basename(o.out)}.tmp.${process.pid}`);
  writeFileSync(tmp, rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''));
  renameSync(tmp, o.out);
  process.exit(errors ? 1 : 0);
}

main().catch((e) => fail(e.stack || String(e)));
