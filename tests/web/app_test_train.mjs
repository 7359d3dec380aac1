// The browser app's Train view (app.html, label web): key R shows it on WebGPU and on the CPU backend.
// On WebGPU its runs get engine/webgpu's training runner (web/src/web_train.cpp's factory) and Enter
// trains them (the steps advance, the loss falls, each layer's strip gets its columns) and pauses them; the
// Inspect button of layer 2 opens that layer of the run as the tensor (BatchNorm1d on its 32 × 16
// activations, the heatmap in statistics mode: 16 statistic groups); on the CPU backend, which has no
// trainer, it says so in one line and starts no run. R again brings the panels back. Two training
// lessons opened by their links (app.html?lesson=train-sigmoid-bn&step=1 in English,
// lesson=train-bn-train-eval-gap&step=1 in Chinese) show the Train view with the step's two runs
// playing; the text shows "…" until they finish, then their validation accuracies as the report has
// them, and each lesson's claims hold for the runs WebGPU trained (the ones
// tests/classroom/test_train_lessons.cpp asserts on Vulkan). Screenshots: web-train.png (WebGPU, on
// opening), web-train-played.png (after training), web-train-inspect.png (the inspected layer),
// web-train-cpu.png, web-train-lesson-en.png, web-train-lesson-zh.png. The Sweep tab runs a sweep of 4
// runs typed into its fields (web-train-sweep.png).
//   node app_test_train.mjs [SCREENSHOT_DIR]
import { serve, inBrowser, sceneLine } from './browser.mjs';
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
    // SwiftShader on a loaded machine trains a few steps a second: up to 2 minutes for the 60.
    const trained = (r) => r.train.runs.length && r.train.runs[0].steps >= 60;
    for (let i = 0; i < 4 && !trained(r); ++i) r = await reportWhen(page, trained);
    const run = r.train.runs[0] || {};
    console.log(`${name}: played: ${JSON.stringify(r.train)}`);
    check(run.steps >= 60 && run.loss_now < run.loss_start,
      `${name}: Enter did not train on WebGPU (60 steps, a falling loss): ${JSON.stringify(r.train)}`);
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

// The training lessons this test opens, with their first step's runs and the claims
// tests/classroom/test_train_lessons.cpp asserts on Vulkan (check(ok, why) per claim).
const lessons = {
  'train-sigmoid-bn': {norms: 'none,batch', claims: ([none, bn], claim) => {
    claim(Math.abs(none.val_loss - Math.log(2)) < 0.01 && none.val_acc <= 0.55,
      `without a norm the run learnt (validation loss ${none.val_loss}, accuracy ${none.val_acc}), ` +
      'where the lesson says it ends next to ln 2, at chance');
    claim(bn.val_acc >= 0.95 && bn.val_loss < 0.2,
      `with BatchNorm the run ends at validation loss ${bn.val_loss}, accuracy ${bn.val_acc}, ` +
      'where the lesson says it learns');
  }},
  // BatchNorm's run at batch 2 is ill-conditioned: the lesson states its eval figure on lavapipe and on PyTorch
  // as measured there (50.0% and 99.2%), not for this device, whose run follows its own rounding.
  'train-bn-train-eval-gap': {norms: 'batch,group', claims: ([bn, gn], claim) => {
    console.log(`train-bn-train-eval-gap on WebGPU: BatchNorm ${bn.recent_acc} on its batches, ${bn.val_acc} in eval`);
    claim(gn.recent_acc >= 0.95 && gn.val_acc >= 0.95,
      `GroupNorm at batch 2: ${gn.recent_acc} on its batches, ${gn.val_acc} in eval, where the lesson says both ` +
      'are high');
  }},
};

// A training lesson by link: the Train view with the step's runs, its numbers once they finish.
async function trainLesson(browser, url, lang, lesson) {
  const name = `web-train-lesson-${lang}`;
  const { norms, claims } = lessons[lesson];
  const { page } = await openShell(browser, `${url}app.html?lesson=${lesson}&step=1&lang=${lang}`, 1280, 800);
  let r = await reportWhen(page, (r) => r.train.shown && r.train.runs.length === 2);
  console.log(`${name}: ${JSON.stringify(r.train)}`);
  check(r.lesson === lesson && r.step === 1, `${name}: the link did not open the lesson ${lesson}: ${r.lesson}`);
  check(r.train.shown && r.train.runs.length === 2 && r.train.runs.map((x) => x.norm).join() === norms,
    `${name}: the Train view does not show the step's runs (${norms}): ${JSON.stringify(r.train)}`);
  check(r.train.playing || r.train.runs.every((x) => x.steps === x.of), `${name}: the step's runs do not play`);
  const deadline = Date.now() + 180000;  // 2 × 300 steps on SwiftShader's WebGPU
  while (!r.train.runs.every((x) => x.steps === x.of) && Date.now() < deadline) {
    if (r.train.runs.some((x) => x.steps < x.of)) check(r.lesson_text.includes('\u2026'),
      `${name}: a number is shown before the runs finished: ${r.lesson_text}`);
    await new Promise((done) => setTimeout(done, 500));
    r = await report(page);
  }
  r = await reportWhen(page, (r) => !r.lesson_text.includes('\u2026'));
  check(r.train.runs.every((x) => x.steps === 300), `${name}: the runs did not finish: ${JSON.stringify(r.train)}`);
  const pct = (v) => `${(100 * v).toFixed(1)}%`;
  for (const run of r.train.runs)
    check(r.lesson_text.includes(pct(run.val_acc)), `${name}: the text lacks ${run.norm}'s ${pct(run.val_acc)}: ` +
      r.lesson_text);
  check(!r.lesson_text.includes('\u2026'), `${name}: "…" left in the text: ${r.lesson_text}`);
  console.log(`${name}: ${r.lesson_text}`);
  // The lesson's claims, as tests/classroom/test_train_lessons.cpp asserts them on Vulkan, on WebGPU's runs.
  claims(r.train.runs, (ok, why) => check(ok, `${name} (${lesson}): ${why}`));
  await screenshot(page, `${name}.png`);
  await page.close();
}

// The Sweep tab on WebGPU: a scene's run of 12 steps; the tab clicked, the batch sizes typed ("4,8"), Start
// sweep clicked; the sweep (batch, group × 4, 8: 4 runs) runs in slices between frames to its end.
async function trainSweep(browser, url) {
  const name = 'web-train-sweep';
  const scene = {normlab_scene: 1, view: {train: {base: {model: 'mlp', data: 'spirals', depth: 2, width: 8,
    samples: 64, steps: 12}, runs: [{norm: 'batch'}]}}};
  const { page } = await openShell(browser, url + 'app.html#' + sceneLine(JSON.stringify(scene)), 1280, 800);
  let r = await reportWhen(page, (r) => r.train.shown && r.train.runs.length === 1);
  const click = async (at) => {
    await page.mouse.move(at[0], at[1]);
    await frames(page);
    await page.mouse.click(at[0], at[1]);
    await frames(page);
  };
  await click(r.sweep.spots[0]);
  r = await report(page);
  await click(r.sweep.spots[1]);
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.type('4,8');
  await frames(page);
  r = await report(page);
  await click(r.sweep.spots[2]);
  r = await reportWhen(page, (r) => r.sweep.state !== 0);
  const deadline = Date.now() + 180000;  // 4 × 12 steps on SwiftShader's WebGPU, a step a frame at worst
  while (r.sweep.state === 1 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 500));
    r = await report(page);
  }
  console.log(`${name}: ${JSON.stringify(r.sweep)}`);
  check(r.sweep.state === 2 && r.sweep.finished === 4 && r.sweep.total === 4,
    `${name}: the sweep of 4 runs did not finish: ${JSON.stringify(r.sweep)}`);
  await screenshot(page, `${name}.png`);
  await page.close();
}

async function main() {
  const { server, url } = await serve();
  try {
    await inBrowser({ webgpu: true }, async (b) => {
      await trainView(b, url, 'web-train', true);
      await trainLesson(b, url, 'en', 'train-sigmoid-bn');
      await trainLesson(b, url, 'zh', 'train-bn-train-eval-gap');
      await trainSweep(b, url);
    });
    await inBrowser({ webgpu: false }, (b) => trainView(b, url, 'web-train-cpu', false));
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
