// normlab's --pre-js: maps the WebGPU calls of emscripten 3.1.6's library_webgpu.js (a 2022
// snapshot) onto today's API (docs/browser.md, "Emscripten 3.1.6's WebGPU layer"):
//   pass.dispatch(x, y, z)        -> pass.dispatchWorkgroups(x, y, z)
//   a pipeline with a null layout -> layout: 'auto' (normlab passes explicit layouts; kept for safety)
//   requestDevice's limits        -> maxBufferSize added from the adapter (3.1.6's WGPULimits has
//                                    no such field), so a buffer may be as large as one binding
// Each mapping applies only where the browser lacks the old name, so a browser that still has it
// is left alone.
(function normlabWebGpuShim() {
  if (typeof GPUComputePassEncoder !== 'undefined') {
    var pass = GPUComputePassEncoder.prototype;
    if (!pass.dispatch && pass.dispatchWorkgroups) {
      pass.dispatch = function (x, y, z) { return this.dispatchWorkgroups(x, y, z); };
    }
  }
  if (typeof GPUDevice !== 'undefined') {
    var device = GPUDevice.prototype;
    var createCompute = device.createComputePipeline;
    device.createComputePipeline = function (desc) {
      if (desc && !desc.layout) desc.layout = 'auto';
      return createCompute.call(this, desc);
    };
  }
  if (typeof GPUAdapter !== 'undefined') {
    var adapter = GPUAdapter.prototype;
    var requestDevice = adapter.requestDevice;
    adapter.requestDevice = function (desc) {
      desc = desc || {};
      var wanted = desc.requiredLimits || {};
      if (wanted.maxBufferSize === undefined && this.limits && this.limits.maxBufferSize) {
        wanted.maxBufferSize = this.limits.maxBufferSize;
        desc.requiredLimits = wanted;
      }
      return requestDevice.call(this, desc);
    };
  }
})();
