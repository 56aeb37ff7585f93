// dashboard.mjs: open a folder that `make dashboard` wrote in Debian's
// chromium (playwright-core) and say what a reader gets: console errors,
// every request that would leave the folder, the index's rows and small
// trends, and on each series page its charts, points and links; dialogs
// (the sign of a script injected into a page); whether anything overflows
// at a laptop's width and at 800 pixels; each chart's axes (from zero or a
// zoom that says so, the commits under the x axis) and each page's segment
// fields; the memory charts of a series (each metric's points, verdicts,
// axis and tick labels, as a reader sees them) and the memory columns of
// its table, and the index's heap peak trends and latest values;
// the index's first screen at 1280 x 800 (what changed recently, each
// series' status beside its name, any box that scrolls sideways); the
// colours of each page's series lines and points; screenshots of the
// index (its first screen, the whole page and print), of the first series
// page (series.png) and of every series page (series-N.png, in the index's
// order). Writes one JSON object on stdout for the test to check.
//
// usage: node test/browser/dashboard.mjs --dir DIR --shots DIR
//          [--chromium PATH]
// Exit status: 0 looked (whatever it saw), 2 no browser or bad arguments.

import { existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { pathToFileURL } from 'node:url';

function fail(msg) {
  process.stderr.write(`dashboard: ${msg}\n`);
  process.exit(2);
}

const o = { dir: null, shots: null, chromium: null };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const k = argv[i].replace(/^--/, '');
  if (!(k in o) || argv[i + 1] === undefined) fail(`bad argument '${argv[i]}'`);
  o[k] = argv[i + 1];
}
if (!o.dir || !o.shots) fail('--dir DIR and --shots DIR are required');
const exe = o.chromium ?? ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find(existsSync);
if (!exe || !existsSync(exe)) fail('chromium is not installed');
let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  fail('playwright-core is not installed');
}

const base = pathToFileURL(resolve(o.dir)).href + '/';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'];
const browser = await chromium.launch({ executablePath: exe, args: FLAGS, timeout: 60000 });
const seen = { console_errors: [], page_errors: [], requests: [], outside: [], dialogs: [] };
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (m) => { if (m.type() === 'error') seen.console_errors.push(m.text()); });
  page.on('pageerror', (e) => seen.page_errors.push(String(e)));
  page.on('dialog', (d) => { seen.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  // Every request is recorded; one that leaves the folder is refused.
  await page.route('**/*', (route) => {
    const u = route.request().url();
    seen.requests.push(u.startsWith(base) ? u.slice(base.length) : u);
    if (u.startsWith(base)) return route.continue();
    seen.outside.push(u);
    return route.abort();
  });
  await page.goto(base + 'index.html', { waitUntil: 'load' });
  Object.assign(seen, await page.evaluate(() => {
    const rows = [...document.querySelectorAll('tr.series')];
    const box = (e) => e.getBoundingClientRect();
    return {
      title: document.title,
      rows: rows.length,
      series: rows.map((r) => r.querySelector('td.name a').textContent + ' ' + r.dataset.backend),
      sparks: rows.map((r) => r.querySelectorAll('svg.spark.med').length),
      spark_points: rows.map((r) => { const s = r.querySelector('svg.spark.med'); return s ? Number(s.dataset.points) : null; }),
      spark_changes: rows.map((r) => { const s = r.querySelector('svg.spark.med'); return s ? Number(s.dataset.changes) : null; }),
      spark_zoom: rows.map((r) => [...r.querySelectorAll('svg.spark')].map((s) => Number(s.dataset.zoom))),
      differs: rows.map((r) => r.querySelector('.differs')?.textContent ?? null),
      instr_sparks: rows.map((r) => r.querySelectorAll('svg.spark.instr').length),
      heap_sparks: rows.map((r) => r.querySelectorAll('svg.spark.heap').length),
      heap_latest: rows.map((r) => r.querySelector('[data-metric="host_peak_bytes"]')?.textContent ?? null),
      spark_drawn: [...document.querySelectorAll('svg.spark')].every((s) =>
        box(s).width > 100 && box(s).height > 20 && (s.querySelector('polyline')?.getAttribute('points') ?? '').trim() !== ''),
      statuses: rows.map((r) => r.querySelector('[data-status]').dataset.status),
      pages: rows.map((r) => r.querySelector('td.name a').getAttribute('href')),
      overflow: document.documentElement.scrollWidth > window.innerWidth,
      scroll_width: document.documentElement.scrollWidth,
      inner_width: window.innerWidth,
      // Every box that scrolls sideways: wider inside than its client.
      scroll_boxes: [...document.querySelectorAll('body *')].filter((e) =>
        e.scrollWidth > e.clientWidth && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
        .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${e.scrollWidth}/${e.clientWidth}`),
      // Each series' status and name as the first screen shows them: the
      // status in the cell before the name's, on the same line of the
      // page, the gap between their words, both inside the window.
      first_screen: rows.map((r) => {
        const a = box(r.querySelector('td.name a'));
        const st = r.querySelector('[data-status]');
        const range = document.createRange();
        range.selectNodeContents(st);
        const b = range.getBoundingClientRect();
        return {
          status: st.textContent,
          next_cell: st.nextElementSibling === r.querySelector('td.name'),
          same_line: b.top < a.bottom && a.top < b.bottom,
          gap: Math.round(a.left - b.right),
          in_screen: a.top >= 0 && b.top >= 0 && Math.max(a.bottom, b.bottom) <= window.innerHeight &&
            Math.max(a.right, b.right) <= window.innerWidth,
        };
      }),
      segment_words: rows.map((r) => r.querySelector('.segw')?.textContent ?? null),
      segment_titles: rows.map((r) => r.querySelector('.segw')?.getAttribute('title') ?? null),
      recent: [...document.querySelectorAll('tr.recent')].map((r) => ({
        kind: r.dataset.kind, size: r.cells[0].textContent,
        series: r.cells[1].querySelector('a').textContent,
        in_screen: box(r).bottom <= window.innerHeight,
      })),
      recent_count: Number(document.querySelector('section.recent')?.dataset.recent ?? -1),
      intro_words: document.querySelector('p.sub').textContent.trim().split(/\s+/).length,
    };
  }));
  await page.screenshot({ path: join(o.shots, 'index-first-screen.png') });
  await page.screenshot({ path: join(o.shots, 'index.png'), fullPage: true });
  await page.setViewportSize({ width: 800, height: 900 });
  seen.overflow_narrow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  await page.emulateMedia({ media: 'print' });
  await page.screenshot({ path: join(o.shots, 'index-print.png'), fullPage: true });
  await page.emulateMedia({ media: 'screen' });
  await page.setViewportSize({ width: 1280, height: 800 });
  seen.series_pages = [];
  for (const [i, href] of seen.pages.entries()) {
    await page.goto(base + href, { waitUntil: 'load' });
    seen.series_pages.push(await page.evaluate(() => {
      const box = (e) => e.getBoundingClientRect();
      const med = [...document.querySelectorAll('svg.trend:not(.instr):not(.mem)')];
      const all = [...document.querySelectorAll('svg.trend')];
      const text = (e) => e.textContent.trim();
      return {
        title: document.querySelector('h1').textContent,
        kind: document.querySelector('[data-kind]')?.dataset.kind ?? null,
        sections: [...document.querySelectorAll('section h2')].map(text),
        charts: med.length,
        instr_charts: document.querySelectorAll('svg.trend.instr').length,
        points: med.map((s) => s.querySelectorAll('circle.pt').length),
        p90_lines: med.map((s) => s.querySelectorAll('polyline.p90').length),
        change_lines: med.map((s) => s.querySelectorAll('line.cut').length),
        drawn: all.every((s) => box(s).width > 600 && box(s).height > 150),
        point_links: [...document.querySelectorAll('svg.trend:not(.instr):not(.mem) a:has(circle)')].map((a) => a.getAttribute('href')),
        // Each memory chart as a reader sees it: the metric, the points
        // (those of a warning), the axis and its labels, each point's
        // title; then the table's memory cells, newest run first.
        mem_charts: [...document.querySelectorAll('svg.trend.mem')].map((s) => ({
          metric: s.dataset.metric,
          points: s.querySelectorAll('circle.mpt').length,
          warnings: s.querySelectorAll('circle.mpt.wrn').length,
          changes: s.querySelectorAll('line.cut').length,
          zoom: Number(s.dataset.zoom),
          zoom_words: s.querySelector('text.zoom') ? text(s.querySelector('text.zoom')) : null,
          unit: [...s.querySelectorAll('text.tick[text-anchor="end"]')].map(text).filter((t) => /^[a-z]+$/.test(t)),
          ticks: [...s.querySelectorAll('text.tick[text-anchor="end"]')].map(text).filter((t) => /^[-0-9,.]+$/.test(t)),
          titles: [...s.querySelectorAll('circle.mpt title')].map(text),
          drawn: box(s).width > 600 && box(s).height > 150,
        })),
        mem_cells: Object.fromEntries([...new Set([...document.querySelectorAll('tbody td[data-metric]')].map((t) => t.dataset.metric))].map((m) =>
          [m, [...document.querySelectorAll(`tbody td[data-metric="${m}"]`)].map(text)])),
        // Each chart's y axis: from zero or a zoom (the words the chart
        // shows, a break in its axis), and its lowest tick's label.
        zoom: all.map((s) => Number(s.dataset.zoom)),
        zoom_words: all.map((s) => { const z = s.querySelector('text.zoom'); return z ? text(z) : null; }),
        zoom_breaks: all.map((s) => s.querySelectorAll('path.brk').length),
        y_lowest: all.map((s) => { const t = [...s.querySelectorAll('text.tick[text-anchor="end"]')].filter((e) => /^[-0-9.]+[kMG]?$/.test(text(e))); return t.length ? text(t[0]) : null; }),
        // The x axis: a commit under each labelled run, linked.
        x_labels: all.map((s) => [...s.querySelectorAll('text.xc')].map(text)),
        x_links: all.map((s) => [...s.querySelectorAll('g.xaxis a')].map((a) => a.getAttribute('href'))),
        x_drawn: all.every((s) => [...s.querySelectorAll('text.xc')].every((t) => box(t).width > 20)),
        // Each label under the x axis whole: its commit and the line that
        // tells the runs of one commit apart, where there is one.
        x_runs: all.map((s) => [...s.querySelectorAll('text.xc')].map((t) => {
          const r = [...s.querySelectorAll('text.xr')].find((e) => e.getAttribute('x') === t.getAttribute('x'));
          return r ? `${text(t)} ${text(r)}` : text(t);
        })),
        // The colours a series is drawn in: its lines, and its points that
        // no verdict colours.
        series_colours: [...new Set([
          ...[...document.querySelectorAll('polyline')].map((e) => getComputedStyle(e).stroke),
          ...[...document.querySelectorAll('circle.pt, circle.ipt, circle.mpt')]
            .filter((e) => !/\b(imp|wrn|uns|err)\b/.test(e.getAttribute('class')))
            .map((e) => getComputedStyle(e).fill)])],
        header: [...document.querySelectorAll('thead th')].map(text),
        segment_fields: [...document.querySelectorAll('dl.seg dt')].map(text),
        segment_marked: [...document.querySelectorAll('dl.seg dt.d')].map(text),
        told_by: document.querySelector('p.differs b')?.textContent ?? null,
        siblings: [...document.querySelectorAll('li.sibling')].map(text),
        sibling_ids: [...document.querySelectorAll('li.sibling .segid')].map((e) => e.getAttribute('title')),
        title_id: document.querySelector('h1 .segid')?.getAttribute('title') ?? null,
        sibling_links: [...document.querySelectorAll('li.sibling a')].map((a) => a.getAttribute('href')),
        table_rows: document.querySelectorAll('tbody tr').length,
        back: document.querySelector('nav a').getAttribute('href'),
        overflow: document.documentElement.scrollWidth > window.innerWidth,
      };
    }));
    if (i === 0) await page.screenshot({ path: join(o.shots, 'series.png'), fullPage: true });
    await page.screenshot({ path: join(o.shots, `series-${i + 1}.png`), fullPage: true });
  }
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(seen) + '\n');
