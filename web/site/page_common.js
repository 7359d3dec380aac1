// What both normlab pages share (index.html's page.js, app.html's app_page.js): the page's elements
// (a line shown in one, <body data-normlab-state> "loading" until done()), the check made before a
// wasm program starts (a secure context, WebGPU in the browser and an adapter: when one is missing,
// #normlab-no-webgpu says in one line what is missing and that normlab computes on the CPU instead,
// and the program gets --cpu with the reason; the bench, which needs WebGPU, stops with that line;
// never a blank page or canvas), loading the program, files opened and downloaded, and script errors turned into the page's one error line.
'use strict';
window.normlabSite = (function () {
  var finished = false;
  var fileCount = 0;
  var byId = function (id) { return document.getElementById(id); };
  var show = function (id, text) {
    var el = byId(id);
    el.textContent = text;
    el.hidden = false;
  };
  var done = function (state) {
    finished = true;
    byId('normlab-status').hidden = true;
    document.body.setAttribute('data-normlab-state', state);
  };
  var oneLine = function (text) { return String(text).replace(/\s+/g, ' ').trim(); };
  // Resolves to { adapter } or to { reason } (why there is no WebGPU: a secure context, navigator.gpu
  // and an adapter are needed).
  var probe = function () {
    if (!window.isSecureContext)
      return Promise.resolve({ reason: 'this page is not in a secure context (open it over https or from localhost)' });
    if (!('gpu' in navigator) || !navigator.gpu)
      return Promise.resolve({ reason: 'this browser does not offer it (navigator.gpu is missing)' });
    return navigator.gpu.requestAdapter().then(function (adapter) {
      return adapter ? { adapter: adapter }
        : { reason: 'this browser gave no WebGPU adapter (WebGPU is turned off, or this GPU is not supported)' };
    }, function (e) {
      return { reason: 'requestAdapter() failed (' + oneLine(e && e.message ? e.message : e) + ')' };
    });
  };
  return {
    byId: byId,
    show: show,
    done: done,
    oneLine: oneLine,
    finished: function () { return finished; },
    // The pages: resolves to the program's backend arguments, [] for WebGPU, or ['--cpu', REASON] once
    // the page says in one line what is missing (the program then runs on the CPU backend).
    backendArguments: function () {
      return probe().then(function (p) {
        if (p.adapter) return [];
        show('normlab-no-webgpu', 'No WebGPU: ' + p.reason + '. normlab computes on the CPU instead (float32, ' +
          'classroom-sized tensors); Chrome and Edge 113 or newer run it on the GPU.');
        return ['--cpu', p.reason];
      });
    },
    // The bench, which measures WebGPU: resolves to the adapter, or to null once the page says what is
    // missing (state "no-webgpu").
    requestWebGpu: function () {
      return probe().then(function (p) {
        if (p.adapter) return p.adapter;
        show('normlab-no-webgpu', 'The bench measures WebGPU, and ' + p.reason + '. ' +
          'Chrome and Edge 113 or newer run it, as do other browsers with WebGPU turned on.');
        done('no-webgpu');
        return null;
      });
    },
    // Writes a file the user picked or dropped into the program's file system (a folder per file, so
    // names never clash); resolves to its path there.
    putFile: function (file) {
      return file.arrayBuffer().then(function (bytes) {
        var dir = '/files/' + (++fileCount);
        window.Module.FS.mkdirTree(dir);
        var path = dir + '/' + file.name.replace(/[\/\\]/g, '_');
        window.Module.FS.writeFile(path, new Uint8Array(bytes));
        return path;
      });
    },
    // Hands `bytes` to the browser as a download named `name`.
    saveFile: function (bytes, name) {
      var blob = new Blob([bytes], { type: 'application/octet-stream' });
      var a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(a.href); }, 60000);
    },
    // The URL's scene (the text after '#') as the program's arguments.
    sceneArguments: function () {
      var hash = location.hash.slice(1);
      try { hash = decodeURIComponent(hash); } catch (e) { /* keep it as it is */ }
      return hash ? ['--scene', hash] : [];
    },
    // Starts the emscripten program `src` with `module` (window.Module); fail(line) on any error.
    start: function (src, module, fail) {
      module.print = function (text) { console.log(text); };
      module.printErr = function (text) { console.error(text); };
      module.onAbort = function (what) { fail('normlab stopped: ' + what); };
      window.Module = module;
      var script = document.createElement('script');
      script.src = src;
      script.onerror = function () { fail(src + ' could not be loaded from this site'); };
      document.body.appendChild(script);
    },
    catchErrors: function (fail) {
      window.addEventListener('error', function (ev) { fail(ev.message || 'a script error'); });
      window.addEventListener('unhandledrejection', function (ev) {
        fail(ev.reason && ev.reason.message ? ev.reason.message : String(ev.reason));
      });
    },
  };
})();
