// The ImGui shell's script (app.html): checks for WebGPU (page_common.js), fetches the CJK font the
// site carries and writes it into emscripten's file system where views/fonts.cpp looks for it
// (/usr/share/fonts/truetype/droid/), starts app.wasm on the canvas with the URL's scene
// (#normlab-scene:…) as its argument (a scene pasted there later opens without a reload), and
// gives the program the functions it calls
// (web/src/page_bridge.hpp): status and error lines, the state, the shell's report.
'use strict';
(function () {
  var site = window.normlabSite;

  // An error after the first frame (a lost device) is shown too; only the first error line stays.
  var fail = function (line) {
    if (document.body.getAttribute('data-normlab-state') === 'error') return;
    site.show('normlab-error', 'normlab: ' + site.oneLine(line));
    site.done('error');
  };
  window.normlabPage = {
    status: function (line) { site.show('normlab-status', line); },
    error: fail,
    note: function (line) { console.log('normlab: ' + line); },
    report: function (json) { site.byId('normlab-app-report').textContent = json; },
    done: site.done,
  };

  var fontDir = '/usr/share/fonts/truetype/droid';
  var fontName = 'DroidSansFallbackFull.ttf';
  // The font's bytes, or null (Chinese is then unavailable and the Language menu says why).
  var font = fetch('fonts/' + fontName).then(function (r) {
    return r.ok ? r.arrayBuffer() : null;
  }).catch(function () { return null; });

  // A right click clears the heatmap's selection, as on the desktop: the browser's own menu stays shut.
  site.byId('canvas').addEventListener('contextmenu', function (e) { e.preventDefault(); });

  var start = function (fontBytes) {
    site.start('app.js', {
      canvas: site.byId('canvas'),
      arguments: site.sceneArguments(),
      preRun: [function () {
        if (!fontBytes) return;
        window.Module.FS.mkdirTree(fontDir);
        window.Module.FS.writeFile(fontDir + '/' + fontName, new Uint8Array(fontBytes));
      }],
    }, fail);
  };

  // A scene pasted into the address bar opens without a reload, one call after the other (an
  // asynchronous ccall may wait for the GPU); the page says "loading" meanwhile.
  var queue = Promise.resolve();
  window.addEventListener('hashchange', function () {
    if (!site.finished()) return;  // before the first frame: the program is still starting
    var args = site.sceneArguments();
    queue = queue.then(function () {
      document.body.setAttribute('data-normlab-state', 'loading');
      return window.Module.ccall('normlab_app_open_scene', null, ['string'], [args[1] || ''], { async: true });
    }).then(function () { site.done('done'); }, function (e) { fail(e && e.message ? e.message : String(e)); });
  });

  site.catchErrors(fail);
  site.requestWebGpu().then(function (adapter) {
    if (adapter) return font.then(start);
  });
})();
