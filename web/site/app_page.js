// The ImGui shell's script (app.html): checks for WebGPU (page_common.js; without it the program runs
// on the CPU backend), fetches app.wasm with a
// progress bar of its bytes, fetches the CJK font the site carries only when Chinese is asked for
// (the address's lang=zh, or later the program's loadFont) and writes it into emscripten's file
// system where views/panels/src/fonts.cpp looks for it (/usr/share/fonts/truetype/droid/), starts app.wasm on
// the canvas with the URL's link (the text after '#': lesson=…&step=…&lang=…&presenter=…&normlab-scene:…,
// and the query's link keys) as its arguments (a link pasted there later opens without a reload), and
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
  // The link's keys in the address's query (app.html?lesson=ID&step=K&lang=zh): the program reads them
  // once, then the address carries the link after '#' alone (other query keys stay).
  var linkKeys = ['lesson', 'step', 'lang', 'presenter'];
  var decoded = function (text) {
    try { return decodeURIComponent(text); } catch (e) { return text; }
  };
  var pageUrl = function () {
    var rest = location.search.slice(1).split('&').filter(function (part) {
      return part && linkKeys.indexOf(part.split('=')[0]) < 0;
    });
    return location.origin + location.pathname + (rest.length ? '?' + rest.join('&') : '');
  };
  var shownLink = null;  // the link the address bar holds (null before the first frame)
  var hashLink = function () { return decoded(location.hash.slice(1)); };
  // Whether the address asks for Chinese (its '#' link's lang, else its query's).
  var wantsChinese = function () {
    var lang = function (text) {
      var found = null;
      text.split('&').forEach(function (part) { if (part.indexOf('lang=') === 0) found = part.slice(5); });
      return found;
    };
    var fromHash = lang(hashLink());
    return (fromHash !== null ? fromHash : lang(decoded(location.search.slice(1)))) === 'zh';
  };

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
    // The shown state's link into the address bar (no reload, no hashchange); '' clears it.
    link: function (line) {
      shownLink = line;
      history.replaceState(null, '', pageUrl() + (line ? '#' + line : ''));
    },
    copyLink: function (line) {
      if (navigator.clipboard) navigator.clipboard.writeText(pageUrl() + '#' + line).catch(function () {});
    },
    // Chinese asked for: the CJK font fetched (a line says so meanwhile), written into the file
    // system, and the program told (normlab_app_cjk_font) between frames.
    loadFont: function () {
      fetchFont().then(function (bytes) {
        if (bytes) putFont(bytes);
        run(function () {
          return window.Module.ccall('normlab_app_cjk_font', null, ['number'], [bytes ? 1 : 0], { async: true });
        });
      });
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
  var progress = site.byId('normlab-progress');
  // `url`'s bytes with the progress bar showing them arrive (`total`: the file's size before any
  // compression on the wire, written into app.html by the build); null when it cannot be fetched.
  var fetchShown = function (url, total) {
    return fetch(url).then(function (r) {
      if (!r.ok) return null;
      if (!r.body || !r.body.getReader) return r.arrayBuffer();
      var reader = r.body.getReader();
      var chunks = [], got = 0;
      var mb = function (n) { return (n / 1e6).toFixed(1); };
      progress.hidden = false;
      var show = function () {
        progress.querySelector('progress').value = total ? Math.min(got / total, 1) : 0;
        progress.querySelector('span').textContent = 'Loading ' + url + ': ' + mb(got) + (total ? ' of ' + mb(total) : '') + ' MB';
      };
      show();
      var next = function () {
        return reader.read().then(function (step) {
          if (step.done) {
            progress.hidden = true;
            var bytes = new Uint8Array(got), at = 0;
            chunks.forEach(function (c) { bytes.set(c, at); at += c.length; });
            return bytes.buffer;
          }
          chunks.push(step.value);
          got += step.value.length;
          show();
          return next();
        });
      };
      return next();
    }).catch(function () { progress.hidden = true; return null; });
  };
  // The font's bytes, or null (Chinese is then unavailable and the program says why).
  var fetchFont = function () { return fetchShown('fonts/' + fontName, Number(progress.dataset.fontBytes) || 0); };
  var putFont = function (bytes) {
    window.Module.FS.mkdirTree(fontDir);
    window.Module.FS.writeFile(fontDir + '/' + fontName, new Uint8Array(bytes));
  };

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
      arguments: backend.concat(['--link', hashLink(), '--query', decoded(location.search.slice(1))]),
      preRun: [function () { if (fontBytes) putFont(fontBytes); }],
      // app.wasm fetched with the progress bar, then compiled (emscripten's instantiateWasm hook).
      instantiateWasm: function (imports, receive) {
        fetchShown('app.wasm', Number(progress.dataset.wasmBytes) || 0).then(function (bytes) {
          if (!bytes) throw new Error('app.wasm could not be loaded from this site');
          site.show('normlab-status', 'Compiling app.wasm…');
          return WebAssembly.instantiate(bytes, imports);
        }).then(function (result) { receive(result.instance, result.module); }, function (e) {
          fail(e && e.message ? e.message : String(e));
        });
        return {};
      },
    }, fail);
  };

  // A link pasted into the address bar opens without a reload (the page's own replaceState fires
  // no hashchange); one asking for Chinese has the program call loadFont.
  window.addEventListener('hashchange', function () {
    if (!site.finished()) return;  // before the first frame: the program is still starting
    var link = hashLink();
    if (shownLink !== null && link === shownLink) return;
    run(function () {
      return window.Module.ccall('normlab_app_open_link', null, ['string'], [link], { async: true });
    });
  });
  document.addEventListener('dragover', function (ev) { ev.preventDefault(); });
  document.addEventListener('drop', function (ev) {
    ev.preventDefault();
    if (ev.dataTransfer && ev.dataTransfer.files.length) openFile(ev.dataTransfer.files[0]);
  });

  site.catchErrors(fail);
  site.backendArguments().then(function (backend) {
    return wantsChinese() ? fetchFont().then(function (bytes) { start(bytes, backend); }) : start(null, backend);
  });
})();
