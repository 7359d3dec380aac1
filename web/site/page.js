// The results page's script: checks for WebGPU (a clear message when it is missing, never a
// blank page), reads the URL (?stats=1, ?test=kernels, #normlab-scene:…), starts normlab.wasm
// with those as arguments, and gives the wasm program the functions that fill the page
// (web/src/page_bridge.hpp calls them).
'use strict';
(function () {
  var byId = function (id) { return document.getElementById(id); };
  var show = function (id, text) {
    var el = byId(id);
    el.textContent = text;
    el.hidden = false;
  };
  var finished = false;
  var done = function (state) {
    finished = true;
    byId('normlab-status').hidden = true;
    document.body.setAttribute('data-normlab-state', state);
  };
  var oneLine = function (text) { return String(text).replace(/\s+/g, ' ').trim(); };

  window.normlabPage = {
    status: function (line) { show('normlab-status', line); },
    summary: function (text) { show('normlab-summary', text); },
    stats: function (json) { show('normlab-stats', json); },
    kernelReport: function (json) { show('normlab-kernel-test', json); },
    error: function (line) { show('normlab-error', 'normlab: ' + oneLine(line)); },
    done: done,
  };

  var noWebGpu = function (what) {
    show('normlab-no-webgpu', 'This page needs WebGPU, and ' + what + '. ' +
      'Chrome and Edge 113 or newer run it, as do other browsers with WebGPU turned on.');
    done('no-webgpu');
  };

  var fail = function (line) {
    if (finished) return;
    window.normlabPage.error(line);
    done('error');
  };

  var start = function () {
    if (!window.isSecureContext) {
      noWebGpu('this page is not in a secure context (open it over https or from localhost)');
      return;
    }
    if (!('gpu' in navigator) || !navigator.gpu) {
      noWebGpu('this browser does not offer it (navigator.gpu is missing)');
      return;
    }
    navigator.gpu.requestAdapter().then(function (adapter) {
      if (!adapter) {
        noWebGpu('this browser gave no WebGPU adapter (WebGPU is turned off, or this GPU is not supported)');
        return;
      }
      var query = new URLSearchParams(location.search);
      var args = [];
      if (query.get('test') === 'kernels') args.push('--kernel-test');
      if (query.get('stats') === '1') args.push('--stats');
      var hash = location.hash.slice(1);
      try { hash = decodeURIComponent(hash); } catch (e) { /* keep it as it is */ }
      if (hash) args.push('--scene', hash);
      window.Module = {
        arguments: args,
        print: function (text) { console.log(text); },
        printErr: function (text) { console.error(text); },
        onAbort: function (what) { fail('normlab stopped: ' + what); },
      };
      var script = document.createElement('script');
      script.src = 'normlab.js';
      script.onerror = function () { fail('normlab.js could not be loaded from this site'); };
      document.body.appendChild(script);
    }, function (e) {
      noWebGpu('requestAdapter() failed (' + oneLine(e && e.message ? e.message : e) + ')');
    });
  };

  window.addEventListener('error', function (ev) { fail(ev.message || 'a script error'); });
  window.addEventListener('unhandledrejection', function (ev) {
    fail(ev.reason && ev.reason.message ? ev.reason.message : String(ev.reason));
  });
  start();
})();
