// The ImGui shell's script (app.html): checks for WebGPU (page_common.js; without it the program runs
// on the CPU backend), fetches the CJK font the
// site carries and writes it into emscripten's file system where views/fonts.cpp looks for it
// (/usr/share/fonts/truetype/droid/), starts app.wasm on the canvas with the URL's scene
// (#normlab-scene:…) as its argument (a scene pasted there later opens without a reload), and
// gives the program the functions it calls
// (web/src/page_bridge.hpp): status and error lines, the state, the shell's report; and the File
// menu's (web/src/web_app.cpp): the file picker and files dropped on the page (written into the
// file system and opened with normlab_app_open_file, or normlab_app_open_style for AdaIN's style), downloads, the address bar's scene, the
// clipboard (text pasted into the page goes to normlab_app_paste: into the app's text field, or opened
// as a scene line).
'use strict';
(function () {
  var site = window.normlabSite;

  // An error after the first frame (a lost device) is shown too; only the first error line stays.
  var fail = function (line) {
    if (document.body.getAttribute('data-normlab-state') === 'error') return;
    site.show('normlab-error', 'normlab: ' + site.oneLine(line));
    site.done('error');
  };
  // One wasm call at a time (an asynchronous ccall may wait for the GPU), never while a frame that waits for
  // the GPU is suspended (web_window.cpp: its stack must not be entered again); the page says "loading" meanwhile.
  var queue = Promise.resolve();
  var noFrameUnderWay = function () {
    return new Promise(function (done) {
      (function poll() {
        if (!window.normlabFrameUnderWay) done(); else setTimeout(poll, 4);
      })();
    });
  };
  var run = function (call) {
    queue = queue.then(noFrameUnderWay).then(function () {
      document.body.setAttribute('data-normlab-state', 'loading');
      return call();
    }).then(function () { site.done('done'); }, function (e) { fail(e && e.message ? e.message : String(e)); });
  };
  // A file picked or dropped, opened by `call`: normlab_app_open_file (a tensor or scene) or
  // normlab_app_open_style (AdaIN's style image).
  var openFile = function (file, call) {
    if (!file || !site.finished()) return;
    run(function () {
      return site.putFile(file).then(function (path) {
        return window.Module.ccall(call || 'normlab_app_open_file', null, ['string', 'string'], [path, file.name], { async: true });
      });
    });
  };
  var picker = document.createElement('input');
  var pickedFor = '';  // pickFile's purpose: '' (a tensor or scene) or 'style'
  picker.type = 'file';
  picker.hidden = true;
  picker.addEventListener('change', function () {
    openFile(picker.files[0], pickedFor === 'style' ? 'normlab_app_open_style' : 'normlab_app_open_file');
    picker.value = '';
  });
  document.body.appendChild(picker);
  var baseUrl = function () { return location.href.split('#')[0]; };
  var shownLink = null;  // the scene line the address bar holds (null before the first frame)

  window.normlabPage = {
    status: function (line) { site.show('normlab-status', line); },
    error: fail,
    note: function (line) { console.log('normlab: ' + line); },
    report: function (json) { site.byId('normlab-app-report').textContent = json; },
    done: site.done,
    pickFile: function (purpose) {
      pickedFor = purpose;
      picker.accept = purpose === 'style' ? '.png,.jpg,.jpeg,image/png,image/jpeg'
        : '.npy,.json,.png,.jpg,.jpeg,image/png,image/jpeg,application/json';
      picker.click();
    },
    download: function (path, name) { site.saveFile(window.Module.FS.readFile(path), name); },
    // The shown state's scene line into the address bar (no reload, no hashchange); '' clears it.
    link: function (line) {
      shownLink = line;
      history.replaceState(null, '', baseUrl() + (line ? '#' + line : ''));
    },
    copyLink: function (line) {
      if (navigator.clipboard) navigator.clipboard.writeText(baseUrl() + '#' + line).catch(function () {});
    },
    // File > Paste scene: the clipboard's text, where the browser gives it (else the status line's
    // hint stays: Ctrl+V on the page pastes without asking).
    pasteScene: function () {
      if (!navigator.clipboard || !navigator.clipboard.readText) return;
      navigator.clipboard.readText().then(function (text) { paste(text, 1); }, function () {});
    },
  };
  var paste = function (text, fromMenu) {
    if (!site.finished()) return;
    run(function () {
      return window.Module.ccall('normlab_app_paste', null, ['string', 'number'], [text, fromMenu], { async: true });
    });
  };
  document.addEventListener('paste', function (ev) {
    var text = ev.clipboardData ? ev.clipboardData.getData('text/plain') : '';
    if (!text) return;
    ev.preventDefault();
    paste(text, 0);
  });

  var fontDir = '/usr/share/fonts/truetype/droid';
  var fontName = 'DroidSansFallbackFull.ttf';
  // The font's bytes, or null (Chinese is then unavailable and the Language menu says why).
  var font = fetch('fonts/' + fontName).then(function (r) {
    return r.ok ? r.arrayBuffer() : null;
  }).catch(function () { return null; });

  // The File menu's keys (web_app.cpp's file_actions) are the page's, not the browser's: Ctrl (⌘ on a Mac)
  // with S, O, E or P, and Ctrl+Shift+C, neither save the page, open a file, print, search nor inspect.
  // The key still reaches the program (preventDefault stops the browser's action, not the event).
  document.addEventListener('keydown', function (ev) {
    if (!(ev.ctrlKey || ev.metaKey) || ev.altKey) return;
    if (ev.shiftKey ? ev.code === 'KeyC' : ['KeyS', 'KeyO', 'KeyE', 'KeyP'].indexOf(ev.code) >= 0) ev.preventDefault();
  });

  // A right click clears the heatmap's selection, as on the desktop: the browser's own menu stays shut.
  site.byId('canvas').addEventListener('contextmenu', function (e) { e.preventDefault(); });

  var start = function (fontBytes, backend) {
    site.start('app.js', {
      canvas: site.byId('canvas'),
      arguments: backend.concat(site.sceneArguments()),
      preRun: [function () {
        if (!fontBytes) return;
        window.Module.FS.mkdirTree(fontDir);
        window.Module.FS.writeFile(fontDir + '/' + fontName, new Uint8Array(fontBytes));
      }],
    }, fail);
  };

  // A scene pasted into the address bar opens without a reload (the page's own replaceState fires
  // no hashchange).
  window.addEventListener('hashchange', function () {
    if (!site.finished()) return;  // before the first frame: the program is still starting
    var args = site.sceneArguments();
    if (shownLink !== null && (args[1] || '') === shownLink) return;
    run(function () {
      return window.Module.ccall('normlab_app_open_scene', null, ['string'], [args[1] || ''], { async: true });
    });
  });
  document.addEventListener('dragover', function (ev) { ev.preventDefault(); });
  document.addEventListener('drop', function (ev) {
    ev.preventDefault();
    if (ev.dataTransfer && ev.dataTransfer.files.length) openFile(ev.dataTransfer.files[0]);
  });

  site.catchErrors(fail);
  site.backendArguments().then(function (backend) {
    return font.then(function (bytes) { start(bytes, backend); });
  });
})();
