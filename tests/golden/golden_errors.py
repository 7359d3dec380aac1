"""PyTorch's error texts for the inputs normlab must refuse the same way (tests/golden/errors.json,
written by make_golden.py)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

# --------------------------------------------------------------------------------------------
# errors
# --------------------------------------------------------------------------------------------
def record_errors():
    out = []

    def rec(entry, fn):
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - we want whatever torch raises
            entry["exception"] = type(e).__name__
            entry["message"] = str(e).split("\n")[0]
        else:
            entry["exception"] = None
            entry["message"] = None
        out.append(entry)

    torch.manual_seed(0)
    x = torch.randn(1, 3, 1, 1)
    rec({"norm": "batch", "shape": [1, 3, 1, 1], "mode": "train",
         "torch_call": "nn.BatchNorm2d(3).train()(x)",
         "note": "The size is printed via str(torch.Size), so the text is "
                 "'torch.Size([1, 3, 1, 1])', not '[1, 3, 1, 1]' as in semantics.md. "
                 "Raised by Python-side F.batch_norm (_verify_batch_size: N*H*W == 1); "
                 "the ATen op torch.batch_norm does not check. Eval mode with running statistics does not raise."},
        lambda: nn.BatchNorm2d(3).train()(x))
    rec({"norm": "batch", "shape": [1, 3, 1, 1], "mode": "eval", "track_running_stats": False,
         "torch_call": "nn.BatchNorm2d(3, track_running_stats=False).eval()(x)",
         "note": "Without running statistics eval mode normalizes with the batch's (bn_training is "
                 "True), so F.batch_norm checks the batch size as in train mode."},
        lambda: nn.BatchNorm2d(3, track_running_stats=False).eval()(x))

    x = torch.randn(2, 3, 1, 1)
    rec({"norm": "instance", "shape": [2, 3, 1, 1], "mode": "train",
         "torch_call": "nn.InstanceNorm2d(3).train()(x)",
         "note": "Also printed as 'torch.Size([2, 3, 1, 1])' (semantics.md has '[2, 3, 1, 1]'). "
                 "Raised by Python-side F.instance_norm (_verify_spatial_size: H*W == 1); "
                 "the ATen op torch.instance_norm does not check."},
        lambda: nn.InstanceNorm2d(3).train()(x))
    rec({"norm": "instance", "shape": [2, 3, 1, 1], "mode": "eval",
         "torch_call": "nn.InstanceNorm2d(3).eval()(x)",
         "note": "Fires in eval mode too, despite saying 'when training': with the default "
                 "track_running_stats=False, eval uses instance statistics, so the check "
                 "runs. (InstanceNorm2d(3, track_running_stats=True).eval() does not raise.)"},
        lambda: nn.InstanceNorm2d(3).eval()(x))

    x = torch.randn(2, 6, 4, 4)
    rec({"norm": "group", "shape": [2, 6, 4, 4], "groups": 4,
         "torch_call": "nn.GroupNorm(4, 6)",
         "note": "The nn.GroupNorm constructor raises this ValueError before any input is "
                 "seen; the semantics.md text comes from the functional/ATen path (next entry)."},
        lambda: nn.GroupNorm(4, 6)(x))
    rec({"norm": "group", "shape": [2, 6, 4, 4], "groups": 4,
         "torch_call": "F.group_norm(x, 4)",
         "note": "Same text from torch.group_norm(x, 4)."},
        lambda: F.group_norm(x, 4))
    rec({"norm": "group", "shape": [2, 6, 4, 4], "groups": 0,
         "torch_call": "nn.GroupNorm(0, 6)",
         "note": "Constructor raises ZeroDivisionError (6 % 0)."},
        lambda: nn.GroupNorm(0, 6))
    rec({"norm": "group", "shape": [2, 6, 4, 4], "groups": 0,
         "torch_call": "F.group_norm(x, 0)",
         "note": "F.group_norm also raises ZeroDivisionError: its Python-side "
                 "_verify_batch_size computes N*C // num_groups before calling ATen."},
        lambda: F.group_norm(x, 0))
    rec({"norm": "group", "shape": [2, 6, 4, 4], "groups": 0,
         "torch_call": "torch.group_norm(x, 0)",
         "note": "Only the ATen op (torch.group_norm / torch.native_group_norm) gives the "
                 "semantics.md text."},
        lambda: torch.group_norm(x, 0))

    x = torch.randn(1, 3, 1, 1)
    rec({"norm": "group", "shape": [1, 3, 1, 1], "groups": 3,
         "torch_call": "nn.GroupNorm(3, 3)(x)",
         "note": "Extra record (not in semantics.md). F.group_norm reuses BatchNorm's "
                 "_verify_batch_size on [N*C//G, G, H, W], so it raises only when "
                 "N*(C/G)*H*W == 1, i.e. N=1, G=C, H=W=1 - in any mode (GroupNorm has no "
                 "train/eval difference). One element per group with N>1 (e.g. [2,3,1,1], "
                 "G=3) does NOT raise: variance 0, output = beta."},
        lambda: nn.GroupNorm(3, 3)(x))

    x = torch.randn(2, 3, 4, 4)
    rec({"norm": "layer", "shape": [2, 3, 4, 4], "normalized_shape": [5],
         "torch_call": "nn.LayerNorm([5])(x)",
         "note": "No space between 'size' and '[' - matches semantics.md."},
        lambda: nn.LayerNorm([5])(x))
    rec({"norm": "layer", "shape": [2, 3, 4, 4], "normalized_shape": [3, 5],
         "torch_call": "nn.LayerNorm([3, 5])(x)"},
        lambda: nn.LayerNorm([3, 5])(x))

    x = torch.randn(2, 5, 4)
    rec({"norm": "layer", "shape": [2, 5, 4], "normalized_shape": [8],
         "torch_call": "nn.LayerNorm(8)(x)",
         "note": "3-D (N, L, D) input whose D is not normalized_shape."},
        lambda: nn.LayerNorm(8)(x))
    x = torch.randn(1, 3, 1)
    rec({"norm": "batch", "shape": [1, 3, 1], "mode": "train",
         "torch_call": "nn.BatchNorm1d(3).train()(x)",
         "note": "BatchNorm1d on (N, C, L) with N*L == 1."},
        lambda: nn.BatchNorm1d(3).train()(x))
    x = torch.randn(2, 3, 1)
    rec({"norm": "instance", "shape": [2, 3, 1],
         "torch_call": "nn.InstanceNorm1d(3)(x)",
         "note": "InstanceNorm1d on (N, C, L) with L == 1."},
        lambda: nn.InstanceNorm1d(3)(x))

    # ---- ranks: 2-D and 5-D refusals, 1-D and 6-D tensors
    x = torch.randn(1, 3)
    rec({"norm": "batch", "shape": [1, 3], "mode": "train", "torch_call": "nn.BatchNorm1d(3).train()(x)",
         "note": "BatchNorm1d on (N, C) with N == 1."},
        lambda: nn.BatchNorm1d(3).train()(x))
    x = torch.randn(3, 1)
    rec({"norm": "instance", "shape": [3, 1], "torch_call": "nn.InstanceNorm1d(3)(x)",
         "note": "A 2-D input is one unbatched (C, L) sample to InstanceNorm1d; the size printed is "
                 "the batched [1, C, L]."},
        lambda: nn.InstanceNorm1d(3)(x))
    x = torch.randn(1, 2, 1, 1, 1)
    rec({"norm": "batch", "shape": [1, 2, 1, 1, 1], "mode": "train",
         "torch_call": "nn.BatchNorm3d(2).train()(x)"},
        lambda: nn.BatchNorm3d(2).train()(x))
    rec({"norm": "instance", "shape": [1, 2, 1, 1, 1], "torch_call": "nn.InstanceNorm3d(2)(x)"},
        lambda: nn.InstanceNorm3d(2)(x))
    x = torch.randn(1, 4)
    rec({"norm": "group", "shape": [1, 4], "groups": 4, "torch_call": "nn.GroupNorm(4, 4)(x)"},
        lambda: nn.GroupNorm(4, 4)(x))
    x = torch.randn(2, 3, 4, 4, 5)
    rec({"norm": "layer", "shape": [2, 3, 4, 4, 5], "normalized_shape": [4, 4],
         "torch_call": "nn.LayerNorm([4, 4])(x)"},
        lambda: nn.LayerNorm([4, 4])(x))
    x = torch.randn(3)
    rec({"norm": "batch", "shape": [3], "mode": "train", "torch_call": "nn.BatchNorm1d(3)(x)",
         "note": "1-D: BatchNorm1d's rank check."},
        lambda: nn.BatchNorm1d(3)(x))
    rec({"norm": "instance", "shape": [3], "torch_call": "nn.InstanceNorm1d(3)(x)"},
        lambda: nn.InstanceNorm1d(3)(x))
    rec({"norm": "group", "shape": [3], "groups": 1, "torch_call": "nn.GroupNorm(1, 3)(x)",
         "note": "GroupNorm reads input.size(1) of a 1-D tensor."},
        lambda: nn.GroupNorm(1, 3)(x))
    rec({"norm": "layer", "shape": [3], "normalized_shape": [5], "torch_call": "nn.LayerNorm(5)(x)",
         "note": "1-D: one vector whose D is not normalized_shape."},
        lambda: nn.LayerNorm(5)(x))
    x = torch.randn(2, 4)
    rec({"norm": "layer", "shape": [2, 4], "normalized_shape": [2, 3, 4], "torch_call": "nn.LayerNorm([2, 3, 4])(x)",
         "note": "normalized_shape longer than the input."},
        lambda: nn.LayerNorm([2, 3, 4])(x))
    x = torch.randn(2, 3, 2, 2, 2, 2)
    rec({"norm": "batch", "shape": [2, 3, 2, 2, 2, 2], "mode": "train", "torch_call": "nn.BatchNorm3d(3)(x)",
         "note": "6-D: no BatchNorm takes it; BatchNorm3d's rank check."},
        lambda: nn.BatchNorm3d(3)(x))
    rec({"norm": "instance", "shape": [2, 3, 2, 2, 2, 2], "torch_call": "nn.InstanceNorm3d(3)(x)"},
        lambda: nn.InstanceNorm3d(3)(x))
    return out
