// The passes of the cnn's pooling on NCHW float32 buffers, appended to a TrainProgram: AvgPool2d(2)
// (shaders/train_pool_avg2_forward.comp, train_pool_avg2_backward.comp) and the global average pool
// (train_pool_global_forward.comp, a workgroup sum per plane; train_pool_global_backward.comp). Buffers are
// indices into TrainProgram::buffers; every pass overwrites its outputs. The float64 meaning is
// pool_reference.hpp.
#pragma once
#include "normlab/train/pool_reference.hpp"
#include "normlab/train/train_program.hpp"

namespace normlab::train {

// y: n×c×(h/2)×(w/2) from x: n×c×h×w.
void plan_avgpool2_forward(TrainProgram& p, const PoolShape& s, int x, int y);
// dx: n×c×h×w from dy: n×c×(h/2)×(w/2).
void plan_avgpool2_backward(TrainProgram& p, const PoolShape& s, int dy, int dx);
// y: n×c from x: n×c×h×w.
void plan_global_avgpool_forward(TrainProgram& p, const PoolShape& s, int x, int y);
// dx: n×c×h×w from dy: n×c.
void plan_global_avgpool_backward(TrainProgram& p, const PoolShape& s, int dy, int dx);

}  // namespace normlab::train
