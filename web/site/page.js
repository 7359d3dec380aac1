// The results page's script: checks for WebGPU (page_common.js: without it one line says what is
// missing and the program computes on the CPU backend), reads the URL (?stats=1, #normlab-scene:…), starts normlab.wasm with
// those as arguments (?test=kernels or ?test=train: the in-browser tests' tests.wasm instead), and gives the
// wasm program the functions that fill the page (web/src/page_bridge.hpp calls them).
'use strict';
(function () {
  var site = window.normlabSite;
  var show = site.show;

  window.normlabPage = {
    status: function (line) { show('normlab-status', line); },
    summary: function (text) { show('normlab-summary', text); },
    stats: function (json) { show('normlab-stats', json); },
    kernelReport: function (json) { show('normlab-kernel-test', json); },
    error: function (line) { show('normlab-error', 'normlab: ' + site.oneLine(line)); },
    done: site.done,
  };

  var fail = function (line) {
    if (site.finished()) return;
    window.normlabPage.error(line);
    site.done('error');
  };

  site.catchErrors(fail);
  site.backendArguments().then(function (backend) {
    var query = new URLSearchParams(location.search);
    if (query.get('test') === 'kernels') return site.start('tests.js', { arguments: [] }, fail);
    if (query.get('test') === 'train')  // ?test=train&mode=quick|full|bench: training on WebGPU
      return site.start('tests.js', { arguments: ['train', query.get('mode') || 'quick'] }, fail);
    var args = backend.slice();
    if (query.get('stats') === '1') args.push('--stats');
    site.start('normlab.js', { arguments: args.concat(site.sceneArguments()) }, fail);
  });
})();
