// The web app test's classroom part (app_test.mjs runs it on the same page): an exercise scene and
// the Exercise window, presenter mode's method buttons, Copy and Paste scene, the screenshot and figure
// downloads, AdaIN's style; SyncBN's view; the File menu's Ctrl keys; Copy as PyTorch, the F1 overlay
// and the blank screen.
import fs from 'node:fs';
import path from 'node:path';
import { root, sceneLine, npyBytes } from './browser.mjs';
import { decodePng } from './png.mjs';
import {
  here,
  check,
  report,
  frames,
  settle,
  screenshot,
  colours,
  hex,
  checkHeatmap,
  checkNotBlank,
  pasteScene,
  pixel,
  chooseFromMenu,
  downloaded,
  sceneOf,
  pasteText,
  reportWhen,
} from './app_page.mjs';

// An exercise, presenter mode's buttons, the scene line copied and pasted, the PNG downloads (into
// `dir`) and an image with AdaIN.
export async function classroom(page, dir) {
  const classroomScene = { normlab_scene: 1, tensor: { source: 'preset', preset: 'classroom' }, norm: { method: 'batch' } };
  await exerciseAndPresenter(page, classroomScene);
  await copyAndPaste(page, classroomScene);
  await pngDownloads(page, dir);
  await adainImages(page, dir);
}

// An exercise that hides the statistics and locks the method: the key 2 refused, File > Exercise's
// window opened and closed, presenter mode.
async function exerciseAndPresenter(page, classroomScene) {
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
}

// Copy scene (with the heatmap's mode in its view), Ctrl+V of another scene, File > Paste scene.
async function copyAndPaste(page, classroomScene) {
  let r;
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
}

// The figure and the screenshot downloaded as PNGs (into `dir`), against the screen.
async function pngDownloads(page, dir) {
  let r;
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
}

// AdaIN: the site's images, the user's own style image, and a file that is no image refused.
async function adainImages(page, dir) {
  let r;
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
export async function torchCode(page) {
  await page.keyboard.press('t');
  await settle(page);
  const r = await report(page);
  const code = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
  checkNotBlank(await screenshot(page, 'app-torch.png'), 'Copy as PyTorch');
  console.log(`T: PyTorch window ${r.torch_open}, ${r.torch_lines} lines, clipboard ${code.split('\n').length} lines`);
  check(r.torch_open && r.torch_lines > 5 && /import torch/.test(code), `Copy as PyTorch: window ${r.torch_open}, code "${code.slice(0, 60)}"`);
}

// The shared action table's last rows (normlab/views/actions.hpp): Esc closes the PyTorch window, F1 opens the
// shortcuts overlay and Esc closes it, B blanks the screen and any key brings the picture back.
export async function overlays(page) {
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

// SyncBN on 2 simulated devices (tests/web/scenes/sync_naive.json): the SyncBN view under the heatmap
// (the devices and the modes' table, from the WebGPU backend's SyncBN), in presenter mode too, then
// local mode on 3 devices.
export async function syncView(page) {
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
export async function ctrlKeys(page, dir) {
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
