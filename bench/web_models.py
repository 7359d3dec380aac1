"""The browser bench's ONNX models (scripts/bench-web.sh): one normalization node each, exported
with torch.onnx.export (Debian's python3-torch 1.13, opset 17) for onnxruntime-web, on the shape
given, with normlab's defaults (eps, γ = 1, β = 0, running mean 0 and var 1 for BatchNorm eval).
Usage: web_models.py OUT_DIR N C H W. Writes OUT_DIR/{layer,instance,batch,group,rms}.onnx and
OUT_DIR/models.json (what each file holds: the ONNX op it exports to)."""
import json
import os
import sys

import torch

RMS_EPS = 1.1920929e-07  # normlab's RMS default: float32 machine epsilon (norm_spec.hpp)
GROUPS = 8


class Rms(torch.autograd.Function):
    """x / sqrt(mean(x², [C,H,W]) + eps) * γ, exported as SimplifiedLayerNormalization: one of
    onnxruntime's contrib ops, which it registers in the ONNX domain (com.microsoft has only the Skip
    variant)."""

    @staticmethod
    def forward(ctx, x, w):
        return x * torch.rsqrt(x.pow(2).mean(dim=(1, 2, 3), keepdim=True) + RMS_EPS) * w

    @staticmethod
    def symbolic(g, x, w):
        return g.op("SimplifiedLayerNormalization", x, w, axis_i=1, epsilon_f=RMS_EPS).setType(
            x.type())


class RmsModule(torch.nn.Module):
    def __init__(self, shape):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(shape))

    def forward(self, x):
        return Rms.apply(x, self.w)


def modules(n, c, h, w):
    bn = torch.nn.BatchNorm2d(c).eval()  # running mean 0, var 1: what normlab's batch eval uses by default
    return {
        "layer": (torch.nn.LayerNorm([c, h, w]), "LayerNormalization"),
        "instance": (torch.nn.InstanceNorm2d(c), "InstanceNormalization"),
        "batch": (bn, "BatchNormalization"),
        # opset 17 has no GroupNormalization: torch exports group_norm as Reshape, InstanceNormalization,
        # Reshape, Mul, Add.
        "group": (torch.nn.GroupNorm(GROUPS, c), "Reshape+InstanceNormalization+Reshape+Mul+Add"),
        "rms": (RmsModule([c, h, w]), "SimplifiedLayerNormalization (onnxruntime contrib op)"),
    }


def main():
    out, dims = sys.argv[1], [int(v) for v in sys.argv[2:6]]
    os.makedirs(out, exist_ok=True)
    x = torch.zeros(dims)
    info = {"shape": dims, "groups": GROUPS, "models": {}}
    for name, (mod, op) in modules(*dims).items():
        path = os.path.join(out, name + ".onnx")
        try:
            with torch.no_grad():
                torch.onnx.export(mod, (x,), path, opset_version=17, input_names=["x"], output_names=["y"])
        except torch.onnx.errors.CheckerError:
            # torch writes the file before its ONNX checker runs; the checker knows only ONNX's own ops,
            # so it refuses onnxruntime's SimplifiedLayerNormalization (which onnxruntime runs).
            if name != "rms":
                raise
        info["models"][name] = op
    with open(os.path.join(out, "models.json"), "w") as f:
        json.dump(info, f)


if __name__ == "__main__":
    main()
