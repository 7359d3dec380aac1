// The browser app's Train view (app.html, label web): key R shows it on WebGPU and on the CPU backend.
// On WebGPU its runs get engine/webgpu's training runner (web/src/web_train.cpp's factory) and Enter
// trains them (the steps advance, the loss falls, each layer's strip gets its columns) and pauses them; the
// Inspect button of layer 2 opens that layer of the run as the tensor (BatchNorm1d on its 32 × 16
// activations, the heatmap in statistics mode: 16 statistic groups); on the CPU backend, which has no
// trainer, it says so in one line and starts no run. R again brings the panels back. Screenshots:
// web-train.png (WebGPU, on opening), web-train-played.png (after training), web-train-inspect.png
// (the inspected layer), web-train-cpu.png.
//   node app_test_train.mjs [SCREENSHOT_DIR]
import { serve, launch } from './browser.mjs';
import { check, problems, shots, openShell, report, reportWhen, screenshot, colours, frames } from './app_page.mjs';

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
    // SwiftShader on a loaded machine trains a few steps a second: up to 2 minutes for the 150.
    const trained = (r) => r.train.runs.length && r.train.runs[0].steps >= 150;
    for (let i = 0; i < 4 && !trained(r); ++i) r = await reportWhen(page, trained);
    const run = r.train.runs[0] || {};
    console.log(`${name}: played: ${JSON.stringify(r.train)}`);
    check(run.steps >= 150 && run.loss_now < run.loss_start,
      `${name}: Enter did not train on WebGPU (150 steps, a falling loss): ${JSON.stringify(r.train)}`);
    await page.keyboard.press('Enter');
    r = await reportWhen(page, (r) => !r.train.playing);
    check(!r.train.playing, `${name}: Enter again did not pause the runs`);
    const strips = r.train.runs[0];
    check(strips.strip_every === 10 && strips.strip_columns === Math.floor(strips.steps / 10),
      `${name}: the strips have ${strips.strip_columns} columns after ${strips.steps} steps (one every 10 wanted)`);
    await screenshot(page, `${name}-played.png`);
    // Inspect layer 2: the pointer rests on the button a frame, then clicks it.
    const at = r.inspect_buttons[1] || [-1, -1];
    check(at[0] > 0, `${name}: no Inspect button for layer 2: ${JSON.stringify(r.inspect_buttons)}`);
    await page.mouse.move(at[0] + 10, at[1] + 8);
    await frames(page);
    await page.mouse.click(at[0] + 10, at[1] + 8);
    r = await reportWhen(page, (r) => !r.train.shown);
    await screenshot(page, `${name}-inspect.png`);
    console.log(`${name}: inspected: method ${r.method}, shape ${JSON.stringify(r.shape)}, ${r.stat_count} groups`);
    check(!r.train.shown && r.method === 'BatchNorm1d' && JSON.stringify(r.shape) === '[32,16]' && r.stat_count === 16 &&
      r.heatmap_mode === 3, `${name}: Inspect did not open layer 2 as a BatchNorm1d tensor of 32 × 16 in statistics ` +
      `mode: train shown ${r.train.shown}, ${r.method}, ${JSON.stringify(r.shape)}, ${r.stat_count}, ${r.heatmap_mode}`);
    await page.keyboard.press('r');
    r = await reportWhen(page, (r) => r.train.shown);
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
