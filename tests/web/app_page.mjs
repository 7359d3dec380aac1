// The web app test's helpers (app_test.mjs, app_test_classroom.mjs): opening app.html, the page's
// report, frames and settling, screenshots and their colours, the heatmap's and a blank page's checks,
// the menu bar, pasted scenes and clipboard text, downloads; the problems found so far and the folder
// the screenshots go to (the test's first argument, else a temporary folder).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodePng } from './png.mjs';

export const here = path.dirname(new URL(import.meta.url).pathname);
export const problems = [];
export const check = (ok, what) => { if (!ok) problems.push(what); };
export const shots = process.argv[2] || fs.mkdtempSync(path.join(os.tmpdir(), 'normlab-web-app-'));
fs.mkdirSync(shots, { recursive: true });

// Opens app.html (+ suffix) at width × height and waits for the first frame (or an error).
export async function openShell(browser, url, width, height) {
  const page = await browser.newPage();
  const log = [];
  page.on('console', (m) => log.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => log.push(`pageerror: ${e.message}`));
  await page.setViewport({ width, height, deviceScaleFactor: 1 });
  await page.goto(url, { waitUntil: 'load' });
  try {
    await page.waitForFunction(() => document.body.getAttribute('data-normlab-state') !== 'loading',
      { timeout: 60000, polling: 50 });
  } catch (e) {
    throw new Error(`${url} drew no frame within 60 s; console:\n${log.join('\n')}`);
  }
  const state = await page.evaluate(() => document.body.getAttribute('data-normlab-state'));
  if (state !== 'done') {
    const error = await page.$eval('#normlab-error', (el) => el.textContent);
    throw new Error(`${url} ended in state ${state}: ${error}; console:\n${log.join('\n')}`);
  }
  return { page, log };
}

export const report = (page) => page.$eval('#normlab-app-report', (el) => JSON.parse(el.textContent));
// A few animation frames, so what was clicked or pressed has been drawn.
export const frames = (page, k = 4) => page.evaluate((k) => new Promise((done) => {
  const step = (i) => (i ? requestAnimationFrame(() => step(i - 1)) : done());
  step(k);
}), k);

// After a click that changes the picture: the app's frames wait for the fill's readback (a slow frame
// on SwiftShader), so the canvas shows the new picture a few of the page's frames later. Waits until the
// app has drawn what it had to: its frame loop idle (no frame under way and none drawn for 3 of the page's
// frames: the pacer draws only on change, app_test_devices.mjs's idle page checks that) or 4 frames of
// its own drawn (the runs play: frames keep coming), at most 1.5 s.
export const settle = async (page) => {
  await frames(page, 2);
  await page.evaluate(() => new Promise((done) => {
    const end = performance.now() + 1500, first = window.normlabFrames || 0;
    let last = first, still = 0;
    const step = () => {
      const n = window.normlabFrames || 0;
      still = n === last && !window.normlabFrameUnderWay ? still + 1 : 0;
      last = n;
      if (still >= 3 || (n - first >= 4 && !window.normlabFrameUnderWay) || performance.now() > end) done();
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }));
  await frames(page, 2);
};

export async function screenshot(page, name) {
  const png = await page.screenshot({ type: 'png' });
  fs.writeFileSync(path.join(shots, name), png);
  return decodePng(png);
}

// The colours of a rectangle (x, y, w, h) with their pixel counts, most frequent first.
export function colours(img, [x0, y0, w, h]) {
  const counts = new Map();
  for (let y = Math.ceil(y0); y < Math.floor(y0 + h); ++y)
    for (let x = Math.ceil(x0); x < Math.floor(x0 + w); ++x) {
      const i = (y * img.width + x) * 4;
      const key = (img.pixels[i] << 16) | (img.pixels[i + 1] << 8) | img.pixels[i + 2];
      counts.set(key, (counts.get(key) || 0) + 1);
    }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
}

export const hex = (c) => '#' + c.toString(16).padStart(6, '0');
export const gapColour = (26 << 16) | (26 << 8) | 28;  // heatmap.wgsl's BG (0.10, 0.10, 0.11) as 8-bit sRGB

// The heatmap region: exactly stat_count tile colours and the gaps', nothing blended.
export function checkHeatmap(img, r, what) {
  const h = r.heatmap_rect_px;  // canvas pixels, as the screenshot has them
  const inset = [h[0] + 1, h[1] + 1, h[2] - 2, h[3] - 2];
  const all = colours(img, inset);
  const total = all.reduce((s, [, n]) => s + n, 0);
  // The tiles' colours: each covers a good share of the region (the values printed in large cells and
  // the selection's outline add small counts of other colours).
  const tiles = all.filter(([c, n]) => c !== gapColour && n >= total / (r.stat_count * 8));
  console.log(`${what}: heatmap ${inset.map(Math.round).join(',')} holds ${all.length} colours ` +
    `(${tiles.length} besides the gaps'): ${tiles.slice(0, 14).map(([c, n]) => `${hex(c)}×${n}`).join(' ')}`);
  check(total > 2000, `${what}: the heatmap region has only ${total} pixels`);
  check(all.some(([c]) => c === gapColour), `${what}: no gap pixels of ${hex(gapColour)} in the heatmap`);
  check(tiles.length === r.stat_count,
    `${what}: ${tiles.length} tile colours in the heatmap, want one per statistic (${r.stat_count})`);
  const covered = tiles.reduce((s, [, n]) => s + n, 0) + (all.find(([c]) => c === gapColour) || [0, 0])[1];
  check(covered >= 0.97 * total, `${what}: the tiles and gaps cover only ${covered} of ${total} pixels`);
}

export function checkNotBlank(img, what) {
  const all = colours(img, [0, 0, img.width, img.height]);
  const background = all[0][1] / (img.width * img.height);
  check(all.length >= 20 && background < 0.9,
    `${what}: the screenshot looks blank (${all.length} colours, the commonest covers ${(background * 100).toFixed(1)}%)`);
}

// How many pixels of the menu bar (the top `h` rows) differ between two screenshots.
export function barDiff(a, b, h) {
  let n = 0;
  for (let i = 0; i < a.width * h * 4; i += 4)
    if (a.pixels[i] !== b.pixels[i] || a.pixels[i + 1] !== b.pixels[i + 1] || a.pixels[i + 2] !== b.pixels[i + 2]) ++n;
  return n;
}

// A scene put into the address bar (as a user pastes one); resolves to the report once it is shown:
// the report has changed and satisfies `shown` (a frame of the state before may still change it).
export async function pasteScene(page, hash, shown) {
  const text = () => page.$eval('#normlab-app-report', (el) => el.textContent);
  const before = await text();
  await page.evaluate((h) => { location.hash = h; }, hash);
  for (const deadline = Date.now() + 30000; Date.now() < deadline;) {
    const now = await text();
    const idle = await page.evaluate(() => document.body.getAttribute('data-normlab-state') === 'done');
    if (now !== before && idle && shown(JSON.parse(now))) break;
    await new Promise((done) => setTimeout(done, 50));
  }
  await frames(page);
  const r = await report(page);
  check(shown(r), `after the scene "${hash.slice(0, 40)}…" the shell shows ${r.method} on ${r.shape} (${r.error})`);
  return r;
}

// The pixel (r, g, b) at canvas position [x, y].
export function pixel(img, [x, y]) {
  const i = (Math.round(y) * img.width + Math.round(x)) * 4;
  return (img.pixels[i] << 16) | (img.pixels[i + 1] << 8) | img.pixels[i + 2];
}

// Item `item` (0: the first) of the menu bar's menu `menu` (a key of the report's "menus"), clicked
// as a user would: the menu's title, then the item (rows of 17 + 4 pixels below the bar's padding).
// `separators`: how many separators (5 pixels each) the menu has above the item.
export async function chooseFromMenu(page, menu, item, shot, separators = 0) {
  const r = await report(page);
  const bar = Math.round(17 * r.ui_scale + 6 * r.ui_scale);  // font + 2 × FramePadding.y
  await page.mouse.click(r.menus[menu] + 12, bar / 2);
  await frames(page);
  await screenshot(page, shot);
  await page.mouse.click(r.menus[menu] + 40, bar + 8 + 21 * item + 5 * separators + 17 / 2 + 2);
  await settle(page);
  return report(page);
}

// A download's file in `dir` once the browser has written it (null after 5 s).
export async function downloaded(dir, name) {
  const file = path.join(dir, name);
  for (let i = 0; i < 50 && !fs.existsSync(file); ++i) await new Promise((done) => setTimeout(done, 100));
  await new Promise((done) => setTimeout(done, 200));  // written whole
  return fs.existsSync(file) ? fs.readFileSync(file) : null;
}

// The scene JSON a "normlab-scene:…" line carries.
export const sceneOf = (line) => JSON.parse(Buffer.from(line.replace(/^normlab-scene:/, ''), 'base64url').toString('utf8'));

// Text pasted into the page as Ctrl+V does it: a paste event whose clipboardData holds the text.
export const pasteText = (page, text) => page.evaluate((t) => {
  const data = new DataTransfer();
  data.setData('text/plain', t);
  document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
}, text);

// Waits until the report satisfies `ok` (or 30 s), then returns it.
export async function reportWhen(page, ok) {
  const deadline = Date.now() + 30000;
  let r = await report(page);
  while (!ok(r) && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 100));
    r = await report(page);
  }
  await settle(page);
  return report(page);
}
