// The ImGui shell (app.html) in headless Chromium, one page load: node app_test.mjs [SHOTS_DIR]
//   - the first frame of the URL's scene (LayerNorm over [H, W] on [3, 4, 5, 6]): the page's report
//     (web/src/web_app.hpp) names a WebGPU adapter and the CJK font, the canvas is the window's
//     size, the screenshot is not blank, and the heatmap region holds exactly one colour per
//     statistic (12) plus the gaps' (statistics mode), each cell the palette's colour, not a blend;
//   - the default state pasted into the address bar (BatchNorm2d on [4, 6, 4, 4]: 6 colours);
//   - the language: a synthetic click on the Language menu and on "中文 (简体)" changes the menu bar's
//     pixels and the document's language, with no glyph missing; the key L switches back, and the bar
//     is again pixel for pixel the first one; the unchanged heatmap was not uploaded again;
//   - a click on a heatmap element selects its statistic (the other groups' tiles dimmed, pixel check);
//     a right click clears it;
//   - a lesson: the Lessons menu clicked, its first lesson chosen (step 1: its tensor and method), the
//     key → to step 2 (another method, a changed heatmap) and step 3 (the compare view of four
//     heatmaps, each with its cube), step 4 (a pair experiment: two sides and their difference), ← ←
//     back to step 2 (the heatmap alone, no experiment); the gradient view there (key D: ∂y_k/∂x
//     non-zero on y_k's 96-element statistic exactly);
//   - an experiment: bn-train-eval from the Experiments menu (its state and bar), the key N three times
//     (three train steps: the running statistics counted), E (eval), Esc closes it, ← the lesson's step 1;
//   - the small-batch experiment's batch-noise measurement (its button: one row per N, on WebGPU);
//   - the File menu: a .npy through Open… (the file chooser: its tensor, the method kept), a bad file
//     dropped (one line, nothing changed), Save statistics (the download's JSON), Copy link (the line
//     saying why a file's tensor has no link);
//   - the classroom's parts: an exercise scene (statistics hidden, the method locked: the key 2 refused
//     with one line), the Exercise window from the File menu, presenter mode's method buttons; Copy scene
//     (the line on the clipboard, the heatmap's mode (key H) in its view), a scene line pasted into the
//     page (Ctrl+V's paste event) and File > Paste scene (the clipboard read, the scene's view shown);
//     the screenshot and figure downloads (PNGs of the canvas' and the figure's size, the figure pixel
//     for pixel the screen's); an image with AdaIN's style (three pictures, a link that carries them),
//     then the style from the user's own PNG (File > Open an image as AdaIN's style…: no link) and a
//     .npy refused as a style (one line, the style kept);
//   - SyncBN on 2 simulated devices in naive mode (the SyncBN view under the heatmap: its devices, a
//     naive error above 0, one tile colour per channel; the pasted scene closed the open lesson), in
//     presenter mode, then local mode on 3 devices; the File menu's Ctrl keys (S, E, P: downloads,
//     Shift+C: the scene line on the clipboard, O: the file chooser);
//   - a cut scene pasted: one error line, the state shown stays; a smaller window and then
//     devicePixelRatio 2: the canvas, the UI scale and the drawn heatmap follow; Chromium without
//     WebGPU: today's message; last, Copy as PyTorch (key T: the window, the code on the clipboard), Esc
//     closing it, the F1 overlay (Esc closes it) and the blank screen (B; any key brings the picture back).
// The screenshots are written to SHOTS_DIR (default: a temporary folder, printed) to be looked at.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, serve, launch, sceneLine, npyBytes, dropFile } from './browser.mjs';
import { decodePng } from './png.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const problems = [];
const check = (ok, what) => { if (!ok) problems.push(what); };
const shots = process.argv[2] || fs.mkdtempSync(path.join(os.tmpdir(), 'normlab-web-app-'));
fs.mkdirSync(shots, { recursive: true });

// Opens app.html (+ suffix) at width × height and waits for the first frame (or an error).
async function openShell(browser, url, width, height) {
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

const report = (page) => page.$eval('#normlab-app-report', (el) => JSON.parse(el.textContent));
// A few animation frames, so what was clicked or pressed has been drawn.
const frames = (page, k = 4) => page.evaluate((k) => new Promise((done) => {
  const step = (i) => (i ? requestAnimationFrame(() => step(i - 1)) : done());
  step(k);
}), k);

// After a click that changes the picture: the app's frames wait for the fill's readback (a slow frame
// on SwiftShader), so the canvas shows the new picture a few of the page's frames later.
const settle = async (page) => {
  await frames(page, 8);
  await new Promise((done) => setTimeout(done, 1500));
  await frames(page, 4);
};

async function screenshot(page, name) {
  const png = await page.screenshot({ type: 'png' });
  fs.writeFileSync(path.join(shots, name), png);
  return decodePng(png);
}

// The colours of a rectangle (x, y, w, h) with their pixel counts, most frequent first.
function colours(img, [x0, y0, w, h]) {
  const counts = new Map();
  for (let y = Math.ceil(y0); y < Math.floor(y0 + h); ++y)
    for (let x = Math.ceil(x0); x < Math.floor(x0 + w); ++x) {
      const i = (y * img.width + x) * 4;
      const key = (img.pixels[i] << 16) | (img.pixels[i + 1] << 8) | img.pixels[i + 2];
      counts.set(key, (counts.get(key) || 0) + 1);
    }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
}

const hex = (c) => '#' + c.toString(16).padStart(6, '0');
const gapColour = (26 << 16) | (26 << 8) | 28;  // heatmap.wgsl's BG (0.10, 0.10, 0.11) as 8-bit sRGB

// The heatmap region: exactly stat_count tile colours and the gaps', nothing blended.
function checkHeatmap(img, r, what) {
  const inset = [r.heatmap_rect[0] + 1, r.heatmap_rect[1] + 1, r.heatmap_rect[2] - 2, r.heatmap_rect[3] - 2];
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

function checkNotBlank(img, what) {
  const all = colours(img, [0, 0, img.width, img.height]);
  const background = all[0][1] / (img.width * img.height);
  check(all.length >= 20 && background < 0.9,
    `${what}: the screenshot looks blank (${all.length} colours, the commonest covers ${(background * 100).toFixed(1)}%)`);
}

// How many pixels of the menu bar (the top `h` rows) differ between two screenshots.
function barDiff(a, b, h) {
  let n = 0;
  for (let i = 0; i < a.width * h * 4; i += 4)
    if (a.pixels[i] !== b.pixels[i] || a.pixels[i + 1] !== b.pixels[i + 1] || a.pixels[i + 2] !== b.pixels[i + 2]) ++n;
  return n;
}

// A scene put into the address bar (as a user pastes one); resolves to the report once it is shown:
// the report has changed and satisfies `shown` (a frame of the state before may still change it).
async function pasteScene(page, hash, shown) {
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

// The URL's scene at the start: LayerNorm over [H, W] on [3, 4, 5, 6], 12 statistics.
async function urlScene(page) {
  const r = await report(page);
  console.log(`first frame at ${Math.round(r.first_frame_ms)} ms after navigation (steps ` +
    `${r.startup_ms.map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')}): ${r.method} on [${r.shape.join(', ')}], ` +
    `${r.stat_count} statistics, ${r.device}, canvas ${r.canvas.join('×')}, max error ${r.max_error}`);
  check(r.method === 'LayerNorm' && r.shape.join(',') === '3,4,5,6' && r.stat_count === 12 && r.error === '',
    `the URL's layer.json shows ${r.method} on ${r.shape} with ${r.stat_count} statistics (${r.error})`);
  check(/\(WebGPU\)$/.test(r.device), `device "${r.device}" does not name a WebGPU adapter`);
  check(r.max_error < 1e-4, `max error against the float64 reference ${r.max_error}`);
  check(r.canvas[0] === 1280 && r.canvas[1] === 800, `the canvas is ${r.canvas}, the window 1280×800`);
  check(r.cjk_font && r.missing_glyphs === '', `CJK font ${r.cjk_font}, glyphs missing: "${r.missing_glyphs}"`);
  const img = await screenshot(page, 'app-layer.png');
  checkNotBlank(img, 'layer.json');
  checkHeatmap(img, r, 'layer.json');
}

// The default state (BatchNorm2d on [4, 6, 4, 4]) and the language switch.
async function language(page) {
  let r = await pasteScene(page, '', (r) => r.method === 'BatchNorm2d' && r.stat_count === 6 && r.error === '');
  const en = await screenshot(page, 'app-en.png');
  checkNotBlank(en, 'default state');
  checkHeatmap(en, r, 'default state');
  const uploads = r.texture_uploads;

  // The Language menu, then its second item, clicked as a user would.
  const bar = Math.round(17 * r.ui_scale + 6 * r.ui_scale);  // font + 2 × FramePadding.y
  await page.mouse.click(r.menus.language + 12, bar / 2);
  await frames(page);
  const open = await screenshot(page, 'app-menu-open.png');
  await page.mouse.click(r.menus.language + 40, bar + 8 + 17 + 4 + 8);
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans', { timeout: 5000 }).catch(() => {});
  await frames(page);
  r = await report(page);
  const zh = await screenshot(page, 'app-zh.png');
  console.log(`clicked 中文: language ${r.language}, document lang ${await page.evaluate(() => document.documentElement.lang)}, ` +
    `${barDiff(en, zh, bar)} menu bar pixels changed`);
  check(barDiff(en, open, 400) > 500, 'the click on the Language menu opened no menu');
  check(r.language === 'zh', `after the click on 中文 the language is ${r.language}`);
  check(barDiff(en, zh, bar) > 50, `the menu bar changed in only ${barDiff(en, zh, bar)} pixels`);
  check(r.missing_glyphs === '', `Chinese glyphs missing: ${r.missing_glyphs}`);

  await page.keyboard.press('l');
  await frames(page);
  r = await report(page);
  const back = await screenshot(page, 'app-en-again.png');
  check(r.language === 'en', `after L the language is ${r.language}`);
  check(barDiff(en, back, bar) === 0, `after L the menu bar differs from the first in ${barDiff(en, back, bar)} pixels`);
  check(r.texture_uploads === uploads, `the unchanged heatmap was uploaded again (${uploads} → ${r.texture_uploads})`);
}

// The pixel (r, g, b) at canvas position [x, y].
function pixel(img, [x, y]) {
  const i = (Math.round(y) * img.width + Math.round(x)) * 4;
  return (img.pixels[i] << 16) | (img.pixels[i + 1] << 8) | img.pixels[i + 2];
}

// A click on an element of the heatmap selects its statistic: the group keeps its colour, every other
// statistic's tiles are dimmed (heatmap.wgsl), the Explain panel and the table follow; a right click clears.
async function clickHighlight(page) {
  let r = await report(page);
  const before = await screenshot(page, 'app-before-click.png');
  const inCell = (p) => [p.at[0] + r.cell * 0.2, p.at[1] + r.cell * 0.2];  // off the cell's printed value
  const [first, , last] = r.probes;
  check(first.stat !== last.stat, `the probes share statistic ${first.stat}`);
  await page.mouse.click(...inCell(first));
  await settle(page);
  r = await report(page);
  const after = await screenshot(page, 'app-clicked.png');
  console.log(`clicked element ${first.index}: statistic ${r.selected_stat} selected (want ${first.stat}); ` +
    `its cell ${hex(pixel(before, inCell(first)))} → ${hex(pixel(after, inCell(first)))}, element ${last.index}'s ` +
    `${hex(pixel(before, inCell(last)))} → ${hex(pixel(after, inCell(last)))}`);
  check(r.selected_stat === first.stat, `a click on element ${first.index} selected statistic ${r.selected_stat}`);
  check(pixel(after, inCell(first)) === pixel(before, inCell(first)), 'the clicked group changed its colour');
  check(pixel(after, inCell(last)) !== pixel(before, inCell(last)), 'another statistic was not dimmed');
  await page.mouse.click(...inCell(last), { button: 'right' });
  // ImGui reads the cursor when its frame runs: the right click must be seen there before the move.
  await settle(page);
  await page.mouse.move(4, 790);  // off the heatmap: no tooltip over the tiles in later screenshots
  await settle(page);
  r = await report(page);
  const cleared = await screenshot(page, 'app-cleared.png');
  check(r.selected_stat === -1, `after a right click statistic ${r.selected_stat} is still selected`);
  check(pixel(cleared, inCell(last)) === pixel(before, inCell(last)), 'after a right click a group stays dimmed');
}

// Item `item` (0: the first) of the menu bar's menu `menu` (a key of the report's "menus"), clicked
// as a user would: the menu's title, then the item (rows of 17 + 4 pixels below the bar's padding).
// `separators`: how many separators (5 pixels each) the menu has above the item.
async function chooseFromMenu(page, menu, item, shot, separators = 0) {
  const r = await report(page);
  const bar = Math.round(17 * r.ui_scale + 6 * r.ui_scale);  // font + 2 × FramePadding.y
  await page.mouse.click(r.menus[menu] + 12, bar / 2);
  await frames(page);
  await screenshot(page, shot);
  await page.mouse.click(r.menus[menu] + 40, bar + 8 + 21 * item + 5 * separators + 17 / 2 + 2);
  await settle(page);
  return report(page);
}

// The first lesson (bn-vs-ln) from the Lessons menu, then its steps with the keys → and ←.
async function lesson(page) {
  let r = await chooseFromMenu(page, 'lessons', 0, 'app-lessons-menu.png');
  const first = await screenshot(page, 'app-lesson-step1.png');
  console.log(`lesson ${r.lesson} (${r.lesson_count} lessons) step ${r.step}: ${r.method} on [${r.shape}], ` +
    `${r.stat_count} statistics, error "${r.lesson_error}"`);
  check(r.lesson_count >= 14, `the browser has ${r.lesson_count} lessons`);
  check(r.lesson === 'bn-vs-ln' && r.step === 1 && r.method === 'BatchNorm2d' && r.lesson_error === '',
    `after choosing the first lesson: lesson "${r.lesson}" step ${r.step}, ${r.method}, error "${r.lesson_error}"`);
  checkHeatmap(first, r, 'lesson step 1');

  await page.keyboard.press('ArrowRight');
  await settle(page);
  r = await report(page);
  const second = await screenshot(page, 'app-lesson-step2.png');
  console.log(`→: step ${r.step}, ${r.method}, ${r.stat_count} statistics`);
  check(r.step === 2 && r.method === 'LayerNorm' && r.max_error < 1e-5, `after →: step ${r.step}, ${r.method}`);
  checkHeatmap(second, r, 'lesson step 2');

  await page.keyboard.press('ArrowRight');
  await settle(page);
  r = await report(page);
  await screenshot(page, 'app-lesson-step3.png');
  console.log(`→: step ${r.step}`);
  console.log(`   compare view ${r.compare}, cube ${r.cube}, its four heatmaps filled ${r.view_fills} times`);
  check(r.step === 3 && r.compare && r.cube && r.view_fills >= 4,
    `step 3: compare ${r.compare}, cube ${r.cube}, the views' images filled ${r.view_fills} times`);
  // Step 4 runs the pair experiment batch-independence: two sides and their difference.
  const fills = r.view_fills;
  await page.keyboard.press('ArrowRight');
  await settle(page);
  r = await report(page);
  checkNotBlank(await screenshot(page, 'app-lesson-step4.png'), 'lesson step 4 (pair)');
  console.log(`→: step ${r.step}, experiment "${r.experiment}", pair view ${r.pair}, ${r.view_fills - fills} fills`);
  check(r.step === 4 && r.experiment === 'batch-independence' && r.pair && r.view_fills - fills >= 3,
    `step 4: experiment "${r.experiment}", pair view ${r.pair}, ${r.view_fills - fills} fills`);
  await page.keyboard.press('ArrowLeft');
  await frames(page, 2);
  await page.keyboard.press('ArrowLeft');
  await settle(page);
  r = await report(page);
  check(r.step === 2 && r.method === 'LayerNorm' && !r.cube && !r.compare && r.experiment === '',
    `after ← ←: step ${r.step}, ${r.method}, cube ${r.cube}, compare ${r.compare}, experiment "${r.experiment}"`);

  // The gradient view (key D): ∂y_k/∂x of the selected y_k from the WGSL backward; under LayerNorm over
  // [C,H,W] its support is y_k's sample, C·H·W = 96 elements.
  await page.keyboard.press('d');
  await settle(page);
  r = await report(page);
  checkNotBlank(await screenshot(page, 'app-gradient.png'), 'gradient view');
  console.log(`D: gradient view ${r.gradient}, ∂y_k/∂x has ${r.gradient_nonzero} non-zero entries`);
  check(r.gradient && r.gradient_nonzero === 96, `the gradient view shows ${r.gradient_nonzero} non-zero entries, want 96`);
  await page.keyboard.press('d');
  await frames(page);
}

// The experiment bn-train-eval from the Experiments menu (its 6th item), then the keys N, E and Esc.
async function experiment(page) {
  let r = await chooseFromMenu(page, 'experiments', 5, 'app-experiments-menu.png');
  const shown = await screenshot(page, 'app-experiment.png');
  console.log(`experiment "${r.experiment}": ${r.method} on [${r.shape}], eval ${r.eval}, ${r.batches_tracked} batches`);
  check(r.experiment === 'bn-train-eval' && r.method === 'BatchNorm2d' && r.shape.join(',') === '8,3,4,4' &&
    !r.eval && r.batches_tracked === 0, `after choosing bn-train-eval: "${r.experiment}", ${r.method} on ${r.shape}`);
  checkNotBlank(shown, 'experiment bn-train-eval');
  for (let i = 0; i < 3; ++i) {
    await page.keyboard.press('n');
    await frames(page, 2);
  }
  await page.keyboard.press('e');
  await settle(page);
  r = await report(page);
  await screenshot(page, 'app-experiment-eval.png');
  console.log(`N N N E: ${r.batches_tracked} batches tracked, eval ${r.eval}, max error ${r.max_error}`);
  check(r.batches_tracked === 3 && r.eval && r.max_error < 1e-5,
    `after N N N E: ${r.batches_tracked} batches tracked, eval ${r.eval}, max error ${r.max_error}`);
  await page.keyboard.press('Escape');
  await frames(page);
  r = await report(page);
  check(r.experiment === '', `Esc left the experiment "${r.experiment}" running`);
  // The lesson (still open at step 2) back to its step 1: the classroom tensor in statistics mode.
  await page.keyboard.press('ArrowLeft');
  await settle(page);
  r = await report(page);
  check(r.step === 1 && r.method === 'BatchNorm2d' && r.shape.join(',') === '4,6,4,4' && r.heatmap_mode === 3,
    `← after the experiment: step ${r.step}, ${r.method} on ${r.shape}, heatmap mode ${r.heatmap_mode}`);
}

// A download's file in `dir` once the browser has written it (null after 5 s).
async function downloaded(dir, name) {
  const file = path.join(dir, name);
  for (let i = 0; i < 50 && !fs.existsSync(file); ++i) await new Promise((done) => setTimeout(done, 100));
  await new Promise((done) => setTimeout(done, 200));  // written whole
  return fs.existsSync(file) ? fs.readFileSync(file) : null;
}

// The small-batch experiment (the Experiments menu's 11th item): its button measures the batch noise on a
// WebGPU backend of its own (one row per N, halved down to 2), the session's result unchanged; Esc closes it.
async function batchNoise(page) {
  let r = await chooseFromMenu(page, 'experiments', 10, 'app-experiments-menu-2.png');
  const before = r.max_error;
  check(r.experiment === 'small-batch' && r.noise_button[0] > 0, `after choosing small-batch: "${r.experiment}", button ${r.noise_button}`);
  await page.mouse.click(r.noise_button[0] + 20, r.noise_button[1] + 8);
  r = await reportWhen(page, (r) => r.noise_rows > 0 || r.noise_error !== '');
  checkNotBlank(await screenshot(page, 'app-batch-noise.png'), 'the batch-noise table');
  console.log(`small-batch: the batch noise measured in ${r.noise_rows} rows ("${r.noise_error}"), max error ${r.max_error}`);
  check(r.noise_rows >= 2 && r.noise_error === '' && r.max_error === before,
    `the batch-noise measurement: ${r.noise_rows} rows, error "${r.noise_error}", max error ${before} → ${r.max_error}`);
  await page.keyboard.press('Escape');
  await frames(page);
}

// The File menu: a .npy through Open… (the browser's file chooser), a bad file dropped on the page,
// the statistics saved as a download (into `dir`), Copy link (a file's tensor has none: the line says why).
async function files(page, dir) {
  const npy = path.join(dir, 'acts.npy');
  fs.writeFileSync(npy, npyBytes([3, 4, 2, 5], Array.from({ length: 120 }, (_, i) => Math.sin(i * 1.7) * 2 + (i % 4))));
  const [chooser] = await Promise.all([page.waitForFileChooser({ timeout: 15000 }),
    chooseFromMenu(page, 'file', 0, 'app-file-menu.png')]);
  await chooser.accept([npy]);
  await page.waitForFunction(() => JSON.parse(document.getElementById('normlab-app-report').textContent).note !== '',
    { timeout: 30000, polling: 100 }).catch(() => {});
  await settle(page);
  let r = await report(page);
  await screenshot(page, 'app-file-opened.png');
  console.log(`Open… acts.npy: ${r.method} on [${r.shape}], note "${r.note}", error "${r.error}", link "${r.link}"`);
  check(r.shape.join(',') === '3,4,2,5' && r.method === 'BatchNorm2d' && r.note === 'opened acts.npy' &&
    r.error === '' && r.link === '' && r.max_error < 1e-5,
    `after opening acts.npy: ${r.method} on ${r.shape}, note "${r.note}", error "${r.error}", link "${r.link}"`);

  await dropFile(page, 'broken.npy', Buffer.from('not a numpy file at all'));
  await page.waitForFunction(() => JSON.parse(document.getElementById('normlab-app-report').textContent).error !== '',
    { timeout: 30000, polling: 100 }).catch(() => {});
  r = await report(page);
  console.log(`dropped broken.npy: "${r.error}", ${r.method} on [${r.shape}]`);
  check(/broken\.npy/.test(r.error) && !r.error.includes('\n') && r.shape.join(',') === '3,4,2,5',
    `a bad file dropped: error "${r.error}", shape ${r.shape}`);

  r = await chooseFromMenu(page, 'file', 3, 'app-file-menu-3.png');  // Save statistics (.json)
  const saved = path.join(dir, 'normlab-stats.json');
  const bytes = await downloaded(dir, 'normlab-stats.json');
  const stats = bytes ? JSON.parse(bytes.toString('utf8')) : null;
  console.log(`Save statistics: ${stats ? `${saved}, ${stats.torch_module} on [${stats.shape}], ${stats.rstd.length} statistics, device ${stats.device}` : 'no file'}`);
  check(stats && stats.shape.join(',') === '3,4,2,5' && stats.rstd.length === r.stat_count && /WebGPU/.test(stats.device),
    `the saved statistics: ${stats ? JSON.stringify(stats).slice(0, 120) : 'no file in ' + dir}`);

  r = await chooseFromMenu(page, 'file', 5, 'app-file-menu-5.png');  // Copy link
  console.log(`Copy link: "${r.note}"`);
  check(/this tensor is the file 'acts\.npy'/.test(r.note), `Copy link with a file's tensor: "${r.note}"`);
}

// The scene JSON a "normlab-scene:…" line carries.
const sceneOf = (line) => JSON.parse(Buffer.from(line.replace(/^normlab-scene:/, ''), 'base64url').toString('utf8'));

// Text pasted into the page as Ctrl+V does it: a paste event whose clipboardData holds the text.
const pasteText = (page, text) => page.evaluate((t) => {
  const data = new DataTransfer();
  data.setData('text/plain', t);
  document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
}, text);

// Waits until the report satisfies `ok` (or 30 s), then returns it.
async function reportWhen(page, ok) {
  const deadline = Date.now() + 30000;
  let r = await report(page);
  while (!ok(r) && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 100));
    r = await report(page);
  }
  await settle(page);
  return report(page);
}

// An exercise, presenter mode's buttons, the scene line copied and pasted, the PNG downloads (into
// `dir`) and an image with AdaIN.
async function classroom(page, dir) {
  const classroomScene = { normlab_scene: 1, tensor: { source: 'preset', preset: 'classroom' }, norm: { method: 'batch' } };
  const exercise = { ...classroomScene, exercise: { hide: ['statistics'], lock: ['method'] } };
  let r = await pasteScene(page, sceneLine(JSON.stringify(exercise)),
    (r) => r.method === 'BatchNorm2d' && r.hide.join() === 'statistics' && r.lock.join() === 'method');
  await page.keyboard.press('2');  // LayerNorm, which the exercise locks
  await settle(page);
  r = await report(page);
  await screenshot(page, 'app-exercise.png');
  console.log(`exercise (hide ${r.hide}, lock ${r.lock}): key 2 → ${r.method}, "${r.error}"`);
  check(r.method === 'BatchNorm2d' && /method/.test(r.error) && /locked/.test(r.error) && !r.error.includes('\n'),
    `the key 2 under an exercise that locks the method: ${r.method}, error "${r.error}"`);
  r = await chooseFromMenu(page, 'file', 8, 'app-file-menu-8.png');  // Exercise: hide and lock controls…
  checkNotBlank(await screenshot(page, 'app-exercise-window.png'), 'the Exercise window');
  check(r.exercise_open, 'File > Exercise opened no Exercise window');
  r = await chooseFromMenu(page, 'file', 8, 'app-file-menu-8b.png');
  check(!r.exercise_open, 'File > Exercise again left the Exercise window open');
  await page.keyboard.press('p');
  await settle(page);
  r = await report(page);
  checkNotBlank(await screenshot(page, 'app-presenter-exercise.png'), 'presenter mode with an exercise');
  check(r.presenter, 'P did not turn presenter mode on');
  await page.keyboard.press('p');
  await frames(page);

  // Copy scene: the line on the clipboard, with the heatmap's mode (H: statistics → input) in its view.
  r = await pasteScene(page, sceneLine(JSON.stringify(classroomScene)), (r) => r.method === 'BatchNorm2d' && r.lock.length === 0);
  await page.keyboard.press('h');
  await frames(page);
  r = await chooseFromMenu(page, 'file', 6, 'app-file-menu-6.png');  // Copy scene (one line)
  const copied = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => `(no clipboard: ${e.message})`);
  console.log(`H, Copy scene: heatmap ${r.heatmap_view}, note "${r.note}", clipboard "${copied.slice(0, 50)}…"`);
  check(r.heatmap_view === 'input' && r.note === 'scene copied to the clipboard as one line' && copied === r.link,
    `Copy scene: heatmap ${r.heatmap_view}, note "${r.note}", the clipboard ${copied === r.link ? 'holds' : 'lacks'} the link's line`);
  check(/^normlab-scene:/.test(copied) && sceneOf(copied).view && sceneOf(copied).view.heatmap === 'input',
    `the copied scene's view: ${/^normlab-scene:/.test(copied) ? JSON.stringify(sceneOf(copied).view) : copied}`);

  // Ctrl+V on the page: LayerNorm's scene; then File > Paste scene reads the copied line back.
  const layer = fs.readFileSync(path.join(here, 'scenes', 'layer.json'), 'utf8');
  await pasteText(page, sceneLine(layer));
  r = await reportWhen(page, (r) => r.method === 'LayerNorm');
  console.log(`pasted layer.json: ${r.method} on [${r.shape}], note "${r.note}", heatmap ${r.heatmap_view}`);
  check(r.method === 'LayerNorm' && r.note === 'scene pasted from the clipboard' && r.heatmap_view === 'stats',
    `after pasting layer.json: ${r.method}, note "${r.note}", heatmap ${r.heatmap_view}`);
  await chooseFromMenu(page, 'file', 7, 'app-file-menu-7.png');  // Paste scene
  r = await reportWhen(page, (r) => r.method === 'BatchNorm2d');
  console.log(`File > Paste scene: ${r.method} on [${r.shape}], heatmap ${r.heatmap_view}, note "${r.note}"`);
  check(r.method === 'BatchNorm2d' && r.heatmap_view === 'input' && r.link === copied,
    `File > Paste scene: ${r.method}, heatmap ${r.heatmap_view}, the link ${r.link === copied ? 'is' : 'is not'} the copied line`);

  // The figure (heatmap + histograms) and the screenshot as PNG downloads.
  await page.keyboard.press('h');  // output y
  await settle(page);
  const screen = await screenshot(page, 'app-before-png.png');
  r = await chooseFromMenu(page, 'file', 9, 'app-file-menu-9.png', 1);  // Export heatmap + histograms (PNG)
  const figureBytes = await downloaded(dir, 'normlab-batch-figure.png');
  r = await chooseFromMenu(page, 'file', 10, 'app-file-menu-10.png', 1);  // Screenshot (PNG)
  const screenBytes = await downloaded(dir, 'normlab-batch-screen.png');
  const figure = figureBytes && decodePng(figureBytes), shot = screenBytes && decodePng(screenBytes);
  const [fx, fy, fw, fh] = r.figure_rect;
  let same = 0;
  if (figure)
    for (let y = 0; y < figure.height; ++y)
      for (let x = 0; x < figure.width; ++x)
        if (pixel(figure, [x, y]) === pixel(screen, [x + fx, y + fy])) ++same;
  const share = figure ? same / (figure.width * figure.height) : 0;
  console.log(`PNG downloads: figure ${figure ? `${figure.width}×${figure.height}` : 'none'} (rect ${r.figure_rect}, ` +
    `${(share * 100).toFixed(1)}% of its pixels the screen's), screenshot ${shot ? `${shot.width}×${shot.height}` : 'none'}`);
  check(figure && figure.width === fw && figure.height === fh && share > 0.95,
    `the figure PNG: ${figure ? `${figure.width}×${figure.height}` : 'none'}, rect ${r.figure_rect}, ${share} of it the screen's`);
  check(shot && shot.width === r.canvas[0] && shot.height === r.canvas[1], `the screenshot PNG: ${shot ? `${shot.width}×${shot.height}` : 'none'}`);
  if (shot) checkNotBlank(shot, 'the screenshot download');
  if (figure) checkNotBlank(figure, 'the figure download');

  // An image with AdaIN's style: the content, the style and the result, from the site's own images.
  const adain = { normlab_scene: 1, tensor: { source: 'image', path: 'images/content-checker.png' },
    norm: { method: 'instance', style_image: 'images/style-sunset.png' } };
  r = await pasteScene(page, sceneLine(JSON.stringify(adain)), (r) => r.method === 'InstanceNorm2d' && r.pictures === 3);
  checkNotBlank(await screenshot(page, 'app-adain.png'), 'AdaIN pictures');
  console.log(`AdaIN: ${r.pictures} pictures, ${r.method} on [${r.shape}], max error ${r.max_error}, link ${r.link.slice(0, 30)}…`);
  check(r.pictures === 3 && r.max_error < 1e-4 && /^normlab-scene:/.test(r.link) &&
    sceneOf(r.link).norm.style_image === 'images/style-sunset.png', `AdaIN: ${r.pictures} pictures, link "${r.link.slice(0, 40)}"`);

  // The style from the user's own image (File > Open an image as AdaIN's style…): no link can carry
  // it; then a file that is no image, refused in one line with the style kept.
  const mine = path.join(dir, 'my-style.png');
  fs.copyFileSync(path.join(root, 'assets', 'images', 'style-mosaic.png'), mine);
  const pickStyle = async (file, shot) => {
    const [chooser] = await Promise.all([page.waitForFileChooser({ timeout: 15000 }),
      chooseFromMenu(page, 'file', 1, shot)]);
    await chooser.accept([file]);
  };
  await pickStyle(mine, 'app-file-menu-1.png');
  r = await reportWhen(page, (r) => r.style === 'my-style.png' || r.error !== '');
  checkNotBlank(await screenshot(page, 'app-adain-own-style.png'), 'AdaIN with the user\'s style');
  console.log(`AdaIN, own style: style "${r.style}", ${r.pictures} pictures, note "${r.note}", error "${r.error}", link "${r.link}"`);
  check(r.style === 'my-style.png' && r.pictures === 3 && r.error === '' && r.note === 'opened my-style.png' &&
    r.link === '' && r.max_error < 1e-4, `AdaIN with the user's style: style "${r.style}", error "${r.error}"`);
  const notImage = path.join(dir, 'acts-as-style.npy');
  fs.writeFileSync(notImage, npyBytes([1, 3, 4, 4], Array.from({ length: 48 }, (_, i) => i)));
  await pickStyle(notImage, 'app-file-menu-1b.png');
  r = await reportWhen(page, (r) => r.error !== '');
  console.log(`AdaIN, a .npy as the style: "${r.error}", style "${r.style}"`);
  check(r.error === "'acts-as-style.npy' is not a PNG or JPEG image" && r.style === 'my-style.png' && r.pictures === 3,
    `a .npy as AdaIN's style: error "${r.error}", style "${r.style}"`);
}

// Copy as PyTorch (key T): the window and the code on the clipboard.
async function torchCode(page) {
  await page.keyboard.press('t');
  await settle(page);
  const r = await report(page);
  const code = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
  checkNotBlank(await screenshot(page, 'app-torch.png'), 'Copy as PyTorch');
  console.log(`T: PyTorch window ${r.torch_open}, ${r.torch_lines} lines, clipboard ${code.split('\n').length} lines`);
  check(r.torch_open && r.torch_lines > 5 && /import torch/.test(code), `Copy as PyTorch: window ${r.torch_open}, code "${code.slice(0, 60)}"`);
}

// The shared action table's last rows (views/actions.hpp): Esc closes the PyTorch window, F1 opens the
// shortcuts overlay and Esc closes it, B blanks the screen and any key brings the picture back.
async function overlays(page) {
  await page.keyboard.press('Escape');
  await frames(page);
  let r = await report(page);
  check(!r.torch_open, 'Esc left the PyTorch window open');
  await page.keyboard.press('F1');
  await frames(page);
  r = await report(page);
  checkNotBlank(await screenshot(page, 'app-help.png'), 'the F1 overlay');
  check(r.help, 'F1 opened no shortcuts overlay');
  await page.keyboard.press('Escape');
  await frames(page);
  r = await report(page);
  check(!r.help, 'Esc left the shortcuts overlay open');
  await page.keyboard.press('b');
  await frames(page);
  r = await report(page);
  const black = await screenshot(page, 'app-blank.png');
  const all = colours(black, [0, 0, black.width, black.height]);
  console.log(`F1: overlay ${r.help ? 'open' : 'shut'} after Esc; B: blank ${r.blank}, ${all.length} colour(s) on screen`);
  check(r.blank && all.length === 1 && all[0][0] === 0, `B: blank ${r.blank}, ${all.length} colours, the commonest ${hex(all[0][0])}`);
  await page.keyboard.press('x');
  await frames(page);
  r = await report(page);
  check(!r.blank, 'a key after B did not bring the picture back');
}

// A cut scene pasted: one error line, the state shown stays; then a smaller window.
async function cutSceneAndResize(page) {
  // The default state's scene pasted (a generated tensor again: the address bar holds its scene), then
  // the cut scene: what is shown stays.
  const classroom = '{"normlab_scene": 1, "tensor": {"source": "preset", "preset": "classroom"}, "norm": {"method": "batch"}}';
  let r = await pasteScene(page, sceneLine(classroom),
    (r) => r.method === 'BatchNorm2d' && r.shape.join(',') === '4,6,4,4' && r.error === '');
  check(/^normlab-scene:/.test(r.link), `the default state's link is "${r.link}"`);
  r = await pasteScene(page, 'normlab-scene:this-is-not*base64',
    (r) => r.method === 'BatchNorm2d' && r.shape.join(',') === '4,6,4,4');
  console.log(`cut scene: "${r.error}", ${r.method} on [${r.shape.join(', ')}]`);
  check(/^the scene in the URL: the text after "normlab-scene:" is cut or changed$/.test(r.error),
    `cut scene: error line "${r.error}"`);
  await screenshot(page, 'app-bad-scene.png');

  const before = r.heatmap_rect;
  await page.setViewport({ width: 1100, height: 720, deviceScaleFactor: 1 });
  await frames(page, 6);
  r = await report(page);
  console.log(`resized to 1100×720: canvas ${r.canvas.join('×')}, heatmap ${r.heatmap_rect.map(Math.round)} ` +
    `(was ${before.map(Math.round)})`);
  check(r.canvas[0] === 1100 && r.canvas[1] === 720, `after the resize the canvas is ${r.canvas}`);
  check(r.heatmap_rect[2] < before[2] && r.heatmap_rect[3] < before[3], 'the heatmap did not shrink with the window');
  checkHeatmap(await screenshot(page, 'app-small.png'), r, 'resized');

  // devicePixelRatio 2 (a HiDPI screen): twice the pixels, the UI and its fonts twice as large.
  await page.setViewport({ width: 1100, height: 720, deviceScaleFactor: 2 });
  await page.waitForFunction(() => JSON.parse(document.getElementById('normlab-app-report').textContent).ui_scale === 2,
    { timeout: 30000, polling: 100 }).catch(() => {});
  await frames(page);
  const small = r;
  r = await report(page);
  console.log(`devicePixelRatio 2: canvas ${r.canvas.join('×')}, ui scale ${r.ui_scale}, fonts rasterized at ` +
    `${r.raster_scale}, atlas ${r.font_atlas.join('×')}, heatmap ${r.heatmap_rect.map(Math.round)}`);
  check(r.canvas[0] === 2200 && r.canvas[1] === 1440 && r.ui_scale === 2,
    `at devicePixelRatio 2 the canvas is ${r.canvas} at UI scale ${r.ui_scale}`);
  // About twice as large (the text's widths, and so the layout's wrapping, are not exactly proportional).
  const grown = r.heatmap_rect[2] / small.heatmap_rect[2];
  check(grown > 1.8 && grown < 2.6, `the heatmap did not grow with the pixels (${small.heatmap_rect[2]} → ${r.heatmap_rect[2]})`);
  const hidpi = await screenshot(page, 'app-hidpi.png');
  checkNotBlank(hidpi, 'devicePixelRatio 2');
  checkHeatmap(hidpi, r, 'devicePixelRatio 2');
}

// SyncBN on 2 simulated devices (tests/web/scenes/sync_naive.json): the SyncBN view under the heatmap
// (the devices and the modes' table, from the WebGPU backend's SyncBN), in presenter mode too, then
// local mode on 3 devices.
async function syncView(page) {
  const naive = fs.readFileSync(path.join(here, 'scenes', 'sync_naive.json'), 'utf8');
  let r = await pasteScene(page, sceneLine(naive), (r) => r.sync && r.sync.devices === 2);
  console.log(`SyncBN: ${JSON.stringify(r.sync)}, ${r.stat_count} statistics, max error ${r.max_error}`);
  check(r.sync && r.sync.mode === 'naive' && r.stat_count === 2 && r.error === '',
    `SyncBN naive: the view shows ${JSON.stringify(r.sync)} with ${r.stat_count} statistics (${r.error})`);
  check(r.sync && r.sync.naive_error > 1e-3 && r.sync.need > 100,
    `SyncBN naive: naive error ${r.sync && r.sync.naive_error}, the view needs ${r.sync && r.sync.need} px`);
  check(r.max_error < 1e-4, `SyncBN naive: max error against the float64 reference ${r.max_error}`);
  check(r.lesson === '', `the pasted scene left the lesson "${r.lesson}" open`);
  const img = await screenshot(page, 'app-syncbn.png');
  checkNotBlank(img, 'SyncBN');
  checkHeatmap(img, r, 'SyncBN');
  await page.keyboard.press('p');
  await settle(page);
  r = await report(page);
  check(r.presenter && r.sync && r.sync.devices === 2, `SyncBN in presenter mode: ${r.presenter}, ${JSON.stringify(r.sync)}`);
  checkNotBlank(await screenshot(page, 'app-syncbn-presenter.png'), 'SyncBN in presenter mode');
  await page.keyboard.press('p');
  await settle(page);
  const local = fs.readFileSync(path.join(here, 'scenes', 'sync_local.json'), 'utf8');
  r = await pasteScene(page, sceneLine(local), (r) => r.sync && r.sync.devices === 3);
  check(r.sync && r.sync.mode === 'local' && r.stat_count === 4 && r.max_error < 1e-4 && !r.presenter,
    `SyncBN local: ${JSON.stringify(r.sync)}, ${r.stat_count} statistics, max error ${r.max_error}, presenter ${r.presenter}`);
}

// The File menu's Ctrl keys (the page keeps the browser's own action from running): Ctrl+S saves the
// scene, Ctrl+E the statistics, Ctrl+P a screenshot (downloads into `dir`), Ctrl+Shift+C copies the
// scene line, Ctrl+O opens the file chooser.
async function ctrlKeys(page, dir) {
  for (const f of ['normlab-scene.normlab.json', 'normlab-stats.json', 'normlab-batch-screen.png'])
    fs.rmSync(path.join(dir, f), { force: true });
  const chord = async (key, shift = false) => {
    await page.keyboard.down('Control');
    if (shift) await page.keyboard.down('Shift');
    await page.keyboard.press(key);
    if (shift) await page.keyboard.up('Shift');
    await page.keyboard.up('Control');
    await frames(page);
  };
  await page.evaluate(() => {
    navigator.clipboard.writeText('before Ctrl+Shift+C');
    window.ctrlKeysSeen = [];  // after the page's own listener (document before window in bubbling)
    window.addEventListener('keydown', (ev) => { if (ev.ctrlKey) window.ctrlKeysSeen.push([ev.code, ev.defaultPrevented]); });
  });
  await chord('KeyS');
  const scene = await downloaded(dir, 'normlab-scene.normlab.json');
  await chord('KeyE');
  const stats = await downloaded(dir, 'normlab-stats.json');
  await chord('KeyP');
  const shot = await downloaded(dir, 'normlab-batch-screen.png');
  await chord('KeyC', true);
  const line = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
  const [chooser] = await Promise.all([page.waitForFileChooser({ timeout: 10000 }).catch(() => null), chord('KeyO')]);
  if (chooser) await chooser.cancel();
  const r = await report(page);
  const seen = await page.evaluate(() => window.ctrlKeysSeen);
  const kept = seen.filter(([code, prevented]) => code.startsWith('Key') && !prevented).map(([code]) => code);
  check(kept.length === 0 && seen.length >= 5, `the browser's own action ran for Ctrl+${kept.join(', Ctrl+')} (${JSON.stringify(seen)})`);
  const saved = scene ? JSON.parse(scene.toString('utf8')) : null;
  console.log(`Ctrl keys: S scene ${scene ? scene.length + ' bytes' : 'none'}, E statistics ${stats ? stats.length + ' bytes' : 'none'}, ` +
    `P screenshot ${shot ? shot.length + ' bytes' : 'none'}, Shift+C "${line.slice(0, 30)}…", O chooser ${!!chooser}; error "${r.error}"`);
  check(saved && saved.norm && saved.norm.method === 'batch' && saved.norm.sync_devices === 3,
    `Ctrl+S: the scene download ${scene ? scene.toString('utf8').slice(0, 80) : 'is missing'}`);
  check(stats && JSON.parse(stats.toString('utf8')).sync_devices === 3, 'Ctrl+E: no statistics download of the shown SyncBN state');
  check(shot && decodePng(shot).width === 1280, 'Ctrl+P: no 1280-pixel screenshot download');
  check(line.startsWith('normlab-scene:'), `Ctrl+Shift+C: the clipboard holds "${line.slice(0, 40)}"`);
  check(chooser !== null, 'Ctrl+O opened no file chooser');
}

async function shell(browser, url) {
  const layer = fs.readFileSync(path.join(here, 'scenes', 'layer.json'), 'utf8');
  await browser.defaultBrowserContext().overridePermissions(new URL(url).origin,
    ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
  const { page } = await openShell(browser, url + 'app.html#' + sceneLine(layer), 1280, 800);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'normlab-app-files-'));  // the downloads
  const cdp = await page.target().createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir });
  await urlScene(page);
  await language(page);
  await clickHighlight(page);
  await lesson(page);
  await experiment(page);
  await batchNoise(page);
  await files(page, dir);
  await classroom(page, dir);
  await syncView(page);
  await ctrlKeys(page, dir);
  await cutSceneAndResize(page);
  await torchCode(page);
  await overlays(page);
  await page.close();
}

async function noWebgpu(url) {
  const { browser, close } = await launch({ webgpu: false });
  try {
    const page = await browser.newPage();
    await page.goto(url + 'app.html', { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.getAttribute('data-normlab-state') !== 'loading',
      { timeout: 30000 });
    const r = await page.evaluate(() => ({ state: document.body.getAttribute('data-normlab-state'),
      text: document.getElementById('normlab-no-webgpu').textContent }));
    console.log(`no WebGPU: state ${r.state}, message "${r.text}"`);
    check(r.state === 'no-webgpu' && /needs WebGPU/.test(r.text) && /Chrome and Edge 113/.test(r.text),
      `without WebGPU app.html ended in state ${r.state}: "${r.text}"`);
  } finally {
    await close();
  }
}

async function main() {
  const started = Date.now();
  const { server, url } = await serve();
  try {
    const { browser, close } = await launch();
    try {
      await shell(browser, url);
    } finally {
      await close();
    }
    await noWebgpu(url);
  } finally {
    server.close();
  }
  console.log(`screenshots in ${shots}`);
  console.log(`app: ${problems.length ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const p of problems) console.log('  ' + p);
  process.exit(problems.length ? 1 : 0);
}

main().catch((e) => {
  console.error(`web app test failed: ${e.stack || e}`);
  process.exit(1);
});
