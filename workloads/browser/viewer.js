/* viewer.js: upload or load an SVG, flatten it on the server, draw the
 * preview, and mark with performance.mark when it has really painted. */
'use strict';

(function () {
  const status = document.getElementById('status');
  const stats = document.getElementById('stats');
  const preview = document.getElementById('preview');

  /* Painted for real: the SVG is in the document, one animation frame has
   * run (style, layout and paint are scheduled), and a task after it
   * (the frame has been produced). First contentful paint fires before
   * the preview exists, so it measures nothing here. */
  function afterPaint() {
    return new Promise((resolve) => {
      requestAnimationFrame(() => setTimeout(resolve, 0));
    });
  }

  async function check(res) {
    if (!res.ok) {
      const text = await res.text();
      throw new Error(res.status + ' ' + text.trim());
    }
    return res;
  }

  async function show(svgText) {
    performance.mark('preview-start');
    status.textContent = 'flattening…';
    const flat = await (await check(await fetch('/api/flatten', {
      method: 'POST', headers: { 'Content-Type': 'image/svg+xml' }, body: svgText,
    }))).json();
    const pre = await (await check(await fetch('/api/preview.svg'))).text();
    preview.innerHTML = pre;
    const shapes = preview.querySelectorAll('polyline, path, circle, line').length;
    stats.textContent = flat.paths + ' paths, ' + flat.points + ' points, ' +
      flat.length_mm.toFixed(1) + ' mm of pen-down travel';
    await afterPaint();
    performance.mark('preview-painted');
    performance.measure('preview', 'preview-start', 'preview-painted');
    status.textContent = 'painted ' + shapes + ' shapes';
    window.plotkitViewer.last = { shapes, paths: flat.paths, points: flat.points };
    return window.plotkitViewer.last;
  }

  async function loadDense() {
    const res = await check(await fetch('/fixtures/dense-circles.svg'));
    return show(await res.text());
  }

  document.getElementById('load-dense').addEventListener('click', () => {
    loadDense().catch((e) => { status.textContent = 'error: ' + e.message; });
  });
  document.getElementById('upload').addEventListener('change', (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    file.text().then(show).catch((e) => { status.textContent = 'error: ' + e.message; });
  });

  window.plotkitViewer = { loadDense, show, last: null };
  afterPaint().then(() => {
    performance.mark('viewer-ready');
    document.documentElement.dataset.ready = '1';
  });
})();
