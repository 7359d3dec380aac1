// Training: advances the step counter (the last pass of a step), train_step.comp's twin.
@group(0) @binding(0) var<storage, read_write> STEP : array<u32>;

@compute @workgroup_size(1)
fn main() {
  STEP[0] = STEP[0] + 1u;
}
