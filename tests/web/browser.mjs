// The web tests' browser: build-web/site served on 127.0.0.1 (a free port) by a tiny static
// server, and Debian's /usr/bin/chromium driven by puppeteer-core with the flags of
// docs/browser.md (WebGPU on SwiftShader, headless), a fresh profile per launch.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';

const here = path.dirname(new URL(import.meta.url).pathname);
export const root = path.resolve(here, '../..');
const require = createRequire(path.join(root, 'web', 'package.json'));
const puppeteer = require('puppeteer-core');

export const siteDir = process.env.NORMLAB_WEB_SITE || path.join(root, 'build-web', 'site');

const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.json': 'application/json', '.ttf': 'font/ttf', '.mjs': 'text/javascript', '.onnx': 'application/octet-stream' };

// The URL hash of a scene file: "normlab-scene:" + base64url of its compact JSON (state.hpp).
export function sceneLine(text) {
  return 'normlab-scene:' + Buffer.from(JSON.stringify(JSON.parse(text))).toString('base64url');
}

// Fails (throws) when the site has not been built: a missing site is a failed test, not a skip.
export function checkSite() {
  for (const f of ['index.html', 'page.js', 'page_data.js', 'page_common.js', 'normlab.js', 'normlab.wasm',
    'app.html', 'app_page.js', 'app.js', 'app.wasm', 'fonts/DroidSansFallbackFull.ttf']) {
    const p = path.join(siteDir, f);
    if (!fs.existsSync(p) || fs.statSync(p).size === 0)
      throw new Error(`${p} is missing: run scripts/build-web.sh first`);
  }
}

// mounts: more folders served under a prefix, e.g. { 'ort/': dir } (the bench's onnxruntime-web).
export function serve(mounts = {}) {
  checkSite();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let name = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
    let dir = siteDir;
    for (const [prefix, d] of Object.entries(mounts)) {
      if (name.startsWith(prefix)) [dir, name] = [d, name.slice(prefix.length)];
    }
    const file = path.join(dir, name);
    if (!file.startsWith(dir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` }));
  });
}

export const webgpuFlags = ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader', '--use-angle=swiftshader'];
const quietFlags = ['--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run'];

// Only these flags (puppeteer's defaults are left out; it adds its debugging pipe or port).
// webgpu = false: the same browser with WebGPU turned off. protocolMs bounds one call into the page (a wait
// for the page's state is one call: give it more than that wait's timeout).
export async function launch({ webgpu = true, protocolMs = 300000 } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'normlab-chromium-'));
  const args = ['--headless=new', '--no-sandbox', ...(webgpu ? webgpuFlags : ['--disable-features=WebGPU']),
    ...quietFlags, `--user-data-dir=${profile}`];
  const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args,
    ignoreDefaultArgs: true, protocolTimeout: protocolMs });
  console.log(`chromium ${(await browser.version())}: ${browser.process().spawnargs.slice(1).join(' ')}`);
  const close = async () => {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { browser, close };
}

// body(browser) in a browser of its own (launch's options), closed after it, whatever body does.
export async function inBrowser(options, body) {
  const { browser, close } = await launch(options);
  try {
    return await body(browser);
  } finally {
    await close();
  }
}

// Opens url and waits until the page says it is finished (body[data-normlab-state] is not
// "loading"); returns the state and the text of the page's elements.
export async function openPage(browser, url, timeoutMs = 120000) {
  const page = await browser.newPage();
  const console_ = [];
  page.on('console', (m) => console_.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => console_.push(`pageerror: ${e.message}`));
  await page.goto(url, { waitUntil: 'load' });
  try {
    await page.waitForFunction(() => document.body.getAttribute('data-normlab-state') !== 'loading',
      { timeout: timeoutMs, polling: 100 });
  } catch (e) {
    throw new Error(`${url} did not finish within ${timeoutMs} ms; console:\n${console_.join('\n')}`);
  }
  const read = await page.evaluate(() => {
    const text = (id) => {
      const el = document.getElementById(id);
      return el && !el.hidden ? el.textContent : null;
    };
    return {
      state: document.body.getAttribute('data-normlab-state'),
      error: text('normlab-error'),
      noWebgpu: text('normlab-no-webgpu'),
      summary: text('normlab-summary'),
      stats: text('normlab-stats'),
      kernelTest: text('normlab-kernel-test'),
      bodyText: document.body.innerText,
    };
  });
  await page.close();
  return { ...read, console: console_ };
}

// normlab-cli's statistics (--stats, JSON in `dir`) of each scene file, the runs one after another in the
// background while the pages load; returns a Map from each file to the promise of its parsed statistics.
export function cliSceneStats(cli, dir, files) {
  const runs = new Map();
  let chain = Promise.resolve();
  for (const file of files) {
    const out = path.join(dir, path.basename(file));
    chain = chain.then(() => new Promise((resolve, reject) => {
      execFile(cli, ['--scene', file, '--stats', out, '--quiet'], (e, stdout, stderr) => {
        if (e) reject(new Error(`${cli} --scene ${file} failed: ${e.message}\n${stderr}`));
        else resolve(JSON.parse(fs.readFileSync(out, 'utf8')));
      });
    }));
    runs.set(file, chain);
  }
  return runs;
}

// A float32 .npy of `shape` (little endian, C order).
export function npyBytes(shape, values) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat(63 - ((header.length + 10) % 64)) + '\n';
  const head = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(head);
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(new Float32Array(values).buffer)]);
}

// Drops a file on the page as a user's drag and drop would (a DataTransfer in a drop event).
export async function dropFile(page, name, bytes) {
  await page.evaluate((name, b64) => {
    const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bin], name));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, name, Buffer.from(bytes).toString('base64'));
}

// Differences between the CLI's statistics JSON and the page's: numbers within 1e-5 (relative
// above 1), everything else equal; device, gpu_ms and the max error are the run's own.
export function statsDiff(cli, web) {
  const out = [];
  const walk = (a, b, where) => {
    if (typeof a === 'number' && typeof b === 'number') {
      if (!(Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(a)))) out.push(`${where}: ${a} vs ${b}`);
    } else if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) out.push(`${where}: ${a.length} vs ${b.length} values`);
      else a.forEach((v, i) => walk(v, b[i], `${where}[${i}]`));
    } else if (a && b && typeof a === 'object' && typeof b === 'object') {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const key of keys) {
        if (where === '' && ['device', 'gpu_ms', 'max_abs_error_vs_reference'].includes(key)) continue;
        if (!(key in a) || !(key in b)) out.push(`${where}.${key}: only in the ${key in a ? 'CLI' : 'page'}`);
        else walk(a[key], b[key], `${where}.${key}`);
      }
    } else if (a !== b) {
      out.push(`${where}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    }
  };
  walk(cli, web, '');
  return out;
}
