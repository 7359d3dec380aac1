// The app page's link, first load and keys in headless Chromium: node app_link_test.mjs [SHOTS_DIR]
//   - a first load in English through the compressing server (scripts/serve-site.py): the bytes on
//     the wire (CDP's encodedDataLength of every response) at most 1.5 MB, app.wasm sent gzipped, no
//     CJK font fetched, and the first frame's time; then the same load on a slow network (the progress
//     bar showing app.wasm's bytes as they arrive: a screenshot of it);
//   - a lesson link: app.html?lesson=groupnorm-continuum&step=2&lang=zh opens that step (its lesson,
//     step, 中文, the continuum's experiment, G = 1) with the CJK font fetched before the start; → (step
//     3), + (G = 8: the experiment's setting), L (English), H (the heatmap's mode); the address read and
//     opened in a fresh page shows the same; there L (中文: the font fetched then, its line shown) and
//     the address opened in a fresh page again: 中文 (a screenshot to look at);
//   - Copy link (File menu): its line while the state is the one copied, none once it moved on;
//   - keys the browser keeps: P toggles presenter mode, F5 is neither taken by the app nor kept from the
//     browser (the F1 help lists P and no F5).
// The screenshots are written to SHOTS_DIR (default: a temporary folder, printed) to be looked at.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { inBrowser, siteDir, root, checkSite } from './browser.mjs';
import { problems, check, shots, report, frames, settle, screenshot, checkNotBlank, chooseFromMenu, reportWhen }
  from './app_page.mjs';

const lessonId = 'groupnorm-continuum';

// scripts/serve-site.py on a free port; resolves to { url, stop }.
function serveCompressed() {
  checkSite();
  const server = spawn('python3', [path.join(root, 'scripts', 'serve-site.py'), '--port', '0', siteDir],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    server.on('exit', (code) => reject(new Error(`scripts/serve-site.py exited (${code}): ${out}`)));
    server.stdout.on('data', (d) => {
      out += d;
      const m = /on (http:\S+)/.exec(out);
      if (m) resolve({ url: m[1], stop: () => server.kill() });
    });
  });
}

// Opens url in a fresh page, recording every response's bytes on the wire; resolves once the first
// frame is drawn (or the page ended in an error) to { page, bytes, files, log }.
async function openCounted(browser, url, { slow = false, waitDone = true } = {}) {
  const page = await browser.newPage();
  const log = [];
  page.on('console', (m) => log.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => log.push(`pageerror: ${e.message}`));
  await page.setViewport({ width: 1280, height: 800, deviceScaleFactor: 1 });
  const cdp = await page.target().createCDPSession();
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (slow)  // about 4 Mbit/s: app.wasm takes seconds to arrive
    await cdp.send('Network.emulateNetworkConditions',
      { offline: false, latency: 20, downloadThroughput: 500000, uploadThroughput: 500000 });
  const files = new Map();  // requestId → { url, encoding, bytes }
  cdp.on('Network.responseReceived', (e) => {
    const h = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    files.set(e.requestId, { url: e.response.url, encoding: h['content-encoding'] || '', bytes: 0 });
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (files.has(e.requestId)) files.get(e.requestId).bytes = e.encodedDataLength;
  });
  await page.goto(url, { waitUntil: 'load' });
  if (waitDone) await waitFirstFrame(page, url, log);
  return { page, cdp, files, log };
}

async function waitFirstFrame(page, url, log) {
  try {
    await page.waitForFunction(() => document.body.getAttribute('data-normlab-state') !== 'loading',
      { timeout: 120000, polling: 50 });
  } catch (e) {
    throw new Error(`${url} drew no frame within 120 s; console:\n${log.join('\n')}`);
  }
  const state = await page.evaluate(() => document.body.getAttribute('data-normlab-state'));
  if (state !== 'done') throw new Error(`${url} ended in state ${state}; console:\n${log.join('\n')}`);
}

const mb = (n) => (n / 1e6).toFixed(2);

// An English first load: its bytes on the wire, no CJK font, the first frame's time; the progress bar.
async function firstLoad(browser, base) {
  const { page, files } = await openCounted(browser, base + 'app.html');
  await frames(page);
  const r = await report(page);
  const all = [...files.values()];
  const total = all.reduce((s, f) => s + f.bytes, 0);
  const wasm = all.find((f) => f.url.endsWith('/app.wasm'));
  console.log(`English first load: ${mb(total)} MB on the wire in ${all.length} responses (` +
    all.map((f) => `${f.url.split('/').pop()} ${mb(f.bytes)}${f.encoding ? ' ' + f.encoding : ''}`).join(', ') +
    `); first frame at ${Math.round(r.first_frame_ms)} ms (${r.startup_ms.map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')}), ` +
    `atlas ${r.font_atlas.join('×')}`);
  check(total > 0 && total <= 1.5e6, `an English first load took ${mb(total)} MB on the wire (at most 1.5 MB)`);
  check(wasm && wasm.encoding === 'gzip', `app.wasm came ${wasm ? `with encoding "${wasm.encoding}"` : 'not at all'}`);
  check(!all.some((f) => /\/fonts\//.test(f.url)), 'an English first load fetched the CJK font');
  check(r.language === 'en' && !r.cjk_font && r.missing_glyphs === '', `English first load: ${r.language}, CJK font ${r.cjk_font}`);
  checkNotBlank(await screenshot(page, 'app-first-load.png'), 'the English first load');
  await page.close();

  // On a slow network the progress bar shows app.wasm's bytes arriving.
  const slow = await openCounted(browser, base + 'app.html', { slow: true, waitDone: false });
  await slow.page.waitForFunction(() => {
    const p = document.getElementById('normlab-progress');
    return !p.hidden && p.querySelector('progress').value > 0.2;
  }, { timeout: 60000, polling: 50 });
  const bar = await slow.page.evaluate(() => {
    const p = document.getElementById('normlab-progress');
    return { value: p.querySelector('progress').value, text: p.querySelector('span').textContent };
  });
  await screenshot(slow.page, 'app-progress.png');
  console.log(`slow network: progress ${bar.value.toFixed(2)}, "${bar.text}"`);
  check(/^Loading app\.wasm: [0-9.]+ of [0-9.]+ MB$/.test(bar.text) && bar.value > 0.2 && bar.value < 1,
    `the progress bar on a slow network: ${bar.value}, "${bar.text}"`);
  await waitFirstFrame(slow.page, 'app.html on a slow network', slow.log);
  check(await slow.page.$eval('#normlab-progress', (p) => p.hidden), 'the progress bar stayed after the first frame');
  await slow.page.close();
}

// The link in the page's address (what a user copies from the address bar).
const address = (page) => page.evaluate(() => location.href);

// Opens `url` in a fresh page and checks its report against `want` (lesson, step, language,
// experiment, groups); returns the page.
async function reopen(browser, url, want, what) {
  const { page, cdp, files } = await openCounted(browser, url);
  const r = await reportWhen(page, (r) => r.lesson === want.lesson && r.language === want.language);
  const got = { lesson: r.lesson, step: r.step, language: r.language, experiment: r.experiment, groups: r.groups,
    heatmap: r.heatmap_view, presenter: r.presenter };
  const font = [...files.values()].some((f) => /\/fonts\//.test(f.url));
  console.log(`${what}: ${JSON.stringify(got)}, CJK font fetched ${font}, error "${r.error}"`);
  for (const [k, v] of Object.entries(want))
    check(got[k] === v, `${what}: ${k} is ${JSON.stringify(got[k])}, the link's ${JSON.stringify(v)}`);
  check(r.error === '' && r.missing_glyphs === '', `${what}: error "${r.error}", glyphs missing "${r.missing_glyphs}"`);
  check(font === (want.language === 'zh'), `${what}: the CJK font ${font ? 'was' : 'was not'} fetched`);
  return { page, cdp };
}

// A lesson link, changed and carried to fresh pages twice.
async function lessonLink(browser, base) {
  let { page } = await reopen(browser, `${base}app.html?lesson=${lessonId}&step=2&lang=zh`,
    { lesson: lessonId, step: 2, language: 'zh', experiment: 'gn-continuum', groups: 1 }, 'app.html?lesson=…&step=2&lang=zh');
  await page.keyboard.press('ArrowRight');
  await settle(page);
  await page.keyboard.press('=');  // + : the continuum's next G
  await settle(page);
  await page.keyboard.press('l');
  await page.keyboard.press('h');
  let r = await reportWhen(page, (r) => r.language === 'en');
  const moved = { lesson: lessonId, step: 3, language: 'en', experiment: 'gn-continuum', groups: r.groups,
    heatmap: r.heatmap_view };
  let url = await address(page);
  console.log(`after →, +, L, H: step ${r.step}, G = ${r.groups}, heatmap ${r.heatmap_view}; address ${url.slice(0, 110)}…`);
  check(r.step === 3 && r.groups === 8 && r.language === 'en', `after →, + and L: step ${r.step}, G ${r.groups}, ${r.language}`);
  check(!url.includes('?'), `the address kept its query: ${url.slice(0, 80)}`);
  await page.close();
  let cdp;
  ({ page, cdp } = await reopen(browser, url, moved, 'the address opened in a fresh page'));

  // 中文 asked for in a page that has no CJK font: fetched then (on a slow network here, 2 MB gzipped
  // taking seconds), with its lines meanwhile: the status bar's and the page's progress bar.
  await cdp.send('Network.emulateNetworkConditions',
    { offline: false, latency: 20, downloadThroughput: 500000, uploadThroughput: 500000 });
  await page.keyboard.press('l');
  await page.waitForFunction(() => !document.getElementById('normlab-progress').hidden, { timeout: 10000, polling: 50 })
    .catch(() => {});
  await frames(page, 2);
  const loading = await report(page);
  const bar = await page.$eval('#normlab-progress', (p) => (p.hidden ? '' : p.textContent.trim()));
  await screenshot(page, 'app-font-loading.png');
  await cdp.send('Network.emulateNetworkConditions',
    { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  r = await reportWhen(page, (r) => r.language === 'zh');
  console.log(`L in English: note "${loading.note}", fetching ${loading.font_fetching}, page "${bar}"; then ` +
    `${r.language}, atlas ${r.font_atlas.join('×')}, glyphs missing "${r.missing_glyphs}"`);
  check(r.language === 'zh' && r.cjk_font && r.missing_glyphs === '', `L: ${r.language}, CJK font ${r.cjk_font}`);
  check(loading.note === 'loading the Chinese font…' && loading.font_fetching && loading.language === 'en',
    `while the font loaded: note "${loading.note}", fetching ${loading.font_fetching}, ${loading.language}`);
  check(/^Loading fonts\/DroidSansFallbackFull\.ttf: [0-9.]+ of 4\.0 MB$/.test(bar), `the page's line while the font loaded: "${bar}"`);
  check(r.note === '', `after the font came the status bar says "${r.note}"`);
  url = await address(page);
  await page.close();
  ({ page } = await reopen(browser, url, { ...moved, language: 'zh' }, 'the 中文 address in a fresh page'));
  checkNotBlank(await screenshot(page, 'app-link-zh-round-trip.png'), 'the 中文 lesson step after a round trip');
  await page.close();
}

// Copy link's line, while the state is the one it copied.
async function copyLink(browser, base) {
  await browser.defaultBrowserContext().overridePermissions(new URL(base).origin,
    ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
  const { page } = await openCounted(browser, `${base}app.html?lesson=${lessonId}&step=1`);
  let r = await chooseFromMenu(page, 'file', 5, 'app-link-file-menu.png');  // Copy link
  const copied = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => `(no clipboard: ${e.message})`);
  console.log(`Copy link: note "${r.note}", clipboard ${copied.slice(0, 90)}…`);
  check(/is in the address bar and on the clipboard/.test(r.note), `Copy link's note: "${r.note}"`);
  check(copied === (await address(page)) && copied.includes(`#lesson=${lessonId}&step=1&normlab-scene:`),
    `the clipboard holds ${copied.slice(0, 90)}, not the address`);
  await page.keyboard.press('h');
  r = await reportWhen(page, (r) => r.note === '');
  check(r.note === '', `after H the status line still says "${r.note}"`);
  await page.close();
}

// P toggles presenter mode; F5 stays the browser's (the page does not prevent it, the app ignores it).
async function keys(browser, base) {
  const { page } = await openCounted(browser, base + 'app.html');
  await page.keyboard.press('p');
  let r = await reportWhen(page, (r) => r.presenter);
  check(r.presenter, 'P did not turn presenter mode on');
  await page.keyboard.press('p');
  r = await reportWhen(page, (r) => !r.presenter);
  check(!r.presenter, 'a second P did not turn presenter mode off');
  check(r.help_keys.includes('P') && !r.help_keys.some((k) => /F5/.test(k)),
    `the F1 help's keys: ${JSON.stringify(r.help_keys)}`);
  await page.keyboard.press('F1');
  await settle(page);
  await screenshot(page, 'app-help-keys.png');
  await page.keyboard.press('Escape');
  // F5 reaches the page; a listener added last on window (after the program's) sees whether anything
  // kept it from the browser, then lets the browser have it: a reload.
  await page.evaluate(() => {
    window.normlabF5 = null;
    window.addEventListener('keydown', (e) => { if (e.key === 'F5') window.normlabF5 = e.defaultPrevented; });
  });
  const reloaded = page.waitForNavigation({ timeout: 5000 }).then(() => true, () => false);
  await page.keyboard.press('F5');
  const prevented = await page.evaluate(() => window.normlabF5).catch(() => 'reloaded');
  const didReload = await reloaded;
  console.log(`F5: kept from the browser ${prevented}, reloaded ${didReload}`);
  check(prevented === false || prevented === 'reloaded', `F5 was kept from the browser (${prevented})`);
  if (!didReload) {  // headless Chromium has no reload key: the page is still there, and the app ignored F5
    await settle(page);
    r = await report(page);
    check(!r.presenter, 'F5 turned presenter mode on in the page');
  }
  await page.close();
}

async function main() {
  const server = await serveCompressed();
  try {
    console.log(`site ${siteDir} served compressed at ${server.url}`);
    await inBrowser({}, async (browser) => {
      for (const c of [firstLoad, lessonLink, copyLink, keys]) await c(browser, server.url);
    });
  } finally {
    server.stop();
  }
  console.log(`screenshots in ${shots}`);
  if (problems.length) {
    console.error(`FAIL (${problems.length}):\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
  console.log('PASS');
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
