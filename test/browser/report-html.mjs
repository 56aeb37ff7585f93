// report-html.mjs: open a report.html of prof-report in Debian's chromium
// (playwright-core, as the browser stories do) and say what a reader gets:
// console errors, every request the page made, the rows and charts, the
// filter buttons at work; screenshots at a laptop's width (its first
// screen, the whole page, the first block) and one as printed; every
// dialog a script opened (alert, confirm, prompt: the sign of a script
// injected into the page). Writes one JSON object on stdout
// for the test to check.
//
// usage: node test/browser/report-html.mjs --html FILE --shots DIR
//          [--chromium PATH]
// Exit status: 0 looked (whatever it saw), 2 no browser or bad arguments.

import { existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { pathToFileURL } from 'node:url';

function fail(msg) {
  process.stderr.write(`report-html: ${msg}\n`);
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
const seen = { console_errors: [], page_errors: [], requests: [], dialogs: [] };
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (m) => { if (m.type() === 'error') seen.console_errors.push(m.text()); });
  page.on('pageerror', (e) => seen.page_errors.push(String(e)));
  page.on('dialog', (d) => { seen.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  // Every request is recorded; anything but the page itself is refused,
  // so a page that needed the network would show it.
  await page.route('**/*', (route) => {
    const u = route.request().url();
    seen.requests.push(u);
    return u === url ? route.continue() : route.abort();
  });
  await page.goto(url, { waitUntil: 'load' });
  Object.assign(seen, await page.evaluate(() => {
    const rows = [...document.querySelectorAll('section.row')];
    const box = (e) => e.getBoundingClientRect();
    return {
      title: document.title,
      rows: rows.length,
      workloads: [...new Set(rows.map((r) => r.dataset.workload))].length,
      charts: document.querySelectorAll('figure.chart').length,
      charts_per_row: rows.map((r) => r.querySelectorAll('figure.chart').length),
      trends: document.querySelectorAll('figure.trend').length,
      trend_runs: [...document.querySelectorAll('figure.trend')].map((f) => Number(f.dataset.runs)),
      change_marks: document.querySelectorAll('figure.trend line.cut').length,
      dots: document.querySelectorAll('figure.chart circle.cur').length,
      drawn: [...document.querySelectorAll('figure svg')].every((s) => box(s).width > 300 && box(s).height > 40),
      overflow: document.documentElement.scrollWidth > window.innerWidth,
      scroll_width: document.documentElement.scrollWidth,
      inner_width: window.innerWidth,
      // Tables wider than what holds them (the overview in the body, a
      // block's numbers in their channel), and number cells whose text
      // takes more than one line (a p-value as "1.45e-" over "11"); the
      // gloss a few cells add after their number may wrap.
      tables_outside: [...document.querySelectorAll('table')].filter((t) => {
        const p = t.parentElement;
        const cs = getComputedStyle(p);
        const inner = box(p).right - parseFloat(cs.paddingRight) - parseFloat(cs.borderRightWidth);
        return box(t).right > inner + 0.5;
      }).map((t) => t.className),
      wrapped_numbers: [...document.querySelectorAll('td.num')].filter((td) => {
        const r = document.createRange();
        const first = [...td.childNodes].filter((n) => !(n.classList && n.classList.contains('gloss')));
        if (!first.length) return false;
        r.setStartBefore(first[0]);
        r.setEndAfter(first[first.length - 1]);
        return new Set([...r.getClientRects()].map((q) => Math.round(q.top))).size > 1;
      }).map((td) => td.textContent),
      statuses: rows.map((r) => r.dataset.status),
      links: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')).filter((h) => !h.startsWith('#')),
      // Each block's channels (time, instructions) as a reader gets them:
      // its text with the charts' hover titles, its figures, the
      // baseline's count marker and where it stands against the current
      // dots, the disagreement line.
      blocks: rows.map((r) => ({
        workload: r.dataset.workload,
        status: r.dataset.status,
        disagree: r.querySelector('p.disagree')?.textContent ?? null,
        disagrees: [...r.querySelectorAll('p.disagree')].map((p) => p.textContent),
        channels: [...r.querySelectorAll('.channel')].map((c) => {
          const mark = c.querySelector('g.base-mark');
          const dots = [...c.querySelectorAll('circle.cur')].map((d) => box(d).x + box(d).width / 2);
          return {
            kind: c.dataset.channel,
            status: c.dataset.status,
            badge: c.querySelector('.badge')?.textContent ?? null,
            text: c.textContent,
            figures: [...c.querySelectorAll('figure')].map((f) => f.dataset.kind),
            captions: [...c.querySelectorAll('figcaption')].map((f) => f.textContent),
            mark: mark && {
              title: mark.querySelector('title').textContent,
              x: box(mark.querySelector('path')).x + box(mark.querySelector('path')).width / 2,
              width: box(mark.querySelector('path')).width,
            },
            dots,
            svg_width: c.querySelector('figure svg') ? box(c.querySelector('figure svg')).width : 0,
            // The distribution chart's dots by class (cur, base: wall
            // time; cur-cpu, base-cpu: CPU time; cur-own, base-own: the
            // code's own time), the time its verdict judged and the
            // shaded band that marks it, and its table's rows as shown.
            dots_by_class: [...c.querySelectorAll('figure.chart circle')].reduce((o, d) => {
              o[d.getAttribute('class')] = (o[d.getAttribute('class')] ?? 0) + 1;
              return o;
            }, {}),
            judged: c.querySelector('figure.chart')?.dataset.judged ?? null,
            judged_band: c.querySelector('figure.chart rect.judged-band') ? box(c.querySelector('figure.chart rect.judged-band')).height : 0,
            table: [...c.querySelectorAll('table.nums tr')].map((tr) => [...tr.cells].map((td) => td.textContent)),
            judged_rows: [...c.querySelectorAll('table.nums tr.judged')].map((tr) => tr.cells[0].textContent),
            // A memory channel's table: each metric's cells as shown.
            metrics: [...c.querySelectorAll('tr[data-metric]')].map((tr) => ({
              metric: tr.dataset.metric,
              cells: [...tr.cells].map((td) => td.textContent),
            })),
            reasons: [...c.querySelectorAll('p.reason')].map((p) => p.textContent),
          };
        }),
      })),
    };
  }));
  await page.screenshot({ path: join(o.shots, 'screen.png') });
  await page.screenshot({ path: join(o.shots, 'report.png'), fullPage: true });
  await page.locator('section.row').first().screenshot({ path: join(o.shots, 'row.png') });
  // The filter: "warnings" leaves only warning rows visible.
  await page.click('nav.filter button[data-show="warning"]');
  seen.visible_after_filter = await page.evaluate(() =>
    [...document.querySelectorAll('section.row')].filter((r) => !r.hidden).map((r) => r.dataset.status));
  await page.click('nav.filter button[data-show="all"]');
  await page.setViewportSize({ width: 800, height: 900 });
  seen.overflow_narrow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  await page.emulateMedia({ media: 'print' });
  await page.screenshot({ path: join(o.shots, 'report-print.png'), fullPage: true });
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(seen) + '\n');
