// The page's data (loaded after page.js): files opened with "Open…" or dropped anywhere on the
// page (.npy, PNG, JPEG, scenes), the scene kept in the address bar (a scene pasted there opens
// too), "Copy link" and the downloads (scene, statistics, y). The wasm side is
// web/src/page_exports.hpp; one call runs at a time, the next waits for it.
'use strict';
(function () {
  var byId = function (id) { return document.getElementById(id); };
  var page = window.normlabPage;
  var queue = Promise.resolve();
  var shownLink = null;  // the scene line the address bar holds ('' none; null before the first result)

  var note = function (line) {
    var el = byId('normlab-note');
    el.textContent = line;
    el.hidden = !line;
  };
  var setTools = function (enabled) {
    byId('normlab-tools').hidden = false;
    document.querySelectorAll('#normlab-tools button, #normlab-tools input[type=file]').forEach(function (el) {
      el.disabled = !enabled;
    });
  };
  var baseUrl = function () { return location.href.split('#')[0]; };

  page.note = note;
  page.link = function (line) {
    shownLink = line;
    history.replaceState(null, '', baseUrl() + (line ? '#' + line : ''));
  };
  var pageDone = page.done;
  page.done = function (state) {
    pageDone(state);
    if (state !== 'no-webgpu') setTools(true);
  };

  // Runs one wasm call after the ones before it; the page says "loading" meanwhile.
  var run = function (what) {
    queue = queue.then(function () {
      setTools(false);
      byId('normlab-error').hidden = true;
      note('');
      document.body.setAttribute('data-normlab-state', 'loading');
      return Promise.resolve(what()).catch(function (e) {
        page.error(e && e.message ? e.message : String(e));
        page.done('error');
      });
    });
    return queue;
  };

  var openFile = function (file) {
    if (!file) return;
    run(function () {
      return window.normlabSite.putFile(file).then(function (path) {
        return Module.ccall('normlab_open_file', null, ['string', 'string'], [path, file.name], { async: true });
      });
    });
  };

  var download = function (kind) {
    run(function () {
      var name = Module.ccall('normlab_download', 'string', ['string'], [kind]);
      if (!name) return;
      window.normlabSite.saveFile(Module.FS.readFile('/downloads/' + name), name);
    });
  };

  var copyLink = function () {
    run(function () {
      var line = Module.ccall('normlab_link', 'string', [], []);
      page.done('done');
      if (!line) return;
      var url = baseUrl() + '#' + line;
      var field = byId('normlab-link');
      field.value = url;
      field.hidden = false;
      field.select();
      if (!navigator.clipboard) return note('select the link above and copy it (this browser gives no clipboard)');
      return navigator.clipboard.writeText(url).then(function () { note('link copied'); }, function () {
        note('select the link above and copy it (the browser refused the clipboard)');
      });
    });
  };

  byId('normlab-open').addEventListener('change', function (ev) {
    openFile(ev.target.files[0]);
    ev.target.value = '';
  });
  byId('normlab-copy-link').addEventListener('click', copyLink);
  document.querySelectorAll('[data-download]').forEach(function (b) {
    b.addEventListener('click', function () { download(b.getAttribute('data-download')); });
  });
  document.addEventListener('dragover', function (ev) { ev.preventDefault(); });
  document.addEventListener('drop', function (ev) {
    ev.preventDefault();
    if (ev.dataTransfer && ev.dataTransfer.files.length) openFile(ev.dataTransfer.files[0]);
  });
  // A scene pasted into the address bar (the page's own replaceState fires no hashchange).
  window.addEventListener('hashchange', function () {
    var hash = location.hash.slice(1);
    try { hash = decodeURIComponent(hash); } catch (e) { /* keep it as it is */ }
    if (shownLink === null || hash === shownLink) return;
    run(function () {
      return Module.ccall('normlab_open_scene', null, ['string'], [hash], { async: true });
    });
  });
})();
