// The browser app on the screens a class holds, with touch (Chromium's device modes, SwiftShader):
// a phone in portrait (390×844 CSS px at devicePixelRatio 2) and a portrait tablet (820×1180):
// the layout of each (the report's form, the heatmap's size in CSS pixels, the menus folded on the
// phone), a tap on three heatmap cells selects each one's statistic, a long press clears, a lesson
// chosen from the menu by taps opens under the heatmap with its ▶ button inside the canvas and a
// tap on ▶ goes on; and an idle page: no frame drawn and its main thread under 5 % of a core.
// Usage: node app_test_devices.mjs [SCREENSHOT_DIR]
import { serve, launch } from './browser.mjs';
import { problems, check, shots, report, frames, settle, screenshot, checkHeatmap } from './app_page.mjs';

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

  // A lesson by taps: Menu, Lessons, the first lesson.
  await page.touchscreen.tap(r.menus.file / r.css_scale + 20, r.menu_bar_h / r.css_scale / 2);
  r = await reportWhen(page, (r) => r.popups.length === 1);
  await screenshot(page, 'phone-menu.png');
  const root = r.popups[0];
  check(root && root[0] + root[2] <= 390.5 && root[1] + root[3] <= 844.5, `the folded menu ${root} leaves the screen`);
  if (root) await tapRow(page, root, 3, 6);  // File, View, Language, Lessons, Experiments, Help
  r = await reportWhen(page, (r) => r.popups.length === 2);
  await screenshot(page, 'phone-lessons-menu.png');
  const lessons = r.popups[1];
  if (lessons) await tapRow(page, [lessons[0], lessons[1], lessons[2], (root[3] - 16) / 6 + 16], 0, 1);
  r = await reportWhen(page, (r) => r.lesson !== '' && r.lesson !== null && r.popups.length === 0);
  const [nx, ny, nw, nh] = r.lesson_next;
  console.log(`phone lesson ${r.lesson} step ${r.step}: tab ${r.phone_tab}, ▶ at ${r.lesson_next.map(Math.round)} CSS px`);
  check(r.lesson === 'bn-vs-ln' && r.step === 1, `the tapped lesson is "${r.lesson}" step ${r.step}`);
  check(nx >= 0 && ny >= 0 && nx + nw <= 390 && ny + nh <= 844, `the lesson's ▶ at ${r.lesson_next} is off the screen`);
  check(nh >= 39, `the lesson's ▶ is ${nh} CSS px high (a finger needs 40)`);
  await screenshot(page, 'phone-lesson.png');
  await page.touchscreen.tap(nx + nw / 2, ny + nh / 2);
  r = await reportWhen(page, (r) => r.step === 2);
  check(r.step === 2, `a tap on ▶ left the lesson at step ${r.step}`);
  await screenshot(page, 'phone-lesson-step2.png');
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
