"""The ONNX backend test cases of LayerNormalization, BatchNormalization and InstanceNormalization
(onnx/backend/test/case/node/{layernormalization,batchnorm,instancenorm}.py), as PyTorch computes
them: the same shapes, axes and epsilons, with make_golden.py's random inputs (the ONNX cases'
own random draws are numpy's legacy generator; the operators are what is tested).

LayerNormalization(axis=a) is F.layer_norm(x, x.shape[a:]) for every axis of a 2-D to 5-D tensor:
axis 0 is one statistic over the whole tensor (N included). ONNX's negative axes name the same
axes (axis -k = axis r - k), so each axis is written once. BatchNormalization in inference mode is
BatchNorm with the given running statistics; its training mode ("training_mode=1") is BatchNorm
in train mode, ONNX's momentum 0.9 being PyTorch's 0.1. InstanceNormalization is InstanceNorm
with a scale and a bias."""

from golden_common import FLT_EPS  # noqa: F401  (the same ε conventions as make_golden.py)


def onnx_cases(B, L, I):
    cases = []
    # test_layer_normalization_{2d,3d,4d}_axis{0..r-1}: shapes (3, 4), (2, 3, 5), (2, 3, 4, 5);
    # 5-D added here the same way. W and B of shape x.shape[axis:].
    for shape in ([3, 4], [2, 3, 5], [2, 3, 4, 5], [2, 2, 3, 2, 3]):
        r = len(shape)
        for axis in range(r):
            cases.append(L("onnx_layer_%dd_axis%d" % (r, axis), shape, shape[axis:],
                           desc="ONNX LayerNormalization(axis=%d) on %s: F.layer_norm(x, x.shape[%d:])"
                                % (axis, shape, axis)))
    # test_layer_normalization_3d_axis{0,1,2}_epsilon: epsilon 0.1
    for axis in range(3):
        cases.append(L("onnx_layer_3d_axis%d_epsilon" % axis, [2, 3, 5], [2, 3, 5][axis:], eps=0.1,
                       desc="ONNX LayerNormalization(axis=%d, epsilon=0.1) on (2, 3, 5)" % axis))
    # test_batchnorm_example / _epsilon: inference with given mean and var, scale and bias
    cases.append(B("onnx_batchnorm_example", [2, 3, 4, 5], mode="eval", running=True, affine=True,
                   desc="ONNX BatchNormalization (inference): given mean, var, scale, bias"))
    cases.append(B("onnx_batchnorm_epsilon", [2, 3, 4, 5], mode="eval", running=True, affine=True, eps=1e-2,
                   desc="ONNX BatchNormalization (inference), epsilon 1e-2"))
    # test_batchnorm_example_training_mode / _epsilon_training_mode: batch statistics, running
    # statistics updated with ONNX momentum 0.9 (PyTorch's 0.1)
    cases.append(B("onnx_batchnorm_training_mode", [2, 3, 4, 5], running=True, affine=True,
                   desc="ONNX BatchNormalization(training_mode=1), momentum 0.9 (PyTorch 0.1)"))
    cases.append(B("onnx_batchnorm_epsilon_training_mode", [2, 3, 4, 5], running=True, affine=True, eps=1e-2,
                   desc="ONNX BatchNormalization(training_mode=1), epsilon 1e-2"))
    # test_instancenorm_example (1, 2, 1, 3) and test_instancenorm_epsilon (2, 3, 4, 5), eps 1e-2
    cases.append(I("onnx_instancenorm_example", [1, 2, 1, 3], affine=True,
                   desc="ONNX InstanceNormalization on (1, 2, 1, 3), scale and bias"))
    cases.append(I("onnx_instancenorm_epsilon", [2, 3, 4, 5], affine=True, eps=1e-2,
                   desc="ONNX InstanceNormalization, epsilon 1e-2"))
    return cases
