// Training on WebGPU in headless Chromium (ctest label web; the full version label web-train-full):
//   node train_test.mjs [quick|full]   index.html?test=train: the WgpuTrainRunner with the WGSL training kernels
//                                      against the float64 references (one mlp configuration of each norm, layer twice; the
//                                      cnn's, quick: 6 configurations, full: 21), PyTorch's golden runs (quick:
//                                      3 mlp and 2 cnn runs; full: all 10 and 6), the WGSL conv and pooling
//                                      kernels on the Vulkan suite's 37 cases, slices submitted by poll() against
//                                      one run, negative controls
//   node train_test.mjs bench [OUT]     200 steps of the mlp (4×32) and of the cnn (4×16 channels), batch 32,
//                                      for each norm, timed (docs/training.md); OUT gets the report
// Each fails (exit 1) with what went wrong, including when build-web/site is missing.
import fs from 'node:fs';
import { serve, launch, openPage } from './browser.mjs';

const mode = process.argv[2] || 'quick';
const problems = [];
const check = (ok, what) => { if (!ok) problems.push(what); };

function verify(k) {
  for (const [part, p] of Object.entries(k.parts || {}))
    console.log(`  ${part}: ${p.cases} cases in ${Math.round(p.ms)} ms`);
  for (const f of k.failures) console.log(`  FAIL [${f.part}] ${f.case}: ${f.what}`);
  check(k.failures.length === 0, `${k.failures.length} training checks failed`);
  if (k.max_storage_buffers !== undefined)
    console.log(`  storage buffers per stage: ${k.max_storage_buffers}; reference cases with train_linear_norm ` +
      `or train_norm_bwd_params: ${k.fused_reference_cases}`);
  check(/\(WebGPU\)$/.test(k.device), `device "${k.device}" does not name a WebGPU adapter`);
  if (k.profile) console.log(`  profile (ms per step): ${JSON.stringify(k.profile)}`);
  if (mode === 'profile') return;
  if (mode === 'bench') {
    for (const [name, b] of Object.entries(k.bench || {}))
      console.log(`  ${name}: ${b.steps} steps in ${(b.ms / 1000).toFixed(1)} s (${b.steps_per_s.toFixed(1)} steps/s), ` +
        `loss ${b.first_loss.toFixed(4)} → ${b.last_loss.toFixed(4)}, validation accuracy ${b.last_val_acc}`);
    return check(Object.keys(k.bench || {}).length === 11, 'the bench did not time all 11 runs');
  }
  const want = mode === 'full'
    ? { reference: 12, slices: 1, refusals: 1, mlp_golden: 10, cnn_golden: 6, cnn_reference: 21, conv_kernels: 37 }
    : { reference: 12, slices: 1, refusals: 1, mlp_golden: 3, cnn_golden: 2, cnn_reference: 6, conv_kernels: 37 };
  for (const [part, n] of Object.entries(want))
    check((k.parts[part] || {}).cases === n, `${part}: ${(k.parts[part] || {}).cases} of ${n} cases ran`);
  check(k.negative_control_failures >= 2,
    `the golden check saw ${k.negative_control_failures} failures in a run with a changed loss and weight`);
  check(k.cnn_negative_control_failures === 2,
    `the cnn reference check saw ${k.cnn_negative_control_failures} failures in a run with a changed loss and weight`);
  check(k.parts.slices && k.parts.slices.polls_not_yet > 0, 'poll() never said a slice was still running');
}

const { server, url } = await serve();
// The bench's 11 runs take minutes on SwiftShader, more on a loaded machine: up to 30 of them.
const limitMs = mode === 'bench' ? 1800000 : 580000;
const { browser, close } = await launch({ protocolMs: limitMs + 20000 });
try {
  const r = await openPage(browser, `${url}?test=train&mode=${mode}`, limitMs);
  check(r.state === 'done', `training test page ended in state ${r.state}: ${r.error}`);
  if (!r.kernelTest) {
    check(false, 'no training report on the page; console:\n' + r.console.join('\n'));
  } else {
    const k = JSON.parse(r.kernelTest);
    console.log(`train (${mode}) on ${k.device} in ${Math.round(k.ms)} ms`);
    verify(k);
    if (mode === 'bench' && process.argv[3]) fs.writeFileSync(process.argv[3], JSON.stringify(k, null, 2) + '\n');
  }
} catch (e) {
  check(false, String(e && e.stack || e));
} finally {
  await close();
  server.close();
}
for (const p of problems) console.error(`FAIL: ${p}`);
process.exit(problems.length ? 1 : 0);
