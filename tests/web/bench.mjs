// The browser bench's driver (scripts/bench-web.sh, and the ctest "web: bench (quick)"): the quick
// shape's ONNX models are committed (tests/web/models-quick, so the test needs no PyTorch); the full
// shape's are made if they are missing (bench/web_models.py, Debian's python3-torch);
// serves build-web/site with onnxruntime-web's dist/ under ort/ and the models under models/, opens
// bench.html in headless Chromium on WebGPU, writes the page's JSON to --out and prints a table of
// the forward and one of the backward.
// --quick: the small shape; --cases a,b: only those cases (bench_main.cpp's names), without the
// page's recompute; --check: fails (exit 1) unless every case has its figures (the backward's too) and
// onnxruntime-web's y equals normlab's within the tolerance.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { root, siteDir, serve, launch } from './browser.mjs';

const argv = process.argv.slice(2);
const opt = (name, def) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : def);
const quick = argv.includes('--quick');
const only = opt('--cases', '');  // e.g. layer-CHW,rms: only these cases, no page recompute
const check = argv.includes('--check');
const out = opt('--out', path.join(root, 'build', quick ? 'bench-web-quick.json' : 'bench-web.json'));
const modelsDir = opt('--models', quick ? path.join(root, 'tests', 'web', 'models-quick')
  : path.join(root, 'build', 'bench-web-models'));
const dims = quick ? [2, 8, 16, 16] : [16, 64, 64, 64];  // bench_main.cpp's shapes
const ortDist = path.join(root, 'web', 'node_modules', 'onnxruntime-web', 'dist');
const tolerance = 1e-4;

function fail(line) {
  console.error(`bench-web: ${line}`);
  process.exit(1);
}

for (const f of ['bench.html', 'bench_page.js', 'bench.js', 'bench.wasm'])
  if (!fs.existsSync(path.join(siteDir, f)))
    fail(`${path.join(siteDir, f)} is missing: run scripts/build-web.sh first`);
if (!fs.existsSync(path.join(ortDist, 'ort.webgpu.min.js'))) fail(`${ortDist} is missing: npm ci in web/`);

const modelsJson = path.join(modelsDir, 'models.json');
const haveModels = fs.existsSync(modelsJson) &&
  JSON.parse(fs.readFileSync(modelsJson, 'utf8')).shape.join() === dims.join();
if (!haveModels) {
  const script = path.join(root, 'bench', 'web_models.py');
  try {
    execFileSync('/usr/bin/python3', ['-W', 'ignore', script, modelsDir, ...dims.map(String)],
      { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    const why = String(e.stderr || e.message).trim().split('\n').pop();
    fail(`making the ONNX models (bench/web_models.py) failed: ${why}` +
      (/No module named 'torch'/.test(why) ? ' (it needs Debian\'s python3-torch: apt-get install python3-torch)' : ''));
  }
}

const { server, url } = await serve({ 'ort/': ortDist, 'models/': modelsDir });
const { browser, close } = await launch();
let result;
try {
  const page = await browser.newPage();
  const log = [];
  page.on('console', (m) => {
    log.push(`${m.type()}: ${m.text()}`);
    if (m.text().startsWith('bench: ')) console.log(m.text());  // progress lines
  });
  page.on('pageerror', (e) => log.push(`pageerror: ${e.message}`));
  const query = new URLSearchParams();
  if (quick) query.set('quick', '1');
  if (only) query.set('cases', only);
  await page.goto(`${url}bench.html?${query}`, { waitUntil: 'load' });
  const start = Date.now();  // polled from here: one waitForFunction would outlast puppeteer's protocol timeout
  while ((await page.evaluate(() => document.body.getAttribute('data-normlab-state'))) === 'loading') {
    if (Date.now() - start > 900000) fail(`the bench did not finish within 900 s\n${log.join('\n')}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const read = await page.evaluate(() => ({ state: document.body.getAttribute('data-normlab-state'),
    error: document.getElementById('normlab-error').textContent,
    json: document.getElementById('normlab-bench').textContent }));
  if (read.state !== 'done') fail(`the page ended "${read.state}": ${read.error}\n${log.join('\n')}`);
  result = JSON.parse(read.json);
  result.browser = await browser.version();
  result.date = new Date().toISOString();
} finally {
  await close();
  server.close();
}
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(result, null, 1) + '\n');

const f = (v, d = 2) => (typeof v === 'number' ? v.toFixed(d) : '–');
const diff = (v) => (typeof v === 'number' ? v.toExponential(1) : '–');
console.log(`${result.device}, ${result.browser}, ${result.shape}, ` +
  `onnxruntime-web ${result.ort.version} (${result.ort.io}); ` +
  `adapter timestamp-query: ${result.adapter_timestamp_query ? 'offered (not used)' : 'not offered'}`);
console.log('| case | plan | normlab ms | other plan, ms | copy ms | efficiency | onnxruntime-web op | ORT ms | ' +
  'ORT / normlab | max |y diff| |');
console.log('|---|---|---:|---|---:|---:|---|---:|---:|---:|');
for (const c of result.cases)
  console.log(`| ${c.norm} | ${c.plan} | ${f(c.ms)} | ${c.alt_plan ? `${c.alt_plan} ${f(c.alt_ms)}` : '–'} | ` +
    `${f(c.copy_ms)} | ${f(c.efficiency)} | ${c.ort_op || '–'} | ` +
    `${f(c.ort_ms)} | ${f(c.ort_over_normlab)} | ${diff(c.ort_max_abs_diff)} |`);
console.log('| backward | path | ms | other path, ms |');
console.log('|---|---|---:|---|');
for (const b of result.backward)
  console.log(`| ${b.norm} | ${b.path} | ${f(b.ms)} | ${b.alt_path ? `${b.alt_path} ${f(b.alt_ms)}` : '–'} |`);
if (result.e2e.length)
  console.log(`page recompute (PageSession::open_scene), ${result.e2e[0].shape}: ` +
    result.e2e.map((e) => `${e.norm} ${f(e.ms, 1)} ms`).join(', '));
console.log(`wrote ${out}`);

if (check) {
  const problems = [];
  const names = ['batch-train', 'batch-eval', 'layer-CHW', 'instance', 'group-8', 'rms'];
  for (const n of names) {
    const c = result.cases.find((k) => k.norm === n);
    if (!c) { problems.push(`${n}: missing`); continue; }
    for (const k of ['ms', 'copy_ms', 'efficiency']) if (!(c[k] > 0)) problems.push(`${n}: ${k} = ${c[k]}`);
    if (!c.ort_model) continue;
    if (!(c.ort_ms > 0)) problems.push(`${n}: ort_ms = ${c.ort_ms}`);
    if (!(c.ort_max_abs_diff <= tolerance))
      problems.push(`${n}: onnxruntime-web's y differs from normlab's by ${c.ort_max_abs_diff}`);
  }
  for (const n of names) {
    const b = result.backward.find((k) => k.norm === n);
    if (!b || !(b.ms > 0) || (b.alt_path && !(b.alt_ms > 0))) problems.push(`${n}: backward ${JSON.stringify(b)}`);
  }
  if (result.e2e.length !== 5 || !result.e2e.every((e) => e.ms > 0))
    problems.push(`e2e: ${JSON.stringify(result.e2e)}`);
  if (problems.length) fail(problems.join('\n'));
  console.log('bench-web: complete; onnxruntime-web agrees with normlab within ' + tolerance);
}
