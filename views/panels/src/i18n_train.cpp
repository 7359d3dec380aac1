// The Train view's strings (train_view.cpp, train_plot.cpp, train_strips_view.cpp, the shell's Train menu
// row and tab):
// English → Simplified Chinese, a part of the string table (i18n.cpp) kept in a file of its own.
#include "i18n_table.hpp"

namespace normlab::views {

std::span<const I18nEntry> train_strings() {
    static const I18nEntry kTrain[] = {
        {"Train", "训练"},
        {"Train view (small networks)", "训练视图（小型网络）"},
        {"Train view: small networks trained side by side", "训练视图：并排训练小型网络"},
        {"Train view: play / pause", "训练视图：开始 / 暂停"},
        {"Training is not available on this backend.", "此后端不支持训练。"},
        {"model", "模型"},
        {"data", "数据"},
        {"data: textures (16×16)", "数据：纹理（16×16）"},
        {"spirals", "螺旋"},
        {"circles", "同心圆"},
        {"xor", "异或"},
        {"blobs", "团簇"},
        {"classes", "类别数"},
        {"depth", "深度"},
        {"width", "宽度"},
        {"channels", "通道数"},
        {"norm", "归一化"},
        {"activation", "激活函数"},
        {"placement", "位置"},
        {"Linear → Norm → Act", "线性 → 归一化 → 激活"},
        {"Linear → Act → Norm", "线性 → 激活 → 归一化"},
        {"optimizer", "优化器"},
        {"learning rate", "学习率"},
        {"batch size", "批大小"},
        {"steps", "步数"},
        {"data seed", "数据种子"},
        {"Play", "播放"},
        {"Pause", "暂停"},
        {"One step", "单步"},
        {"Reset", "重置"},
        {"Add run", "添加运行"},
        {"Remove run", "删除运行"},
        {"%.0f fps, %.0f steps/s", "%.0f 帧/秒，%.0f 步/秒"},
        {"%s: step %d / %d", "%s：第 %d / %d 步"},
        {", batch loss %.3f acc %.2f", "，批损失 %.3f 准确率 %.2f"},
        {", validation loss %.3f acc %.2f; gap: acc %+.2f, loss %+.3f",
         "，验证损失 %.3f 准确率 %.2f；差距：准确率 %+.2f，损失 %+.3f"},
        {"(no device)", "（无设备）"},
        {"Run %d: %s", "运行 %d：%s"},
        {"every run: the model, the data, the batches, the seeds", "所有运行共用：模型、数据、批次、种子"},
        {"loss (thin: the batch, thick: validation)", "损失（细线：批次，粗线：验证集）"},
        {"accuracy (thin: the batch, thick: validation)", "准确率（细线：批次，粗线：验证集）"},
        {"step", "步"},
        {"decision boundary (the network on a grid, on the device; eval mode)",
         "决策边界（网络在网格上的输出，在设备上计算；eval 模式）"},
        {"%s, step %d", "%s，第 %d 步"},
        {"the activation's output", "激活函数的输出"},
        {"the Linear's or Conv2d's output", "Linear 或 Conv2d 的输出"},
        {"Layers of run %d: the histogram of each norm's input (%s) every %d steps; "
         "Inspect opens the last batch's as the tensor",
         "运行 %d 的各层：各归一化层输入（%s）的直方图，每 %d 步一次；“检查”把最后一批的输入作为张量打开"},
        {"Inspect", "检查"},
        {"layer %d", "第 %d 层"},
    };
    return kTrain;
}

}  // namespace normlab::views
