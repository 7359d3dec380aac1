// The bench page's script (bench.html): starts bench.wasm (web/bench/bench_main.cpp: normlab's WGSL
// kernels against a WGSL copy, and the page's recompute), which runs onnxruntime-web's WebGPU
// execution provider on the same x and shape through this page between its own repetitions (ort/
// and models/ come from scripts/bench-web.sh's server: web/node_modules/onnxruntime-web/dist and
// bench/web_models.py's ONNX files); y is checked against normlab's once, and the whole JSON
// written into <pre id="normlab-bench">.
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

  // onnxruntime-web, driven by bench.wasm between its own repetitions (web/bench/ort_steps.cpp):
  // Module.normlabOrtStart(step, arg, caseName) starts one step, normlabOrtBusy() is 1 until it
  // has finished (then the page wakes bench.wasm's wait), normlabOrtError() holds its failure.
  // Steps: 'load' (the script; models.json must hold the shape arg), 'open' (a session of model
  // arg, x in a GPU buffer of onnxruntime-web's device, y read back once, two warm-up runs), 'run'
  // (one timed session.run, x and y in GPU buffers, then onSubmittedWorkDone on that device),
  // 'close' (the session released, y compared with normlab's).
  var ort = { busy: false, error: '', x: null, device: null, session: null, feeds: null, meta: null,
    cases: {} };  // per case name: { model, ms: [], y, notes }
  var ortOnce = async function () {
    var t = performance.now();
    var out = await ort.session.run(ort.feeds);
    await ort.device.queue.onSubmittedWorkDone();
    return [performance.now() - t, out.y];
  };
  var ortSteps = {
    load: async function (shape) {
      await loadScript('ort/ort.webgpu.min.js');
      var lib = window.ort;
      lib.env.wasm.wasmPaths = new URL('ort/', location.href).href;
      lib.env.wasm.numThreads = 1;  // a plain static server: no cross-origin isolation, no threads
      ort.meta = await (await fetch('models/models.json')).json();
      var dims = JSON.parse(shape);  // Shape4::str(): [16, 64, 64, 64]
      if (ort.meta.shape.join('x') !== dims.join('x'))
        throw new Error('models/ holds models of ' + ort.meta.shape.join('x') + ', the bench runs ' + dims.join('x'));
    },
    open: async function (model, name) {
      var lib = window.ort;
      var made = await withLog(function () {
        return lib.InferenceSession.create('models/' + model + '.onnx',
          { executionProviders: ['webgpu'], preferredOutputLocation: 'gpu-buffer' });
      });
      ort.session = made[0];
      ort.device = await lib.env.webgpu.device;
      var x = arrays.x;  // on this session's device (onnxruntime-web may make a new one per session)
      ort.x = ort.device.createBuffer({ size: x.byteLength,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
      ort.device.queue.writeBuffer(ort.x, 0, x);
      ort.feeds = { x: lib.Tensor.fromGpuBuffer(ort.x, { dataType: 'float32', dims: ort.meta.shape }) };
      var first = await ortOnce();
      var c = { model: model, ms: [], y: await first[1].getData(),
        notes: made[1].filter(function (l) { return /CPU|assigned|fallback|not supported/i.test(l); }) };
      first[1].dispose();
      for (var i = 0; i < 2; ++i) (await ortOnce())[1].dispose();
      ort.cases[name] = c;
    },
    run: async function (model, name) {
      var r = await ortOnce();
      r[1].dispose();
      ort.cases[name].ms.push(r[0]);
    },
    close: async function (model, name) {
      await ort.session.release();
      ort.session = null;
      ort.x.destroy();
      var c = ort.cases[name];
      c.max_abs_diff = maxAbsDiff(c.y, arrays[name]);
      c.y = null;
      console.log('bench: onnxruntime-web ' + model + ' ' + median(c.ms).toFixed(2) + ' ms');
    },
  };
  var ortHooks = {
    normlabOrtStart: function (step, model, name) {
      ort.busy = true;
      ort.error = '';
      ortSteps[step](model, name).catch(function (e) {
        ort.error = 'onnxruntime-web (' + step + ' ' + model + '): ' + (e && e.message ? e.message : String(e));
      }).then(function () {
        ort.busy = false;
        if (Module.normlabWake) Module.normlabWake();  // WgpuContext::wait in ort_steps.cpp
      });
    },
    normlabOrtBusy: function () { return ort.busy ? 1 : 0; },
    normlabOrtError: function () { return ort.error; },
  };

  // The page's part of the JSON: onnxruntime-web's figures beside normlab's, per case.
  var addOrt = function (result, adapter) {
    result.ort = { version: window.ort.env.versions.web, execution_provider: 'webgpu',
      io: 'gpu-buffer input and output',
      timing: 'wall clock of await session.run + await device.queue.onSubmittedWorkDone(); median of reps, ' +
        "each rep right after normlab's and the copy's",
      models: ort.meta.models };
    result.adapter_timestamp_query = adapter.features.has('timestamp-query');
    for (var c of result.cases) {
      var o = ort.cases[c.norm];
      if (!c.ort_model || !o) continue;
      c.ort_op = ort.meta.models[c.ort_model];
      c.ort_ms = median(o.ms);
      c.ort_over_normlab = c.ort_ms / c.ms;  // > 1: normlab is faster
      c.ort_max_abs_diff = o.max_abs_diff;
      if (o.notes.length) c.ort_notes = o.notes;
    }
  };

  site.catchErrors(fail);
  site.requestWebGpu().then(function (adapter) {
    if (!adapter) return;
    site.start('bench.js', Object.assign({
      arguments: (quick ? ['--quick'] : []).concat(only ? ['--cases', only] : []),
      normlabBenchArray: function (name, values) { arrays[name] = values; },
      normlabBenchDone: function (text, error) {
        if (error) return fail(error);
        try {
          var result = JSON.parse(text);
          addOrt(result, adapter);
          site.show('normlab-bench', JSON.stringify(result, null, 1));
          site.done('done');
        } catch (e) { fail(e && e.message ? e.message : String(e)); }
      },
    }, ortHooks), fail);
  });
})();
