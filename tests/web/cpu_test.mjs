// Both pages in Chromium with WebGPU turned off (--disable-features=WebGPU: Chromium 156 gives no adapter),
// where they compute on the CPU backend (engine/cpu): node cpu_test.mjs SHOTS_DIR NORMLAB_CLI
//   - the results page on every scene of tests/web/scenes: the one no-WebGPU line (what is missing,
//     the CPU instead), the state "done", the device "CPU — …" in the summary and the statistics JSON,
//     the statistics equal to normlab-cli's for the same scene, the float64 check beside it;
//   - a tensor over the CPU backend's element limit: one error line naming the limit;
//   - a browser without navigator.gpu at all (deleted before the page's script runs): its reason, the CPU;
//   - WebGPU on but requestDevice() failing: the program itself falls back to the CPU, saying why;
//   - the app page (app.html) on layer.json: the report's device (its status bar) "CPU — …", a panel's title
//     naming the CPU (Histograms (CPU)), the float64 check, the
//     heatmap drawn by the CPU fill (one tile colour per statistic), a screenshot (app-cpu.png in
//     SHOTS_DIR), File > Save statistics (Ctrl+E) equal to normlab-cli's, the compare view (key C: four
//     more heatmaps filled on the CPU) and the gradient view (key D: ∂y_k/∂x from the CPU backward).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, launch, inBrowser, openPage, sceneLine, statsDiff, cliSceneStats } from './browser.mjs';
import { problems, check, shots, openShell, report, settle, screenshot, checkHeatmap, checkNotBlank, frames, downloaded }
  from './app_page.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
// The line page_common.js shows without WebGPU: "No WebGPU: REASON. normlab computes on the CPU instead …";
// the pages' device is then "CPU — REASON". Returns REASON, or null for another line.
const noWebgpuReason = (line) => {
  const m = /^No WebGPU: (.+)\. normlab computes on the CPU instead [^\n]*Chrome and Edge 113[^\n]*$/.exec(line || '');
  return m ? m[1] : null;
};

// normlab-cli's statistics of each scene of tests/web/scenes, run in the background from the start (main).
let cliRuns = new Map();
const cliStats = (file) => cliRuns.get(file) || Promise.reject(new Error(`no normlab-cli run of ${file}`));

// Returns the reason the pages give for having no WebGPU.
async function resultsPage(browser, url, cli, dir) {
  const scenes = fs.readdirSync(path.join(here, 'scenes')).filter((f) => f.endsWith('.json')).sort();
  let compared = 0, why = null;
  for (const f of scenes) {
    const file = path.join(here, 'scenes', f);
    const r = await openPage(browser, url + '?stats=1#' + sceneLine(fs.readFileSync(file, 'utf8')));
    const want = await cliStats(file);
    if (compared === 0) console.log(`no-WebGPU line: "${r.noWebgpu}"`);
    const reason = noWebgpuReason(r.noWebgpu);
    check(reason, `${f}: the no-WebGPU line says "${r.noWebgpu}"`);
    why = why || reason;
    if (r.state !== 'done' || !r.stats) {
      check(false, `${f}: the page ended in state ${r.state} without statistics: ${r.error}`);
      continue;
    }
    const page = JSON.parse(r.stats);
    const diff = statsDiff(want, page);
    console.log(`cpu ${f}: ${want.norm} ${JSON.stringify(want.shape)}, ${diff.length} differences, ` +
      `page error ${page.max_abs_error_vs_reference}, device "${page.device}"`);
    diff.slice(0, 10).forEach((d) => console.log('  ' + d));
    check(diff.length === 0, `${f}: the CPU page's statistics differ from normlab-cli's`);
    check(page.device === `CPU — ${reason}`, `${f}: device "${page.device}" does not say CPU and why`);
    check(page.max_abs_error_vs_reference !== null && page.max_abs_error_vs_reference <= 1e-4,
      `${f}: max error against the float64 reference ${page.max_abs_error_vs_reference}`);
    check(r.summary && r.summary.includes(`device: ${page.device}`) && r.summary.includes('max |y - float64 reference|'),
      `${f}: the summary does not name the CPU and the float64 check: ${r.summary}`);
    ++compared;
  }
  check(compared === scenes.length && compared >= 5, `${compared} of ${scenes.length} scenes compared on the CPU`);
  // Over the CPU backend's limit (4194304 elements): one line naming it.
  const big = JSON.stringify({ normlab_scene: 1, tensor: { source: 'generated', shape: [5, 64, 128, 128], init: 'randn', seed: 1 },
    norm: { method: 'batch' } });
  const r = await openPage(browser, url + '#' + sceneLine(big));
  console.log(`[5, 64, 128, 128] on the CPU: state ${r.state}, "${r.error}"`);
  check(r.state === 'error' && r.error && /4194304/.test(r.error) && /5242880/.test(r.error) && !r.error.includes('\n'),
    `a tensor over the CPU limit: state ${r.state}, "${r.error}"`);
  return why;
}

// An adapter whose requestDevice() fails (WebGPU on, the page's check passes): the program falls back to
// the CPU itself, naming why; its statistics equal normlab-cli's.
async function failedDevice(url, cli, dir) {
  const file = path.join(here, 'scenes', 'batch_train.json');
  const { browser, close } = await launch();
  try {
    const page = await browser.newPage();
    await page.evaluateOnNewDocument(() => {
      GPUAdapter.prototype.requestDevice = () => Promise.reject(new Error('refused by the test'));
    });
    await page.goto(url + '?stats=1#' + sceneLine(fs.readFileSync(file, 'utf8')), { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.getAttribute('data-normlab-state') !== 'loading',
      { timeout: 120000, polling: 100 });
    const r = await page.evaluate(() => ({ state: document.body.getAttribute('data-normlab-state'),
      stats: document.getElementById('normlab-stats').textContent, error: document.getElementById('normlab-error').textContent }));
    const got = r.state === 'done' ? JSON.parse(r.stats) : {};
    console.log(`requestDevice() failing: state ${r.state}, device "${got.device}" ${r.error}`);
    check(r.state === 'done' && /^CPU — this browser's WebGPU gave no usable device \(.*refused by the test/.test(got.device),
      `with requestDevice() failing: state ${r.state}, device "${got.device}", error "${r.error}"`);
    if (r.state === 'done')
      check(statsDiff(await cliStats(file), got).length === 0, "after the failed device the statistics differ from normlab-cli's");
  } finally {
    await close();
  }
}

// A browser without navigator.gpu at all (as Firefox or Safari without WebGPU): the page's script sees
// none (deleted before it runs), says so in its line, and computes layer.json on the CPU.
async function noNavigatorGpu(browser, url, cli, dir) {
  const file = path.join(here, 'scenes', 'layer.json');
  const page = await browser.newPage();
  await page.evaluateOnNewDocument(() => { delete Navigator.prototype.gpu; });
  await page.goto(url + '?stats=1#' + sceneLine(fs.readFileSync(file, 'utf8')), { waitUntil: 'load' });
  await page.waitForFunction(() => document.body.getAttribute('data-normlab-state') !== 'loading',
    { timeout: 120000, polling: 100 });
  const r = await page.evaluate(() => ({ state: document.body.getAttribute('data-normlab-state'),
    line: document.getElementById('normlab-no-webgpu').textContent, stats: document.getElementById('normlab-stats').textContent,
    error: document.getElementById('normlab-error').textContent }));
  await page.close();
  console.log(`without navigator.gpu: state ${r.state}, line "${r.line}"`);
  const reason = noWebgpuReason(r.line);
  check(r.state === 'done' && reason === 'this browser does not offer it (navigator.gpu is missing)',
    `without navigator.gpu: state ${r.state}, line "${r.line}", error "${r.error}"`);
  if (r.state !== 'done') return;
  const page_ = JSON.parse(r.stats);
  check(page_.device === `CPU — ${reason}`, `without navigator.gpu the device is "${page_.device}"`);
  check(statsDiff(await cliStats(file), page_).length === 0, "without navigator.gpu the statistics differ from normlab-cli's");
}

// `reason`: the results page's; the app's status bar names the CPU with it (the page's own line is
// hidden once the app draws: it would cover the panels).
async function appPage(browser, url, cli, dir, reason) {
  const file = path.join(here, 'scenes', 'layer.json');
  const { page } = await openShell(browser, url + 'app.html#' + sceneLine(fs.readFileSync(file, 'utf8')), 1280, 800);
  const cdp = await page.target().createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir });
  await settle(page);
  const r = await report(page);
  console.log(`app on the CPU: ${r.method} on [${r.shape}], ${r.stat_count} statistics, device "${r.device}", ` +
    `max error ${r.max_error}, first frame ${Math.round(r.first_frame_ms)} ms`);
  const line = await page.$eval('#normlab-no-webgpu', (el) => el.textContent);
  check(noWebgpuReason(line) === reason, `the app page's no-WebGPU line: "${line}"`);
  check(r.device === `CPU — ${reason}`, `the app's device "${r.device}" does not say CPU and why`);
  check(r.method === 'LayerNorm' && r.stat_count === 12 && r.error === '' && r.max_error < 1e-4,
    `the app on the CPU shows ${r.method}, ${r.stat_count} statistics, error "${r.error}", max error ${r.max_error}`);
  // The panels say where their numbers come from: the CPU (views/panels' i18n: compute_unit()), not a GPU.
  console.log(`app on the CPU: panels ${JSON.stringify(r.panel_titles)}`);
  check(r.panel_titles.includes('Histograms (CPU)'), `no panel names the CPU: ${JSON.stringify(r.panel_titles)}`);
  check(!r.panel_titles.some((t) => t.includes('GPU')), `a panel names a GPU: ${JSON.stringify(r.panel_titles)}`);
  const img = await screenshot(page, 'app-cpu.png');
  checkNotBlank(img, 'app on the CPU');
  checkHeatmap(img, r, 'app on the CPU');
  // Ctrl+E: File > Save statistics, against normlab-cli's for the same scene.
  fs.rmSync(path.join(dir, 'normlab-stats.json'), { force: true });
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyE');
  await page.keyboard.up('Control');
  await frames(page);
  const bytes = await downloaded(dir, 'normlab-stats.json');
  const saved = bytes ? JSON.parse(bytes.toString('utf8')) : null;
  const diff = saved ? statsDiff(await cliStats(file), saved) : ['no statistics download'];
  console.log(`app's saved statistics: ${diff.length} differences from normlab-cli's, device "${saved && saved.device}"`);
  diff.slice(0, 10).forEach((d) => console.log('  ' + d));
  check(diff.length === 0, "the app's statistics on the CPU differ from normlab-cli's");
  // The views on the CPU: the compare view (key C: four more heatmaps from the CPU fill) and the gradient
  // view (key D: ∂y_k/∂x from the CPU backward; under LayerNorm over [H, W] its support is y_k's 30 elements).
  await page.keyboard.press('c');
  await settle(page);
  let v = await report(page);
  checkNotBlank(await screenshot(page, 'app-cpu-compare.png'), 'the compare view on the CPU');
  console.log(`C on the CPU: compare view ${v.compare}, the views' images filled ${v.view_fills - r.view_fills} times`);
  check(v.compare && v.view_fills - r.view_fills >= 4, `compare ${v.compare}, ${v.view_fills - r.view_fills} fills`);
  await page.keyboard.press('c');
  await frames(page);
  await page.keyboard.press('d');
  await settle(page);
  v = await report(page);
  checkNotBlank(await screenshot(page, 'app-cpu-gradient.png'), 'the gradient view on the CPU');
  console.log(`D on the CPU: gradient view ${v.gradient}, ∂y_k/∂x has ${v.gradient_nonzero} non-zero entries`);
  check(v.gradient && v.gradient_nonzero === 30, `the gradient view shows ${v.gradient_nonzero} non-zero entries, want 30`);
  await page.close();
}

async function main() {
  const cli = process.argv[3];
  const started = Date.now();
  if (!cli || !fs.existsSync(cli)) throw new Error(`normlab-cli not found at ${cli} (build it in build/)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'normlab-web-cpu-'));
  const { server, url } = await serve();
  const scenes = fs.readdirSync(path.join(here, 'scenes')).filter((f) => f.endsWith('.json')).sort();
  cliRuns = cliSceneStats(cli, dir, scenes.map((f) => path.join(here, 'scenes', f)));
  try {
    await inBrowser({ webgpu: false }, async (browser) => {
      const reason = await resultsPage(browser, url, cli, dir);
      await noNavigatorGpu(browser, url, cli, dir);
      await appPage(browser, url, cli, dir, reason);
    });
    await failedDevice(url, cli, dir);
  } finally {
    server.close();
  }
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(`screenshots in ${shots}`);
  console.log(`cpu: ${problems.length ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const p of problems) console.log('  ' + p);
  process.exit(problems.length ? 1 : 0);
}

main().catch((e) => {
  console.error(`web CPU test failed: ${e.stack || e}`);
  process.exit(1);
});
