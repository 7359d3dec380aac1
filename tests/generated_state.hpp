// A State over a generated tensor (randn, seed 11) under one method's defaults: the starting point
// of the Session tests on Vulkan (tests/session) and on WebGPU (web/src/session_test.cpp).
#pragma once
#include "normlab/core/state.hpp"

namespace normlab::test {

inline core::State generated_state(core::Method m, core::Shape4 shape) {
    core::State s;
    s.source.kind = core::TensorSource::Kind::Generated;
    s.source.shape = shape;
    s.source.seed = 11;
    s.spec = core::default_spec(m);
    return s;
}

}  // namespace normlab::test
