#include "normlab/train/conv_layers.hpp"

#include "normlab/core/error.hpp"
#include "normlab/train/texture_data.hpp"

namespace normlab {

std::vector<CnnLayerShape> cnn_layer_shapes(int depth, int channels, int batch) {
    if (depth < 1 || depth > kCnnMaxDepth)
        throw InputError("cnn: --depth must be 1 to 8, not " + std::to_string(depth));
    if (channels < 1) throw InputError("cnn: --channels must be at least 1");
    if (batch < 1) throw InputError("cnn: --batch must be at least 1");
    std::vector<CnnLayerShape> layers;
    int side = kTextureSide;
    for (int i = 0; i < depth; ++i) {
        CnnLayerShape l;
        l.conv = ConvShape{batch, i == 0 ? 1 : channels, channels, side, side};
        l.pool_after = i == 1 || i == 3 || i == 5;
        if (l.pool_after) side /= 2;
        l.out_side = side;
        layers.push_back(l);
    }
    return layers;
}

std::string cnn_conv_weight_name(int layer) { return "layers." + std::to_string(layer) + ".conv.weight"; }
std::string cnn_conv_bias_name(int layer) { return "layers." + std::to_string(layer) + ".conv.bias"; }

}  // namespace normlab
