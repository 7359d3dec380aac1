// normlab's web tests (ctest label web): the browser edition in headless Chromium on WebGPU.
//   node web_test.mjs kernels           the WGSL kernels against the float64 Reference (?test=kernels)
//   node web_test.mjs stats CLI         ?stats=1 pages against `CLI --scene F --stats` for scenes/*.json
//   node web_test.mjs errors            bad scenes, a tensor over the binding limit, a lost device: one line each
//   node web_test.mjs files CLI         a .npy opened and a bad file dropped, a scene file dropped, its link
//                                       reopened, the downloads; statistics against normlab-cli's
//   node web_test.mjs no-webgpu         Chromium with WebGPU turned off: one line says what is missing,
//                                       and the page computes on the CPU (cpu_test.mjs checks its numbers)
// Each fails (exit 1) with what went wrong, including when build-web/site is missing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, launch, openPage, root, sceneLine, npyBytes, dropFile, statsDiff, cliSceneStats } from './browser.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const problems = [];
const check = (ok, what) => { if (!ok) problems.push(what); };

async function kernels(url, browser) {
  const r = await openPage(browser, url + '?test=kernels', 240000);
  check(r.state === 'done', `kernel test page ended in state ${r.state}: ${r.error}`);
  if (!r.kernelTest) return check(false, 'no kernel report on the page; console:\n' + r.console.join('\n'));
  const k = JSON.parse(r.kernelTest);
  console.log(`kernels: ${k.cases} cases on ${k.device} in ${Math.round(k.ms)} ms, ${k.pipelines} pipelines, ` +
    `paths ${JSON.stringify(k.paths)}; backward: ${k.grad_cases} cases, paths ${JSON.stringify(k.grad_paths)}`);
  console.log(`  ms per group: ${JSON.stringify(k.group_ms)}`);
  for (const f of k.failures) console.log(`  FAIL [${f.group}] ${f.case}: ${f.what}`);
  check(k.failures.length === 0, `${k.failures.length} kernel cases differ from the float64 reference`);
  check(k.cases >= 500, `only ${k.cases} kernel cases ran`);
  for (const m of ['batch', 'layer', 'instance', 'group', 'rms'])
    check((k.methods[m] || 0) >= 50, `method ${m} ran ${k.methods[m] || 0} cases`);
  for (const p of ['fused', 'split', 'split_many_chunks', 'looped', 'running', 'vec4', 'scalar'])
    check((k.paths[p] || 0) > 0, `kernel path ${p} never ran`);
  check(k.grad_cases >= 400, `only ${k.grad_cases} backward cases ran`);
  for (const p of ['rows', 'columns', 'eval', 'chunked', 'path fused', 'path looped', 'path split', 'path eval',
    'table fused', 'table looped', 'table eval', 'params from stats', 'params from rows', 'params pass'])
    check((k.grad_paths[p] || 0) > 0, `backward path ${p} never ran`);
  check(k.backward_negative_control && k.backward_negative_control.detected,
    'the backward comparison did not see gradients checked against another dy');
  check(k.negative_control && k.negative_control.detected,
    'the comparison did not see a result checked against a wrong reference');
  check(/\(WebGPU\)$/.test(k.device), `device "${k.device}" does not name a WebGPU adapter`);
  histogram(k.histogram);
  heatmap(k.heatmap);
  session(k.session);
  sync(k.sync);
}

// SyncBN on the WebGPU backend's simulated devices: tests/gpu/test_sync_bn.cpp's twin in the page.
function sync(s) {
  if (!s) return check(false, 'no sync report in the kernel test');
  console.log(`sync: ${s.cases} cases, ${s.checks} checks in ${Math.round(s.ms)} ms`);
  for (const f of s.failures) console.log(`  FAIL [sync] ${f.case}: ${f.what}`);
  check(s.failures.length === 0, `${s.failures.length} SyncBN checks failed`);
  check(s.cases >= 26 && s.checks >= 250, `only ${s.cases} SyncBN cases (${s.checks} checks) ran`);
}

// The app's model (engine/session) on the WebGPU backend: tests/session's twin in the page.
function session(s) {
  if (!s) return check(false, 'no session report in the kernel test');
  console.log(`session: ${s.cases} cases, ${s.checks} checks in ${Math.round(s.ms)} ms`);
  for (const f of s.failures) console.log(`  FAIL [session] ${f.case}: ${f.what}`);
  check(s.failures.length === 0, `${s.failures.length} session checks failed`);
  check(s.cases >= 2 && s.checks >= 30, `only ${s.cases} session cases (${s.checks} checks) ran`);
}

// The WGSL heatmap fill's part: every pixel of every mode as the CPU reference draws it.
function heatmap(h) {
  if (!h) return check(false, 'no heatmap report in the kernel test');
  console.log(`heatmap: ${h.cases} images, ${h.pixels} pixels in ${Math.round(h.ms)} ms, ` +
    `${h.cells_below_pixel} layouts with cells below a pixel, methods ${JSON.stringify(h.methods)}`);
  for (const f of h.failures) console.log(`  FAIL [heatmap] ${f.case}: ${f.what}`);
  check(h.failures.length === 0, `${h.failures.length} heatmap images differ from the CPU reference`);
  check(h.cases >= 100, `only ${h.cases} heatmap images were checked`);
  check(h.selected > 0 && h.selected < h.cases, `heatmap: ${h.selected} of ${h.cases} images with a selection`);
  for (const m of ['batch', 'layer', 'instance', 'group', 'rms'])
    check((h.methods[m] || 0) >= 2, `heatmap: method ${m} ran ${h.methods[m] || 0} configurations`);
  for (const m of ['0', '1', '2', '3']) check((h.modes[m] || 0) > 0, `heatmap: mode ${m} never ran`);
  check(h.cells_below_pixel > 0, 'heatmap: no layout with cells smaller than a pixel');
  check(h.zoomed_windows > 0, 'heatmap: no zoomed window (a panel\'s view of a zoomed grid) was filled');
  check(h.negative_control_detected, 'heatmap: the comparison did not see the image of another selection');
}

// The WGSL histogram's part of the kernel report: bins equal to the CPU count on every method.
function histogram(h) {
  if (!h) return check(false, 'no histogram report in the kernel test');
  console.log(`histogram: ${h.cases} cases, ${h.values} values (${h.near_edge} within 1e-4 of a bin edge) ` +
    `in ${Math.round(h.ms)} ms, methods ${JSON.stringify(h.methods)}`);
  for (const f of h.failures) console.log(`  FAIL [histogram] ${f.case}: ${f.what}`);
  check(h.failures.length === 0, `${h.failures.length} histograms differ from the CPU count`);
  check(h.cases >= 100, `only ${h.cases} histogram cases ran`);
  for (const m of ['batch', 'layer', 'instance', 'group', 'rms'])
    check((h.methods[m] || 0) >= 3, `histogram: method ${m} ran ${h.methods[m] || 0} configurations`);
  check(h.bad_bins_refused === 2, `histogram: ${h.bad_bins_refused} of 2 bad bin counts refused`);
  check(h.negative_control_detected, 'histogram: the comparison did not see the bins of another set');
}

async function stats(url, browser, cli) {
  if (!cli || !fs.existsSync(cli)) return check(false, `normlab-cli not found at ${cli} (build it in build/)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'normlab-web-stats-'));
  const scenes = fs.readdirSync(path.join(here, 'scenes')).filter((f) => f.endsWith('.json')).sort();
  const got = {};
  const wants = cliSceneStats(cli, dir, scenes.map((f) => path.join(here, 'scenes', f)));
  for (const f of scenes) {
    const file = path.join(here, 'scenes', f);
    const r = await openPage(browser, url + '?stats=1#' + sceneLine(fs.readFileSync(file, 'utf8')));
    if (r.state !== 'done' || !r.stats) {
      check(false, `${f}: the page ended in state ${r.state} without statistics: ${r.error}`);
      continue;
    }
    const page = JSON.parse(r.stats);
    const want = await wants.get(file);
    got[f] = { want, page };
    const diff = statsDiff(want, page);
    console.log(`stats ${f}: ${want.norm} ${JSON.stringify(want.shape)}, ${diff.length} differences, ` +
      `page error ${page.max_abs_error_vs_reference}, device ${page.device}`);
    diff.slice(0, 10).forEach((d) => console.log('  ' + d));
    check(diff.length === 0, `${f}: the page's statistics differ from normlab-cli's`);
    check(/\(WebGPU\)$/.test(page.device), `${f}: device "${page.device}" does not name a WebGPU adapter`);
    check(page.max_abs_error_vs_reference !== null && page.max_abs_error_vs_reference <= 1e-4,
      `${f}: the page's max error against the float64 reference is ${page.max_abs_error_vs_reference}`);
    check(r.summary && r.summary.includes(`${want.torch_module} on [${want.shape.join(', ')}]`) &&
      r.summary.includes(`device: ${page.device}`) && r.summary.includes('max |y - float64 reference|'),
      `${f}: the summary does not name ${want.torch_module}, the shape, the adapter and the max error: ${r.summary}`);
  }
  // The comparison must see a different scene's statistics as different.
  const names = Object.keys(got);
  if (names.length >= 2)
    check(statsDiff(got[names[0]].want, got[names[1]].page).length > 0,
      'statsDiff saw no difference between two scenes');
  check(names.length === scenes.length && scenes.length >= 5, `${names.length} of ${scenes.length} scenes compared`);
  fs.rmSync(dir, { recursive: true, force: true });
}

async function expectOneError(browser, url, what, pattern) {
  const r = await openPage(browser, url);
  console.log(`${what}: state ${r.state}, error "${r.error}"`);
  check(r.state === 'error', `${what}: the page ended in state ${r.state}`);
  check(r.error && !r.error.includes('\n') && pattern.test(r.error), `${what}: error line "${r.error}" !~ ${pattern}`);
  check(!r.summary && !r.stats, `${what}: the page shows results besides the error`);
}

async function errors(url, browser) {
  await expectOneError(browser, url + '?stats=1#normlab-scene:this-is-not*base64', 'cut scene',
    /^normlab: the scene in the URL: the text after "normlab-scene:" is cut or changed$/);
  const badMethod = JSON.stringify({ normlab_scene: 1, norm: { method: 'colournorm' } });
  await expectOneError(browser, url + '#' + sceneLine(badMethod), 'unknown method',
    /^normlab: the scene in the URL: .*unknown method 'colournorm'/);
  const big = JSON.stringify({ normlab_scene: 1, tensor: { source: 'generated', shape: [65, 64, 256, 256] },
    norm: { method: 'layer' } });
  await expectOneError(browser, url + '#' + sceneLine(big), 'tensor over the binding limit',
    /^normlab: the tensor \[65, 64, 256, 256\] needs 1090519040 bytes .*maxStorageBufferBindingSize = \d+ bytes\)$/);
  const wasm = JSON.stringify({ normlab_scene: 1, tensor: { source: 'generated', shape: [64, 64, 256, 256] },
    norm: { method: 'batch' } });
  await expectOneError(browser, url + '#' + sceneLine(wasm), 'tensor over the page memory',
    /^normlab: the tensor \[64, 64, 256, 256\] needs about 4096 MB of the page's memory .*\(2048 MB\)$/);
  const groups = JSON.stringify({ normlab_scene: 1, tensor: { source: 'generated', shape: [2, 6, 4, 4] },
    norm: { method: 'group', groups: 4 } });
  await expectOneError(browser, url + '#' + sceneLine(groups), 'PyTorch error',
    /Expected number of channels in input to be divisible by num_groups/);
  await lostDevice(browser, url);
}

// A device lost after the page has finished: the page says so in one line.
async function lostDevice(browser, url) {
  const page = await browser.newPage();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => document.body.getAttribute('data-normlab-state') === 'done', { timeout: 60000 });
  const destroyed = await page.evaluate(() => {
    // library_webgpu.js keeps the device in its table (normlab.js is a classic script: WebGPU is global).
    const dev = Object.values(WebGPU.mgrDevice.objects).map((o) => o.object).find((o) => o instanceof GPUDevice);
    if (!dev) return false;
    dev.destroy();
    return true;
  });
  check(destroyed, 'lost device: no GPUDevice found to destroy');
  await page.waitForFunction(() => document.body.getAttribute('data-normlab-state') === 'error', { timeout: 30000 })
    .catch(() => {});
  const line = await page.evaluate(() => {
    const el = document.getElementById('normlab-error');
    return el.hidden ? null : el.textContent;
  });
  console.log(`lost device: error "${line}"`);
  check(line && !line.includes('\n') && /^normlab: the WebGPU device was lost.*reload the page/.test(line),
    `lost device: error line "${line}"`);
  await page.close();
}

// What the page shows once it has finished the current open.
async function settled(page) {
  await page.waitForFunction(() => document.body.getAttribute('data-normlab-state') !== 'loading',
    { timeout: 60000, polling: 100 });
  return page.evaluate(() => {
    const text = (id) => { const el = document.getElementById(id); return el && !el.hidden ? el.textContent : null; };
    return { state: document.body.getAttribute('data-normlab-state'), error: text('normlab-error'),
      note: text('normlab-note'), summary: text('normlab-summary'), stats: text('normlab-stats'), url: location.href };
  });
}

// Drops a file on the page (browser.mjs) and waits for what the page shows.
async function drop(page, name, bytes) {
  await dropFile(page, name, bytes);
  return settled(page);
}

function cliStats(cli, dir, args) {
  const out = path.join(dir, 'cli-stats.json');
  execFileSync(cli, [...args, '--stats', out, '--quiet'], { stdio: 'inherit' });
  return JSON.parse(fs.readFileSync(out, 'utf8'));
}

async function files(url, browser, cli) {
  if (!cli || !fs.existsSync(cli)) return check(false, `normlab-cli not found at ${cli} (build it in build/)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'normlab-web-files-'));
  const page = await browser.newPage();
  const cdp = await page.target().createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir });
  await page.goto(url + '?stats=1', { waitUntil: 'load' });
  const r = await settled(page);
  check(r.state === 'done', `first result: state ${r.state} (${r.error})`);
  await openedFiles(page, cli, dir);
  const want = await droppedScene(page, browser, cli, dir);
  await downloads(page, cli, dir, want);
  await page.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

// Files through "Open…" (a .npy, an image) against normlab-cli's statistics, and bad files dropped:
// one line each, the result kept.
async function openedFiles(page, cli, dir) {
  let r;
  // A .npy through "Open…": the method (BatchNorm) stays, the statistics are normlab-cli's.
  const shape = [3, 4, 2, 5];
  const x = Array.from({ length: 120 }, (_, i) => Math.sin(i * 1.7) * 2 + (i % 4));
  const npy = path.join(dir, 'acts.npy');
  fs.writeFileSync(npy, npyBytes(shape, x));
  await (await page.$('#normlab-open')).uploadFile(npy);
  r = await settled(page);
  console.log(`open acts.npy: state ${r.state}, ${r.summary && r.summary.split('\n')[0]}`);
  check(r.state === 'done' && r.summary && r.summary.includes('[3, 4, 2, 5]') && r.summary.includes('acts.npy'),
    `acts.npy: state ${r.state}, error ${r.error}, summary ${r.summary}`);
  const diffNpy = r.stats ? statsDiff(cliStats(cli, dir, ['--norm', 'batch', '--input', npy]), JSON.parse(r.stats)) : ['no stats'];
  check(diffNpy.length === 0, `acts.npy: the page's statistics differ from normlab-cli's: ${diffNpy.slice(0, 3)}`);
  check(!r.url.includes('#') && r.note && /a link carries generated tensors, presets and the site's images/.test(r.note),
    `acts.npy: the address ${r.url} or the note "${r.note}" claims a link`);

  // An image through "Open…": the tensor is its 1×3×H×W pixels.
  const png = path.join(root, 'assets', 'images', 'content-stripes.png');
  await (await page.$('#normlab-open')).uploadFile(png);
  r = await settled(page);
  const diffPng = r.stats ? statsDiff(cliStats(cli, dir, ['--norm', 'batch', '--image', png]), JSON.parse(r.stats))
    : ['no stats'];
  console.log(`open content-stripes.png: state ${r.state}, ${diffPng.length} differences`);
  check(r.state === 'done' && r.summary.includes('content-stripes.png') && diffPng.length === 0,
    `content-stripes.png: state ${r.state}, error ${r.error}, ${diffPng.slice(0, 3)}`);
  const before = r.summary;

  // A bad file dropped: one line, the result stays.
  r = await drop(page, 'broken.npy', Buffer.from('not a numpy file at all'));
  console.log(`drop broken.npy: state ${r.state}, error "${r.error}"`);
  check(r.error && !r.error.includes('\n') && /^normlab: broken\.npy: /.test(r.error), `broken.npy: error line "${r.error}"`);
  check(r.summary === before, 'broken.npy: the previous result changed');
  r = await drop(page, 'notes.txt', Buffer.from('hello'));
  check(/^normlab: 'notes\.txt' is not a \.npy, PNG, JPEG or scene \(\.json\) file/.test(r.error || ''),
    `notes.txt: error line "${r.error}"`);
}

// A scene dropped, its link and a scene pasted into the address bar, against normlab-cli; the
// statistics normlab-cli gives for the dropped scene (shown again at the end).
async function droppedScene(page, browser, cli, dir) {
  let r;
  // A scene file dropped: it shows, the address bar holds it, and that link reproduces it.
  const sceneText = fs.readFileSync(path.join(here, 'scenes', 'group.json'), 'utf8');
  r = await drop(page, 'group.json', Buffer.from(sceneText));
  const want = cliStats(cli, dir, ['--scene', path.join(here, 'scenes', 'group.json')]);
  const diffScene = r.stats ? statsDiff(want, JSON.parse(r.stats)) : ['no stats'];
  console.log(`drop group.json: state ${r.state}, ${diffScene.length} differences, url ${r.url.slice(0, 80)}…`);
  check(r.state === 'done' && diffScene.length === 0, `group.json: state ${r.state}, ${diffScene.slice(0, 3)}`);
  check(r.url.includes('#normlab-scene:'), `group.json: the address ${r.url} holds no scene`);
  await page.click('#normlab-copy-link');
  r = await settled(page);
  const link = await page.$eval('#normlab-link', (el) => el.value);
  check(link === r.url, `Copy link gave ${link}, the address is ${r.url}`);
  const again = await openPage(browser, link);
  const diffLink = again.stats ? statsDiff(want, JSON.parse(again.stats)) : ['no stats'];
  check(again.state === 'done' && diffLink.length === 0, `the link: state ${again.state}, ${diffLink.slice(0, 3)}`);

  // A scene pasted into the address bar opens without a reload.
  const evalScene = path.join(here, 'scenes', 'batch_eval.json');
  await page.evaluate((line) => { location.hash = line; }, sceneLine(fs.readFileSync(evalScene, 'utf8')));
  await new Promise((res) => setTimeout(res, 200));
  r = await settled(page);
  const diffHash = r.stats ? statsDiff(cliStats(cli, dir, ['--scene', evalScene]), JSON.parse(r.stats)) : ['no stats'];
  check(r.state === 'done' && diffHash.length === 0, `pasted scene: state ${r.state}, ${diffHash.slice(0, 3)}`);
  r = await drop(page, 'group.json', Buffer.from(sceneText));
  return want;
}

// The page's downloads against normlab-cli: the scene, the statistics (`want`) and y.
async function downloads(page, cli, dir, want) {
  // Downloads: the scene (which opens again as the same state), the statistics and y.
  for (const b of ['scene', 'stats', 'y']) await page.click(`[data-download=${b}]`);
  const names = ['normlab-scene.normlab.json', 'normlab-stats.json', 'normlab-y.npy'];
  const t0 = Date.now();
  while (!names.every((n) => fs.existsSync(path.join(dir, n))) && Date.now() - t0 < 20000)
    await new Promise((res) => setTimeout(res, 100));
  check(names.every((n) => fs.existsSync(path.join(dir, n))), `downloads missing: ${fs.readdirSync(dir)}`);
  if (names.every((n) => fs.existsSync(path.join(dir, n)))) {
    const saved = path.join(dir, names[0]);
    check(statsDiff(want, cliStats(cli, dir, ['--scene', saved])).length === 0, 'the saved scene is another state');
    check(statsDiff(want, JSON.parse(fs.readFileSync(path.join(dir, names[1]), 'utf8'))).length === 0,
      'the saved statistics differ');
    const yCli = path.join(dir, 'y-cli.npy');
    execFileSync(cli, ['--scene', saved, '--output', yCli, '--quiet'], { stdio: 'inherit' });
    const a = fs.readFileSync(yCli), b = fs.readFileSync(path.join(dir, names[2]));
    const fa = new Float32Array(a.buffer, a.byteOffset + 128, (a.length - 128) / 4);
    const fb = new Float32Array(b.buffer, b.byteOffset + 128, (b.length - 128) / 4);
    const worst = fa.length === fb.length ? fa.reduce((m, v, i) => Math.max(m, Math.abs(v - fb[i])), 0) : Infinity;
    console.log(`downloads: ${names.join(', ')}; y against normlab-cli's: max difference ${worst}`);
    check(a.subarray(0, 128).equals(b.subarray(0, 128)) && worst <= 1e-5, `the saved y differs (${worst})`);
  }
}

async function noWebgpu(url) {
  const { browser, close } = await launch({ webgpu: false });
  try {
    const r = await openPage(browser, url);
    console.log(`no WebGPU: state ${r.state}, message "${r.noWebgpu}"`);
    check(r.state === 'done', `the page ended in state ${r.state} (error: ${r.error})`);
    check(r.noWebgpu && /^No WebGPU: .*no WebGPU adapter/.test(r.noWebgpu) && /on the CPU instead/.test(r.noWebgpu) &&
      /Chrome and Edge 113/.test(r.noWebgpu), `the line does not say what is missing, what runs instead and where the GPU runs it: ${r.noWebgpu}`);
    check(r.summary && /device: CPU — /.test(r.summary), `without WebGPU the summary names no CPU device: ${r.summary}`);
  } finally {
    await close();
  }
}

async function main() {
  const [what, arg] = process.argv.slice(2);
  const started = Date.now();
  const { server, url } = await serve();
  try {
    if (what === 'no-webgpu') {
      await noWebgpu(url);
    } else {
      const { browser, close } = await launch();
      try {
        if (what === 'kernels') await kernels(url, browser);
        else if (what === 'stats') await stats(url, browser, arg);
        else if (what === 'errors') await errors(url, browser);
        else if (what === 'files') await files(url, browser, arg);
        else throw new Error(`unknown test "${what}" (kernels, stats CLI, errors, files CLI, no-webgpu)`);
      } finally {
        await close();
      }
    }
  } finally {
    server.close();
  }
  console.log(`${what}: ${problems.length ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const p of problems) console.log('  ' + p);
  process.exit(problems.length ? 1 : 0);
}

main().catch((e) => {
  console.error(`web test failed: ${e.stack || e}`);
  process.exit(1);
});
