// The browser app's Train view (app.html, label web): key R shows it on WebGPU and on the CPU backend.
// On WebGPU its runs get engine/webgpu's training runner (web/src/web_train.cpp's factory) and Enter
// trains them (the steps advance, the loss falls) and pauses them; on the CPU backend, which has no
// trainer, it says so in one line and starts no run. R again brings the panels back. Screenshots:
// web-train.png (WebGPU, on opening), web-train-played.png (after training), web-train-cpu.png.
//   node app_test_train.mjs [SCREENSHOT_DIR]
import { serve, launch } from './browser.mjs';
import { check, problems, shots, openShell, report, reportWhen, screenshot, colours } from './app_page.mjs';

async function trainView(browser, url, name, webgpu) {
  const { page } = await openShell(browser, url + 'app.html', 1280, 800);
  let r = await report(page);
  check(r.train && !r.train.shown, `${name}: the Train view is shown at start`);
  await page.keyboard.press('r');
  r = await reportWhen(page, (r) => r.train.shown);
  // The view's one line on an empty window: its text drawn (anti-aliased: many colours), not a blank.
  const img = await screenshot(page, `${name}.png`);
  check(colours(img, [0, 0, img.width, img.height]).length >= 20, `${name}: the screenshot looks blank`);
  console.log(`${name}: ${JSON.stringify(r.train)}`);
  check(r.train.shown, `${name}: key R did not show the Train view`);
  if (webgpu) {
    // WebGPU: the factory gives each run its device; Enter plays, the steps advance and the loss falls
    // (the mean of the last 10 batches' below that of the first 10); Enter again pauses.
    check(r.train.available === true && r.train.runs.length >= 1 && r.train.runs.every((run) => run.device),
      `${name}: the Train view on WebGPU has no run with a device: ${JSON.stringify(r.train)}`);
    await page.keyboard.press('Enter');
    r = await reportWhen(page, (r) => r.train.runs.length && r.train.runs[0].steps >= 150);
    const run = r.train.runs[0] || {};
    console.log(`${name}: played: ${JSON.stringify(r.train)}`);
    check(run.steps >= 150 && run.loss_now < run.loss_start,
      `${name}: Enter did not train on WebGPU (150 steps, a falling loss): ${JSON.stringify(r.train)}`);
    await page.keyboard.press('Enter');
    r = await reportWhen(page, (r) => !r.train.playing);
    check(!r.train.playing, `${name}: Enter again did not pause the runs`);
    await screenshot(page, `${name}-played.png`);
  } else {
    // No trainer on the CPU backend: the view says so and makes no run.
    check(r.train.available === false && r.train.runs.length === 0,
      `${name}: a Train view without a device has runs or says it trains: ${JSON.stringify(r.train)}`);
  }
  await page.keyboard.press('r');
  r = await reportWhen(page, (r) => !r.train.shown);
  check(!r.train.shown && r.heatmap_rect[2] > 0, `${name}: key R again did not bring the heatmap back`);
  await page.close();
}

async function main() {
  const { server, url } = await serve();
  try {
    for (const webgpu of [true, false]) {
      const { browser, close } = await launch({ webgpu });
      try {
        await trainView(browser, url, webgpu ? 'web-train' : 'web-train-cpu', webgpu);
      } finally {
        await close();
      }
    }
  } finally {
    server.close();
  }
  console.log(`screenshots in ${shots}`);
  console.log(`train view: ${problems.length ? 'FAILED' : 'passed'}`);
  for (const p of problems) console.log('  ' + p);
  process.exit(problems.length ? 1 : 0);
}

main().catch((e) => {
  console.error(`web train view test failed: ${e.stack || e}`);
  process.exit(1);
});
