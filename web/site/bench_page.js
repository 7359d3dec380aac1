// The bench page's script (bench.html): starts bench.wasm (web/bench/bench_main.cpp: normlab's WGSL
// kernels against a WGSL copy, and the page's recompute), then runs onnxruntime-web's WebGPU
// execution provider on the same x and shape (ort/ and models/ come from scripts/bench-web.sh's
// server: web/node_modules/onnxruntime-web/dist and bench/web_models.py's ONNX files), checks its
// y against normlab's once, and writes the whole JSON into <pre id="normlab-bench">.
'use strict';
(function () {
  var site = window.normlabSite;
  var query = new URLSearchParams(location.search);
  var quick = query.get('quick') === '1';
  var only = query.get('cases');  // a comma-separated list of case names: only those, no recompute
  var arrays = {};  // x and each case's y, from bench.wasm

  var fail = function (line) {
    if (site.finished()) return;
    site.show('normlab-error', 'normlab bench: ' + site.oneLine(line));
    site.done('error');
  };

  var loadScript = function (src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = src;
      s.onload = resolve;
      s.onerror = function () { reject(new Error(src + ' could not be loaded from this site')); };
      document.body.appendChild(s);
    });
  };
  var median = function (v) { v = v.slice().sort(function (a, b) { return a - b; }); return v[v.length >> 1]; };
  var maxAbsDiff = function (a, b) {
    if (!a || !b || a.length !== b.length) return null;
    var m = 0;
    for (var i = 0; i < a.length; ++i) m = Math.max(m, Math.abs(a[i] - b[i]));
    return m;
  };

  // Lines onnxruntime-web logs while it creates a session (nodes it puts on the CPU, and so on).
  async function withLog(fn) {
    var lines = [], saved = {};
    ['log', 'warn', 'error'].forEach(function (k) {
      saved[k] = console[k];
      console[k] = function () {
        lines.push(Array.prototype.join.call(arguments, ' '));
        saved[k].apply(console, arguments);
      };
    });
    try { return [await fn(), lines]; } finally { Object.assign(console, saved); }
  }

  // One model: session.run with x in a GPU buffer and y left in one, each run followed by
  // onSubmittedWorkDone on onnxruntime-web's device; y read back once for the check.
  async function ortCase(ort, model, dims, reps) {
    var made = await withLog(function () {
      return ort.InferenceSession.create('models/' + model + '.onnx',
        { executionProviders: ['webgpu'], preferredOutputLocation: 'gpu-buffer' });
    });
    var session = made[0];
    var device = await ort.env.webgpu.device;
    var x = arrays.x;
    var buf = device.createBuffer({ size: x.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(buf, 0, x);
    var feeds = { x: ort.Tensor.fromGpuBuffer(buf, { dataType: 'float32', dims: dims }) };
    var once = async function () {
      var t = performance.now();
      var out = await session.run(feeds);
      await device.queue.onSubmittedWorkDone();
      return [performance.now() - t, out.y];
    };
    var first = await once();
    var y = await first[1].getData();
    first[1].dispose();
    var ms = [];
    for (var i = 0; i < reps + 2; ++i) {
      var r = await once();
      r[1].dispose();
      if (i >= 2) ms.push(r[0]);
    }
    await session.release();
    buf.destroy();
    var notes = made[1].filter(function (l) { return /CPU|assigned|fallback|not supported/i.test(l); });
    return { ms: median(ms), y: y, notes: notes };
  }

  async function addOrt(result, adapter) {
    var ort = window.ort;
    ort.env.wasm.wasmPaths = new URL('ort/', location.href).href;
    ort.env.wasm.numThreads = 1;  // a plain static server: no cross-origin isolation, no threads
    var models = await (await fetch('models/models.json')).json();
    if (models.shape.join('x') !== result.dims.join('x'))
      throw new Error('models/ holds models of ' + models.shape.join('x') + ', the bench runs ' +
        result.dims.join('x'));
    result.ort = { version: ort.env.versions.web, execution_provider: 'webgpu', io: 'gpu-buffer input and output',
      timing: 'wall clock of await session.run + await device.queue.onSubmittedWorkDone(); median of reps',
      models: models.models };
    result.adapter_timestamp_query = adapter.features.has('timestamp-query');
    for (var c of result.cases) {
      if (!c.ort_model) continue;
      var r = await ortCase(ort, c.ort_model, result.dims, c.reps);
      c.ort_op = models.models[c.ort_model];
      c.ort_ms = r.ms;
      c.ort_over_normlab = r.ms / c.ms;  // > 1: normlab is faster
      c.ort_max_abs_diff = maxAbsDiff(r.y, arrays[c.norm]);
      if (r.notes.length) c.ort_notes = r.notes;
      console.log('bench: onnxruntime-web ' + c.ort_model + ' ' + r.ms.toFixed(2) + ' ms');
    }
  }

  site.catchErrors(fail);
  site.requestWebGpu().then(function (adapter) {
    if (!adapter) return;
    site.start('bench.js', {
      arguments: (quick ? ['--quick'] : []).concat(only ? ['--cases', only] : []),
      normlabBenchArray: function (name, values) { arrays[name] = values; },
      normlabBenchDone: function (text, error) {
        if (error) return fail(error);
        var result = JSON.parse(text);
        loadScript('ort/ort.webgpu.min.js').then(function () { return addOrt(result, adapter); }).then(function () {
          site.show('normlab-bench', JSON.stringify(result, null, 1));
          site.done('done');
        }).catch(function (e) { fail(e && e.message ? e.message : String(e)); });
      },
    }, fail);
  });
})();
