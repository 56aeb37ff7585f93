// flame.mjs: open a report.html with differential flame graphs in Debian's
// chromium (playwright-core) and say what a reader gets: console errors,
// requests, each flame graph's frames by kind with their boxes and hover
// titles, overflow at a laptop's width, and screenshots on screen and as
// printed. Writes one JSON object on stdout.
//
// usage: node test/browser/flame.mjs --html FILE --shots DIR [--chromium PATH]
// Exit status: 0 looked, 2 no browser or bad arguments.

import { existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { pathToFileURL } from 'node:url';

function fail(msg) {
  process.stderr.write(`flame: ${msg}\n`);
  process.exit(2);
}

const o = { html: null, shots: null, chromium: null };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const k = argv[i].replace(/^--/, '');
  if (!(k in o) || argv[i + 1] === undefined) fail(`bad argument '${argv[i]}'`);
  o[k] = argv[i + 1];
}
if (!o.html || !o.shots) fail('--html FILE and --shots DIR are required');
const exe = o.chromium ?? ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find(existsSync);
if (!exe || !existsSync(exe)) fail('chromium is not installed');
let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  fail('playwright-core is not installed');
}

const url = pathToFileURL(resolve(o.html)).href;
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'];
const browser = await chromium.launch({ executablePath: exe, args: FLAGS, timeout: 60000 });
const seen = { console_errors: [], page_errors: [], requests: [] };
try {
  // A laptop: 1366 pixels wide.
  const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
  page.on('console', (m) => { if (m.type() === 'error') seen.console_errors.push(m.text()); });
  page.on('pageerror', (e) => seen.page_errors.push(String(e)));
  await page.route('**/*', (route) => {
    const u = route.request().url();
    seen.requests.push(u);
    return u === url ? route.continue() : route.abort();
  });
  await page.goto(url, { waitUntil: 'load' });
  Object.assign(seen, await page.evaluate(() => {
    const graphs = [...document.querySelectorAll('svg.flame')];
    const frame = (g) => {
      const r = g.querySelector('rect').getBoundingClientRect();
      const t = g.querySelector('text');
      return {
        title: g.querySelector('title').textContent,
        label: t ? t.textContent : null,
        width: r.width,
        height: r.height,
        fill: getComputedStyle(g.querySelector('rect')).fill,
      };
    };
    return {
      graphs: graphs.length,
      flames: graphs.map((s) => ({
        width: s.getBoundingClientRect().width,
        height: s.getBoundingClientRect().height,
        more: [...s.querySelectorAll('g.frame.more')].map(frame),
        less: [...s.querySelectorAll('g.frame.less')].map(frame),
        new: [...s.querySelectorAll('g.frame.new')].map(frame),
        same: s.querySelectorAll('g.frame.same').length,
        label_px: (() => {
          const t = s.querySelector('g.frame text');
          return t ? parseFloat(getComputedStyle(t).fontSize) *
            s.getBoundingClientRect().width / s.viewBox.baseVal.width : 0;
        })(),
      })),
      why_rows: [...document.querySelectorAll('table.why-fns')].map((t) =>
        [...t.querySelectorAll('tr')].slice(1).map((r) => r.cells[0].textContent)),
      overflow: document.documentElement.scrollWidth > window.innerWidth,
    };
  }));
  const g = page.locator('svg.flame g.frame.more').first();
  if (await g.count()) {
    await g.hover();
  }
  await page.locator('svg.flame').first().screenshot({ path: join(o.shots, 'flame.png') });
  await page.emulateMedia({ media: 'print' });
  seen.print_width = await page.evaluate(() =>
    document.querySelector('svg.flame')?.getBoundingClientRect().width ?? 0);
  await page.screenshot({ path: join(o.shots, 'flame-print.png'), fullPage: true });
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(seen) + '\n');
