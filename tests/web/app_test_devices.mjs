// The browser app on the screens a class holds, with touch (Chromium's device modes, SwiftShader):
// a phone in portrait (390×844 CSS px at devicePixelRatio 2), the same phone in landscape (844×390) and a
// portrait tablet (820×1180): the layout of each (the report's form, the heatmap's size in CSS pixels, the
// menus folded on the phone), a tap on three heatmap cells selects each one's statistic, a long press
// clears; on the phone a pinch with two touch points (the second landing frames after the first) zooms the
// heatmap about the fingers without selecting anything, the zoomed picture shows at each point what the
// unzoomed one showed at the image point the zoom maps there, a tap on the zoomed heatmap selects the
// element under the finger, a double tap shows the whole tensor again; a lesson chosen from the menu by
// taps (rows a finger's height, no lesson chosen by the lift that opened the Lessons submenu, the menus
// and the status line inside the screen) opens with its ▶ button inside the canvas and a tap on ▶ goes
// on; and an idle page: no frame drawn and its main thread under 5 % of a core.
// Usage: node app_test_devices.mjs [SCREENSHOT_DIR]
import { serve, launch } from './browser.mjs';
import { problems, check, shots, report, frames, settle, screenshot, checkHeatmap, pixel, hex } from './app_page.mjs';

// Opens app.html as the device shows it and waits for the first frame.
async function openDevice(browser, url, width, height) {
  const page = await browser.newPage();
  const log = [];
  page.on('console', (m) => log.push(`${m.type()}: ${m.text()}`));
  await page.setViewport({ width, height, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  await page.goto(url + 'app.html', { waitUntil: 'load' });
  await page.waitForFunction(() => document.body.getAttribute('data-normlab-state') !== 'loading',
    { timeout: 90000, polling: 50 });
  const state = await page.evaluate(() => document.body.getAttribute('data-normlab-state'));
  if (state !== 'done') throw new Error(`app.html at ${width}×${height} ended in state ${state}:\n${log.join('\n')}`);
  await settle(page);
  return page;
}

// Waits until the report satisfies `ok` (frames are drawn only on change: a tap wakes them).
async function reportWhen(page, ok, timeoutMs = 20000) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    const r = await report(page);
    if (ok(r)) return r;
    await new Promise((done) => setTimeout(done, 100));
  }
  return report(page);
}

// A tap on each of the report's three probe cells selects its statistic.
async function tapCells(page, what) {
  let r = await report(page);
  let selected = 0;
  for (const p of r.probes) {
    const x = (p.at[0] + r.cell * 0.5) / r.css_scale, y = (p.at[1] + r.cell * 0.5) / r.css_scale;
    await page.touchscreen.tap(x, y);
    r = await reportWhen(page, (r) => r.selected_stat === p.stat);
    if (r.selected_stat === p.stat) ++selected;
  }
  console.log(`${what}: ${selected} of ${r.probes.length} taps selected their cell's statistic`);
  check(selected === r.probes.length, `${what}: only ${selected} of ${r.probes.length} taps selected a statistic`);
  return r;
}

// A finger held on a cell for a second: a right click, the selection cleared.
async function longPress(page, r, what) {
  const p = r.probes[0];
  const handle = await page.touchscreen.touchStart((p.at[0] + r.cell * 0.5) / r.css_scale,
    (p.at[1] + r.cell * 0.5) / r.css_scale);
  await new Promise((done) => setTimeout(done, 1000));
  await handle.end();
  r = await reportWhen(page, (r) => r.selected_stat === -1);
  check(r.selected_stat === -1, `${what}: a long press left statistic ${r.selected_stat} selected`);
}

// The row `k` of `rows` of the popup rectangle [x, y, w, h], tapped near its left.
const tapRow = (page, [x, y, w, h], k, rows) => page.touchscreen.tap(x + Math.min(40, w / 3),
  y + 8 + ((h - 16) / rows) * (k + 0.5));

// Two fingers on the heatmap as CDP touch points: the second lands a few frames after the first, both
// spread apart about the heatmap's middle and lift; returns the report once the zoom is drawn.
async function pinch(page, r) {
  const [x, y, w, h] = r.heatmap_rect;
  const cx = x + w / 2, cy = y + h / 2;
  const cdp = await page.target().createCDPSession();
  const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', {
    type, touchPoints: points.map(([px, py], id) => ({ x: px, y: py, id, radiusX: 2, radiusY: 2, force: 1 })),
  });
  // The second finger lands 150 ms after the first: the first one's press has reached ImGui (a frame for
  // the pointer, one for the press), and it is not yet a long press (half a second).
  await touch('touchStart', [[cx - 25, cy - 10]]);
  await new Promise((done) => setTimeout(done, 150));
  await touch('touchStart', [[cx - 25, cy - 10], [cx + 25, cy + 10]]);
  for (let k = 1; k <= 12; ++k) {
    const d = 1 + 0.25 * k;  // the fingers 2.5 times farther apart by the end, about the same middle
    await touch('touchMove', [[cx - 25 * d, cy - 10 * d], [cx + 25 * d, cy + 10 * d]]);
    await frames(page, 1);
  }
  await touch('touchEnd', []);
  await cdp.detach();
  return reportWhen(page, (r) => r.heatmap_zoom > 1.5);
}

// The phone's heatmap zoomed by a pinch, checked against the unzoomed picture, tapped, and reset.
async function zoomed(page, what) {
  let r = await report(page);
  const [x, y, w, h] = r.heatmap_rect;
  await page.touchscreen.tap(x + 10, y + h + 60);  // the pointer off the heatmap: no tooltip over it
  await settle(page);
  const flat = await screenshot(page, `${what}-before-pinch.png`);
  r = await pinch(page, r);
  await settle(page);
  r = await report(page);
  const zoomedShot = await screenshot(page, `${what}-pinched.png`);
  const [hx, hy, hw, hh] = r.heatmap_rect_px;
  console.log(`${what}: pinch to zoom ${r.heatmap_zoom.toFixed(2)}, pan ${r.heatmap_pan.map(Math.round)}, ` +
    `fill ${r.heatmap_fill.join('×')} px in a ${Math.round(hw)}×${Math.round(hh)} px place, ` +
    `selected statistic ${r.selected_stat}`);
  check(r.heatmap_zoom > 1.5, `${what}: a pinch left the zoom at ${r.heatmap_zoom}`);
  check(r.selected_stat === -1, `${what}: the pinch selected statistic ${r.selected_stat}`);
  check(r.heatmap_fill[0] <= hw + 1 && r.heatmap_fill[1] <= hh + 1,
    `${what}: the zoomed fill is ${r.heatmap_fill.join('×')} px, larger than its place ${hw}×${hh}`);
  // The element at the middle: the zoomed picture shows there what the unzoomed one showed at the image
  // point the zoom maps there (image point = (screen − origin − pan) / zoom).
  const m = r.middle_probe;
  check(m !== null, `${what}: no element at the middle of the zoomed heatmap`);
  if (!m) return;
  const p = [m.at[0] + r.cell / 2, m.at[1] + r.cell / 2];
  const q = [hx + (p[0] - hx - r.heatmap_pan[0]) / r.heatmap_zoom, hy + (p[1] - hy - r.heatmap_pan[1]) / r.heatmap_zoom];
  const [a, b] = [pixel(zoomedShot, p), pixel(flat, q)];
  console.log(`${what}: zoomed ${hex(a)} at ${p.map(Math.round)}, unzoomed ${hex(b)} at ${q.map(Math.round)}; ` +
    `cell ${r.cell.toFixed(1)} px`);
  check(a === b, `${what}: the zoomed heatmap shows ${hex(a)} at ${p.map(Math.round)}, the unzoomed one ` +
    `${hex(b)} at the same image point ${q.map(Math.round)}`);
  // A tap on that element selects its statistic; a double tap shows the whole tensor again.
  await page.touchscreen.tap(p[0] / r.css_scale, p[1] / r.css_scale);
  r = await reportWhen(page, (r) => r.selected_stat === m.stat);
  check(r.selected_stat === m.stat, `${what}: a tap on the zoomed element selected ${r.selected_stat}, want ${m.stat}`);
  check(r.heatmap_zoom > 1.5, `${what}: a tap changed the zoom to ${r.heatmap_zoom}`);
  await screenshot(page, `${what}-zoomed-tapped.png`);
  await new Promise((done) => setTimeout(done, 500));  // not a double tap with the tap before
  await page.touchscreen.tap(p[0] / r.css_scale, p[1] / r.css_scale);
  await new Promise((done) => setTimeout(done, 60));
  await page.touchscreen.tap(p[0] / r.css_scale, p[1] / r.css_scale);
  r = await reportWhen(page, (r) => r.heatmap_zoom === 1);
  console.log(`${what}: a double tap: zoom ${r.heatmap_zoom}`);
  check(r.heatmap_zoom === 1, `${what}: a double tap left the zoom at ${r.heatmap_zoom}`);
}

// A lesson by taps: Menu (when the menus are folded), Lessons, the first lesson; the menus' rows a
// finger's height, no lesson chosen by the lift that opened the Lessons menu, the menus on the screen;
// the lesson's ▶ inside the screen, a tap on it goes on.
async function lessonByTaps(page, r, what, [sw, sh]) {
  // `count` popups open and laid out: ImGui draws a new popup's first frame before it has sized it.
  const opened = (count) => (r) => r.popups.length === count && r.popups.every((p) => p[2] > 20 && p[3] > 20);
  const inside = (p) => p && p[0] >= -0.5 && p[1] >= -0.5 && p[0] + p[2] <= sw + 0.5 && p[1] + p[3] <= sh + 0.5;
  const folded = r.menus_folded;
  await page.touchscreen.tap((folded ? r.menus.file : r.menus.lessons) / r.css_scale + 20, r.menu_bar_h / r.css_scale / 2);
  r = await reportWhen(page, opened(1));
  await screenshot(page, `${what}-menu.png`);
  const row = r.menu_row_h;
  console.log(`${what}: ${folded ? 'the folded menu' : 'the Lessons menu'} ${r.popups[0] && r.popups[0].map(Math.round)} ` +
    `CSS px, rows ${row.toFixed(1)} px apart`);
  check(row >= 39.5, `${what}: the menus' rows are ${row.toFixed(1)} CSS px apart (a finger needs 40)`);
  check(inside(r.popups[0]), `${what}: the menu ${r.popups[0]} leaves the screen`);
  if (folded) {  // File, View, Language, Lessons, Experiments, Help
    if (r.popups[0]) await tapRow(page, r.popups[0], 3, 6);
    r = await reportWhen(page, opened(2));
  }
  await frames(page, 6);
  r = await report(page);
  await screenshot(page, `${what}-lessons-menu.png`);
  check(r.lesson === '' || r.lesson === null, `${what}: the lift that opened the Lessons menu chose "${r.lesson}"`);
  const lessons = r.popups[folded ? 1 : 0];
  check(inside(lessons), `${what}: the Lessons menu ${lessons} leaves the screen`);
  if (lessons) await page.touchscreen.tap(lessons[0] + Math.min(40, lessons[2] / 3), lessons[1] + 8 + row / 2);
  r = await reportWhen(page, (r) => r.lesson !== '' && r.lesson !== null && r.popups.length === 0);
  const [nx, ny, nw, nh] = r.lesson_next;
  console.log(`${what} lesson ${r.lesson} step ${r.step}: tab ${r.phone_tab}, ▶ at ${r.lesson_next.map(Math.round)} CSS px, ` +
    `status line ${r.status_overflow.toFixed(1)} px past its window`);
  check(r.lesson === 'bn-vs-ln' && r.step === 1, `${what}: the tapped lesson is "${r.lesson}" step ${r.step}`);
  check(nx >= 0 && ny >= 0 && nx + nw <= sw && ny + nh <= sh, `${what}: the lesson's ▶ at ${r.lesson_next} is off the screen`);
  check(nh >= 39, `${what}: the lesson's ▶ is ${nh} CSS px high (a finger needs 40)`);
  check(r.status_overflow <= 0.5, `${what}: the status line reaches ${r.status_overflow} CSS px past the screen`);
  await screenshot(page, `${what}-lesson.png`);
  await page.touchscreen.tap(nx + nw / 2, ny + nh / 2);
  r = await reportWhen(page, (r) => r.step === 2);
  check(r.step === 2, `${what}: a tap on ▶ left the lesson at step ${r.step}`);
  await screenshot(page, `${what}-lesson-step2.png`);
}

async function phone(browser, url) {
  const page = await openDevice(browser, url, 390, 844);
  let r = await report(page);
  const [, , hw, hh] = r.heatmap_rect;
  console.log(`phone 390×844: form ${r.form}, menus folded ${r.menus_folded}, heatmap ${r.heatmap_rect.map(Math.round)} ` +
    `CSS px (${Math.round((hw / 390) * 100)} % of the width), canvas ${r.canvas.join('×')}`);
  check(r.form === 'phone' && r.menus_folded, `a phone got the ${r.form} layout (menus folded: ${r.menus_folded})`);
  check(hw >= 0.6 * 390 && hh >= 150, `on a phone the heatmap is ${Math.round(hw)}×${Math.round(hh)} CSS px`);
  checkHeatmap(await screenshot(page, 'phone.png'), r, 'phone');
  r = await tapCells(page, 'phone');
  await screenshot(page, 'phone-tapped.png');
  await longPress(page, r, 'phone');
  await zoomed(page, 'phone');
  await longPress(page, await report(page), 'phone');
  await lessonByTaps(page, await report(page), 'phone', [390, 844]);
  await page.close();
}

// The phone turned: the heatmap on the left, the tabs on the right, the menus and ▶ still on the screen.
async function landscape(browser, url) {
  const page = await openDevice(browser, url, 844, 390);
  let r = await report(page);
  console.log(`phone 844×390: form ${r.form}, menus folded ${r.menus_folded}, heatmap ${r.heatmap_rect.map(Math.round)} CSS px`);
  check(r.form === 'phone', `a landscape phone got the ${r.form} layout`);
  check(r.heatmap_rect[0] < 20 && r.heatmap_rect[0] + r.heatmap_rect[2] <= 0.62 * 844,
    `a landscape phone's heatmap is at ${r.heatmap_rect.map(Math.round)}, not on the left`);
  checkHeatmap(await screenshot(page, 'landscape.png'), r, 'landscape');
  r = await tapCells(page, 'landscape');
  await longPress(page, r, 'landscape');
  await lessonByTaps(page, await report(page), 'landscape', [844, 390]);
  await page.close();
}

async function tablet(browser, url) {
  const page = await openDevice(browser, url, 820, 1180);
  let r = await report(page);
  console.log(`tablet 820×1180: form ${r.form}, heatmap ${r.heatmap_rect.map(Math.round)} CSS px`);
  check(r.form === 'tablet' && !r.menus_folded, `a portrait tablet got the ${r.form} layout`);
  check(r.heatmap_rect[3] >= 200, `on a tablet the heatmap is ${Math.round(r.heatmap_rect[3])} CSS px high`);
  checkHeatmap(await screenshot(page, 'tablet.png'), r, 'tablet');
  await tapCells(page, 'tablet');
  await screenshot(page, 'tablet-tapped.png');
  await page.close();
}

// An idle laptop page: no frame drawn in 3 s and the renderer's main thread under 5 % of a core.
async function idle(browser, url) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800, deviceScaleFactor: 1 });
  await page.goto(url + 'app.html', { waitUntil: 'load' });
  await page.waitForFunction(() => document.body.getAttribute('data-normlab-state') === 'done', { timeout: 90000 });
  await settle(page);
  await new Promise((done) => setTimeout(done, 1000));
  const cdp = await page.target().createCDPSession();
  await cdp.send('Performance.enable');
  const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const drawn = () => page.evaluate(() => window.normlabFrames);
  const frame0 = await drawn(), t0 = await busy();
  await new Promise((done) => setTimeout(done, 3000));
  const frame1 = await drawn(), share = ((await busy()) - t0) / 3;
  console.log(`idle page: ${frame1 - frame0} frames in 3 s, main thread ${(share * 100).toFixed(2)} % of a core`);
  check(frame1 === frame0, `an idle page drew ${frame1 - frame0} frames in 3 s`);
  check(share < 0.05, `an idle page's main thread was busy ${(share * 100).toFixed(1)} % of the time`);
  await page.mouse.move(600, 400);
  await page.mouse.move(620, 420);
  await frames(page, 6);
  const frame2 = await drawn();
  console.log(`a mouse move: ${frame2 - frame1} frames`);
  check(frame2 > frame1, 'a mouse move over the idle page drew no frame');
  await frames(page);
  await page.close();
}

async function main() {
  const started = Date.now();
  const { server, url } = await serve();
  try {
    const { browser, close } = await launch();
    try {
      await phone(browser, url);
      await landscape(browser, url);
      await tablet(browser, url);
      await idle(browser, url);
    } finally {
      await close();
    }
  } finally {
    server.close();
  }
  console.log(`screenshots in ${shots}`);
  console.log(`devices: ${problems.length ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const p of problems) console.log('  ' + p);
  process.exit(problems.length ? 1 : 0);
}

main().catch((e) => {
  console.error(`web devices test failed: ${e.stack || e}`);
  process.exit(1);
});
