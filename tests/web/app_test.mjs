// The ImGui shell (app.html) in headless Chromium, one page load: node app_test.mjs [SHOTS_DIR]
//   - the first frame of the URL's scene (LayerNorm over [H, W] on [3, 4, 5, 6]): the page's report
//     (web/src/web_app.hpp) names a WebGPU adapter and no CJK font (English), the canvas is the window's
//     size, the screenshot is not blank, and the heatmap region holds exactly one colour per
//     statistic (12) plus the gaps' (statistics mode), each cell the palette's colour, not a blend;
//   - the default state pasted into the address bar (BatchNorm2d on [4, 6, 4, 4]: 6 colours);
//   - the language: a synthetic click on the Language menu and on "Chinese (Simplified)" (the CJK font
//     fetched then) changes the menu bar's
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
//     WebGPU: the line saying so, the app running on the CPU (cpu_test.mjs checks its numbers); last, Copy as PyTorch (key T: the window, the code on the clipboard), Esc
//     closing it, the F1 overlay (Esc closes it) and the blank screen (B; any key brings the picture back).
// The screenshots are written to SHOTS_DIR (default: a temporary folder, printed) to be looked at.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, launch, inBrowser, sceneLine, npyBytes, dropFile } from './browser.mjs';
import {
  here,
  problems,
  check,
  shots,
  openShell,
  report,
  frames,
  settle,
  screenshot,
  hex,
  checkHeatmap,
  checkNotBlank,
  barDiff,
  pasteScene,
  pixel,
  chooseFromMenu,
  downloaded,
  reportWhen,
} from './app_page.mjs';
import { classroom, torchCode, overlays, syncView, ctrlKeys } from './app_test_classroom.mjs';

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
  // English: no CJK font fetched yet (it comes when Chinese is chosen: language() below).
  check(!r.cjk_font && r.missing_glyphs === '', `CJK font ${r.cjk_font}, glyphs missing: "${r.missing_glyphs}"`);
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
  // The CJK font is fetched now, then the atlas made again (seconds on SwiftShader).
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans', { timeout: 60000 }).catch(() => {});
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

// A click on an element of the heatmap selects its statistic: the group keeps its colour, every other
// statistic's tiles are dimmed (heatmap.wgsl), the Explain panel and the table follow; a right click clears.
async function clickHighlight(page) {
  let r = await report(page);
  const before = await screenshot(page, 'app-before-click.png');
  const inCell = (p) => [p.at[0] + r.cell * 0.2, p.at[1] + r.cell * 0.2];  // off the cell's printed value
  const [first, , last] = r.probes;
  check(first.stat !== last.stat, `the probes share statistic ${first.stat}`);
  // A person's pointer rests on the cell before the click (the heatmap is an ImGui item that lets the Fit
  // button overlap it: it takes a press only where the frame before saw the pointer over it).
  await page.mouse.move(...inCell(first));
  await settle(page);
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
  await page.mouse.move(...inCell(last));
  await settle(page);
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
    `${r.raster_scale}, atlas ${r.font_atlas.join('×')}, heatmap ${r.heatmap_rect_px.map(Math.round)} canvas px, ` +
    `${r.heatmap_rect.map(Math.round)} CSS px`);
  check(r.canvas[0] === 2200 && r.canvas[1] === 1440 && r.ui_scale === 2,
    `at devicePixelRatio 2 the canvas is ${r.canvas} at UI scale ${r.ui_scale}`);
  // About twice as large (the text's widths, and so the layout's wrapping, are not exactly proportional).
  const grown = r.heatmap_rect_px[2] / small.heatmap_rect_px[2];
  check(grown > 1.8 && grown < 2.6,
    `the heatmap did not grow with the pixels (${small.heatmap_rect_px[2]} → ${r.heatmap_rect_px[2]})`);
  const css = r.heatmap_rect[2] / small.heatmap_rect[2];  // in CSS pixels about the same size
  check(css > 0.9 && css < 1.3, `the heatmap's CSS width changed ${small.heatmap_rect[2]} → ${r.heatmap_rect[2]}`);
  const hidpi = await screenshot(page, 'app-hidpi.png');
  checkNotBlank(hidpi, 'devicePixelRatio 2');
  checkHeatmap(hidpi, r, 'devicePixelRatio 2');
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
    check(r.state === 'done' && /^No WebGPU: /.test(r.text) && /on the CPU instead/.test(r.text),
      `without WebGPU app.html ended in state ${r.state}: "${r.text}"`);
  } finally {
    await close();
  }
}

async function main() {
  const started = Date.now();
  const { server, url } = await serve();
  try {
    await inBrowser({}, (browser) => shell(browser, url));
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
