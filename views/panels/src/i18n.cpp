// The string table: English text → Simplified Chinese. Keys are the English strings as
// they appear in the code (format strings included), so the code stays readable.
#include "normlab/views/i18n.hpp"
#include "i18n_table.hpp"

#include <cstring>
#include <string_view>
#include <unordered_map>

namespace normlab::views {
namespace {

struct Entry {
    const char* en;
    const char* zh;
};

const Entry kTable[] = {
    // Menus and windows
    {"File", "文件"},
    {"View", "视图"},
    {"Language", "语言"},
    {"Lessons", "课程"},
    {"Experiments", "实验"},
    {"Help", "帮助"},
    {"Save scene…", "保存场景…"},
    // The browser app's File menu (web/src/web_app.cpp): files opened in the page, downloads, the link.
    {"Open a tensor or scene file (.npy, PNG, JPEG, .json)…", "打开张量或场景文件（.npy、PNG、JPEG、.json）…"},
    {"Open an image as AdaIN's style (PNG, JPEG)…", "打开图像作为 AdaIN 的风格（PNG、JPEG）…"},
    {"Save scene", "保存场景"},
    {"Save statistics (.json)", "保存统计量（.json）"},
    {"Save y (.npy)", "保存 y（.npy）"},
    {"Copy link", "复制链接"},
    {"Open a file…", "打开文件…"},
    {"Open a style image…", "打开风格图像…"},
    {"reading the clipboard (or press Ctrl+V on the page)", "正在读取剪贴板（也可以在页面上按 Ctrl+V）"},
    {"opened ", "已打开 "},
    {"the link to this scene is in the address bar and on the clipboard", "此场景的链接已在地址栏中，并已复制到剪贴板"},
    {"Load scene…", "加载场景…"},
    // Exercises: a scene that hides or locks controls; a scene as one line (app_ui.cpp).
    {"Copy scene (one line)", "复制场景（一行文本）"},
    {"copy / paste the scene as one line", "将场景复制 / 粘贴为一行文本"},
    {"Paste scene", "粘贴场景"},
    {"Exercise: hide and lock controls…", "练习：隐藏和锁定控件…"},
    {"Exercise: hide and lock controls", "练习：隐藏和锁定控件"},
    {"Hidden controls are not drawn; locked ones are greyed out. Neither can be changed, by the panels or by the "
     "keys.",
     "隐藏的控件不显示，锁定的控件变灰；两者都不能通过面板或快捷键修改。"},
    {"Then save the scene (Ctrl+S) or copy it as one line (Ctrl+Shift+C) for the class.",
     "然后保存场景（Ctrl+S），或复制为一行文本（Ctrl+Shift+C）发给学生。"},
    {"Then save the scene (File > Save scene) or copy its link (File > Copy link) for the class.",
     "然后保存场景（文件 > 保存场景），或复制链接（文件 > 复制链接）发给学生。"},
    {"control", "控件"},
    {"hide", "隐藏"},
    {"lock", "锁定"},
    {"clear", "清除"},
    {"Exercise: some controls are hidden or locked by this scene.", "练习：此场景隐藏或锁定了部分控件。"},
    {"(hidden in this exercise)", "（本练习中已隐藏）"},
    {"scene copied to the clipboard as one line", "场景已作为一行文本复制到剪贴板"},
    {"scene pasted from the clipboard", "已从剪贴板粘贴场景"},
    {"Export heatmap + histograms (PNG)", "导出热图 + 直方图（PNG）"},
    {"Export tensors (.npy), statistics (CSV, JSON)", "导出张量（.npy）、统计量（CSV、JSON）"},
    {"Screenshot (PNG)", "截图（PNG）"},
    {"Copy as PyTorch", "复制为 PyTorch 代码"},
    {"Presenter mode", "演示模式"},
    {"Compare BN / LN / IN / GN", "对比 BN / LN / IN / GN"},
    {"Cube drawing (N, C, H·W)", "立方体示意图（N、C、H·W）"},
    // The gradient view (app/gradient_view.cpp).
    {"Gradient view (backward pass)", "梯度视图（反向传播）"},
    {"Gradient", "梯度"},
    {"∂y_k/∂x (one Jacobian row)", "∂y_k/∂x（雅可比矩阵的一行）"},
    {"∂L/∂x for a chosen dy", "给定 dy 的 ∂L/∂x"},
    {"one-hot", "独热"},
    {"ones", "全 1"},
    {"random", "随机"},
    {"seed", "种子"},
    {"BatchNorm in eval mode: the running statistics are constants, so ∂y_k/∂x is non-zero only at x_k itself. "
     "No coupling.",
     "评估模式下的 BatchNorm：滑动统计量是常数，所以 ∂y_k/∂x 只在 x_k 自身处非零。样本之间没有耦合。"},
    {"BatchNorm (train): the support is y_k's whole channel across every sample of the batch (%s = %s "
     "elements). A change in any other sample changes y_k: BatchNorm couples the samples.",
     "训练模式下的 BatchNorm：支撑集是 y_k 所在通道在整个批次所有样本上的元素（%s = %s 个）。"
     "改变任何其他样本都会改变 y_k：BatchNorm 把样本耦合在一起。"},
    {"LayerNorm: the support is y_k's own sample, the normalized_shape slice (%s elements). Every other sample has "
     "gradient 0.",
     "LayerNorm：支撑集是 y_k 自己的样本中 normalized_shape 那一片（%s 个元素）。其他样本的梯度都是 0。"},
    {"InstanceNorm: the support is y_k's channel within its own sample (%s = %s elements).",
     "InstanceNorm：支撑集是 y_k 在自己样本中的那个通道（%s = %s 个元素）。"},
    {"GroupNorm: the support is y_k's group of channels within its own sample (%s = %s elements).",
     "GroupNorm：支撑集是 y_k 在自己样本中的那一组通道（%s = %s 个元素）。"},
    {"RMSNorm: the support is y_k's normalized_shape slice (%s elements); no centering, so the entries do not sum "
     "to 0.",
     "RMSNorm：支撑集是 y_k 的 normalized_shape 那一片（%s 个元素）；没有减均值，所以各项之和不为 0。"},
    {"Non-zero entries of this row (%s): %lld of %lld; the statistic group holds %lld.",
     "这一行的非零项（%s）：%lld / %lld；统计组共有 %lld 个元素。"},
    {"L = Σ dy ⊙ y: the heatmap shows ∂L/∂x; the histograms below show dy (input) and ∂L/∂x (output).",
     "L = Σ dy ⊙ y：热图显示 ∂L/∂x；下方直方图显示 dy（输入）和 ∂L/∂x（输出）。"},
    {"dy (as input) and ∂L/∂x (as output), from the backward kernels on the %s",
     "dy（作为输入）和 ∂L/∂x（作为输出），来自 %s 上的反向传播内核"},
    {"Colors span ± the largest entry off the selected element, which saturates.",
     "颜色范围是所选元素以外各项绝对值的最大值（±），所选元素本身会饱和。"},
    {"Backward (running statistics):", "反向传播（滑动统计量）："},
    {"Backward (RMSNorm, no centering):", "反向传播（RMSNorm，不减均值）："},
    {"Backward through μ and σ²:", "经过 μ 和 σ² 的反向传播："},
    {"means over the statistic's elements, count", "均值取自该统计组的元素，个数"},
    {"Value colormap", "数值色图"},
    {"Group colors", "分组颜色"},
    {"diverging (blue-white-red)", "发散（蓝、白、红）"},
    {"viridis", "viridis"},
    {"cividis", "cividis"},
    {"Okabe-Ito (colorblind-safe)", "Okabe-Ito（色盲友好）"},
    {"hues", "色相"},
    {"Keyboard shortcuts", "键盘快捷键"},
    {"Close the lesson", "关闭课程"},
    {"Close the experiment", "关闭实验"},
    {"Tensor & method", "张量与方法"},
    {"Histograms (%s)", "直方图（%s）"},
    {"Explain", "解释"},
    {"Statistics", "统计量"},
    {"Lesson", "课程"},
    {"Heatmap", "热图"},
    {"Controls", "控制"},
    {"Histograms", "直方图"},
    {"Menu", "菜单"},
    {"Fit", "全图"},
    {"%s: one statistic for the whole tensor, over %s = %s = %lld elements",
     "%s：整个张量只有一组统计量，在 %s = %s = %lld 个元素上计算"},
    {"%s: one statistic per %s (%lld) over %s = %s = %lld elements",
     "%s：%s 的每个取值一组统计量（共 %lld 组），各在 %s = %s = %lld 个元素上计算"},
    {"channel c", "通道 c"},
    {"checking…", "校验中…"},
    {"whole tensor: every %lld-th element", "整个张量：每 %lld 个取一个"},
    {"Compare: the same tensor, four methods (statistics mode)", "对比：同一张量，四种方法（统计分组模式）"},
    {"Side by side and difference", "并排对比与差值"},
    {"Side by side: one Jacobian row ∂y_k/∂x each", "并排对比：每边各一行雅可比矩阵 ∂y_k/∂x"},
    {"PyTorch code (copied to the clipboard)", "PyTorch 代码（已复制到剪贴板）"},
    {"Copy again", "再次复制"},
    {"Save the whole state as a scene file:", "把整个状态保存为场景文件："},
    {"Load a scene file:", "加载场景文件："},
    {"Save", "保存"},
    {"Load", "加载"},
    {"saved ", "已保存 "},
    {"loaded ", "已加载 "},
    {"wrote ", "已写入 "},
    {"exported ", "已导出 "},
    {"files to", "个文件到"},
    {"refused:", "已拒绝："},
    // Heatmap and histograms
    {"input x", "输入 x"},
    {"output y", "输出 y"},
    {"y − x", "y − x"},
    {"statistic groups", "统计分组"},
    {"%lld rows = samples n, %lld columns = channels c, each tile = one H×W = %lld×%lld image.  "
     "Hover: numbers; click: select (right click: clear).",
     "%lld 行 = 样本 n，%lld 列 = 通道 c，每个小块 = 一张 H×W = %lld×%lld "
     "的图。悬停：数值；单击：选中（右键：取消）。"},
    {"%lld statistics of %lld elements, each normalized with its own μ, σ².",
     "%lld 组统计量，每组 %lld 个元素，各用自己的 μ、σ² 归一化。"},
    {"%lld statistics of %lld elements, each scaled by its own root mean square.",
     "%lld 组统计量，每组 %lld 个元素，各除以自己的均方根（不减均值）。"},
    {"%lld channels of %lld elements, each normalized with its running_mean and running_var (eval mode).",
     "%lld 个通道，每个 %lld 个元素，各用自己的 running_mean 和 running_var 归一化（推理模式）。"},
    {"%lld statistics × %lld elements", "%lld 组统计量 × %lld 个元素"},
    {"element %s", "元素 %s"},
    {"One vector of D = %lld features, each tile = one value.  Hover: numbers; click: select (right click: clear).",
     "一个向量，D = %lld 个特征，每格 = 一个值。悬停：数值；单击：选中（右键：取消）。"},
    {"%lld rows = samples n, %lld columns = features c, each tile = one value.  Hover: numbers; click: select "
     "(right click: clear).",
     "%lld 行 = 样本 n，%lld 列 = 特征 c，每格 = 一个值。悬停：数值；单击：选中（右键：取消）。"},
    {"%lld rows = samples n, %lld columns = channels c, each tile = one D×H×W = %lld×%lld×%lld volume, its D "
     "slices stacked top to bottom.  Hover: numbers; click: select (right click: clear).",
     "%lld 行 = 样本 n，%lld 列 = 通道 c，每格 = 一个 D×H×W = %lld×%lld×%lld 的体，D 个切片自上而下排列。"
     "悬停：数值；单击：选中（右键：取消）。"},
    {"statistic #%lld (of %lld, %lld elements each)", "统计量索引 %lld（共 %lld 组，每组 %lld 个元素）"},
    {"  (running stats, eval)", "  （运行统计量，推理）"},
    {"bins", "分箱"},
    {"white line: μ, dashed: μ ± σ (computed on the %s)", "白线：μ，虚线：μ ± σ（在 %s 上计算）"},
    {"input x, whole tensor", "输入 x，整个张量"},
    {"output y, whole tensor", "输出 y，整个张量"},
    {"input x, selected group", "输入 x，选中的组"},
    {"output y, selected group", "输出 y，选中的组"},
    {"(nothing selected)", "（未选中）"},
    // Lessons
    {"(choose a lesson)", "（选择一节课）"},
    {"(the previous state is kept)", "（保留之前的状态）"},
    {"Lessons walk through the textbook's ideas step by step. Choose one above, then use "
     "→ / ← (or Page Down / Page Up) to move.",
     "课程按步骤讲解教材中的概念。在上方选择一节课，然后用 → / ←（或 Page Down / Page Up）翻页。"},
    {"step %d / %d", "第 %d / %d 步"},
    {"This step could not be applied: ", "无法应用这一步："},
    {"The Train view no longer holds this step's runs: go to the step again to train "
     "them; their numbers show … until then.",
     "训练视图中已不是这一步的训练：再次进入这一步即可重新训练；在此之前它们的数字显示为 …。"},
    {"The Train view no longer holds this experiment's runs: open the experiment again to train "
     "them; their numbers show … until then.",
     "训练视图中已不是这个实验的训练：再次打开这个实验即可重新训练；在此之前它们的数字显示为 …。"},
    {"The runs are training (step %d of %d): the numbers shown as … appear when they "
     "finish.",
     "正在训练（第 %d / %d 步）：显示为 … 的数字在训练结束后出现。"},
    {"The sweep has finished %d of its %d runs: the numbers shown as … appear when "
     "every run has.",
     "扫描已完成 %d / %d 次训练：显示为 … 的数字在全部训练结束后出现。"},
    // Experiments
    {"(divisors of C; keys + and −)", "（C 的约数；按键 + 和 −）"},
    {"G = %lld: statistics equal %s's: max |Δμ| = %.2g, max |Δσ²| = %.2g",
     "G = %lld：统计量与 %s 相同：max |Δμ| = %.2g，max |Δσ²| = %.2g"},
    {"G = %lld: each statistic pools %lld channels × H·W = %lld elements",
     "G = %lld：每组统计量汇集 %lld 个通道 × H·W = %lld 个元素"},
    {"train step (N)", "训练一步（N）"},
    {"×5", "×5"},
    {"reset", "重置"},
    {"train", "训练"},
    {"eval (E)", "推理（E）"},
    {"batches tracked: %lld", "已跟踪的 batch 数：%lld"},
    {"running μ/σ²", "运行 μ/σ²"},
    {"now normalizing with: %s", "当前归一化使用：%s"},
    {"running statistics (eval)", "运行统计量（推理）"},
    {"this batch's statistics (train)", "本 batch 的统计量（训练）"},
    {"difference right − left", "差值 右 − 左"},
    {"exactly 0", "恰好为 0"},
    // Status bar and help
    {"F1 help  ·  F5 presenter  ·  1–5 method  ·  ←/→ step  ·  L 中文/English",
     "F1 帮助  ·  F5 演示模式  ·  1–5 方法  ·  ←/→ 翻页  ·  L 中文/English"},
    {"device: %s  |  last recompute: GPU %.3f ms, total %.1f ms  |  max |error| vs CPU float64 reference: %s  |  %.1f "
     "fps  |  F1: shortcuts",
     "设备：%s  |  上次重算：GPU %.3f ms，总计 %.1f ms  |  与 CPU float64 参考的最大误差：%s  |  %.1f fps  |  "
     "F1：快捷键"},
    {"method: BatchNorm, LayerNorm, InstanceNorm, GroupNorm, RMSNorm",
     "方法：BatchNorm、LayerNorm、InstanceNorm、GroupNorm、RMSNorm"},
    {"next / previous lesson step", "课程的下一步 / 上一步"},
    {"black screen; any key brings the picture back", "黑屏；按任意键恢复画面"},
    {"presenter mode on / off", "打开 / 关闭演示模式"},
    {"language: English / Chinese", "语言：English / 中文"},
    {"compare view: BN, LN, IN, GN side by side", "对比视图：BN、LN、IN、GN 并排"},
    {"cube drawing of the partition", "划分的立方体示意图"},
    {"gradient view (the backward pass)", "梯度视图（反向传播）"},
    {"heatmap: input → output → difference → groups", "热图：输入 → 输出 → 差值 → 分组"},
    {"GroupNorm: next / previous G (divisors of C)", "GroupNorm：下一个 / 上一个 G（C 的约数）"},
    {"BatchNorm: train step / switch train ↔ eval", "BatchNorm：训练一步 / 切换训练 ↔ 推理"},
    {"copy as PyTorch (clipboard)", "复制为 PyTorch 代码（剪贴板）"},
    {"screenshot (PNG)", "截图（PNG）"},
    {"save / load scene", "保存 / 加载场景"},
    {"export tensors .npy, statistics CSV + JSON", "导出张量 .npy、统计量 CSV + JSON"},
    {"save / open a scene or file", "保存 / 打开场景或文件"},
    {"save the statistics (.json)", "保存统计量（.json）"},
    {"close help / experiment", "关闭帮助 / 实验"},
    {"this help", "本帮助"},
    {"Mouse: hover an element for its numbers, click to select its group, right click to clear.",
     "鼠标：悬停元素查看数值，单击选中其所在组，右键取消。"},
    // Figure
    {"on", "作用于"},
    {"statistics of", "组统计量，每组"},
    {"elements", "个元素"},
    {"selected %s: statistic #%lld, mean(x²) = %.5g", "选中 %s：统计量索引 %lld，mean(x²) = %.5g"},
    {"selected %s: statistic #%lld, μ = %.5g, σ² = %.5g", "选中 %s：统计量索引 %lld，μ = %.5g，σ² = %.5g"},
    // Explain panel
    {"Reduced axes: %s.", "归约的轴：%s。"},
    {"|S_i| = %lld, over %s.", "|S_i| = %lld，遍及 %s。"},
    {"Eval mode: μ, σ² are the running statistics; S_i is not used for them.",
     "推理模式：μ、σ² 用的是运行统计量，不在 S_i 上计算。"},
    {"Naive mode: μ, σ² average the devices' statistics; no one S_i gives them.",
     "naive 模式：μ、σ² 是各设备统计量的平均，不对应任何一个 S_i。"},
    {", ", "、"},  // between the items of a list
    {"Eval mode: nothing is reduced; channel c uses running_mean[c] and running_var[c].",
     "推理模式：不做任何归约；通道 c 使用 running_mean[c] 和 running_var[c]。"},
    {"In train mode every sample of the batch contributes to each channel's μ and σ², so the samples are "
     "coupled: change one sample and every output of its channel changes. Eval mode uses the running statistics "
     "instead, and each sample is normalized on its own.",
     "训练模式下，batch 中的每个样本都参与计算每个通道的 μ 和 σ²，因此样本之间相互耦合：改变一个样本，"
     "该通道的所有输出都会随之改变。推理模式改用运行统计量，每个样本各自归一化。"},
    {"every k", "所有 k"},
    {"normalized_shape spans every dim, N included: one statistic for the whole tensor, so every output depends on "
     "every sample, as under BatchNorm in train mode; train and eval still give the same result.",
     "normalized_shape 覆盖所有维度（包括 N）：整个张量只有一组统计量，所以每个输出都依赖于每个样本，"
     "这与训练模式下的 BatchNorm 相同；但训练和推理的结果仍然相同。"},
    {"Each sample (or each leading index) is normalized on its own, over the trailing normalized_shape dims; "
     "the batch does not matter, and train and eval give the same result.",
     "每个样本（或每个前导索引）在末尾的 normalized_shape 维度上单独归一化；与 batch 无关，训练和推理结果相同。"},
    {"Each channel of each sample is normalized on its own over its H×W image: per-image contrast is removed.",
     "每个样本的每个通道在自己的 H×W 图上单独归一化：每张图各自的亮度和对比度被去除。"},
    {"The C channels are split into G groups of C/G consecutive channels; each (sample, group) has its own "
     "statistics. G = 1 gives LayerNorm([C,H,W])'s statistics, G = C gives InstanceNorm's.",
     "C 个通道被分成 G 组，每组 C/G 个相邻通道；每个（样本，组）有自己的统计量。G = 1 时统计量与 "
     "LayerNorm([C,H,W]) 相同，G = C 时与 InstanceNorm 相同。"},
    {"Like LayerNorm over normalized_shape, but nothing is subtracted: x is divided by its root mean square.",
     "与在 normalized_shape 上的 LayerNorm 相同，但不减均值：x 除以它的均方根。"},
    {"Click an element in the heatmap (or a row of the statistics table) to see its formula with numbers.",
     "单击热图中的一个元素（或“统计量”面板中的一行），查看代入数值的公式。"},
    {"Selected element %s, statistic #%zu", "选中元素 %s，统计量索引 %zu"},
    {"μ, σ² are running_mean and running_var (eval mode): moving averages of the training batches' means and "
     "unbiased variances. Nothing is computed from this batch.",
     "μ、σ² 即 running_mean 和 running_var（推理模式）：训练时各 batch 的均值和无偏方差的滑动平均。"
     "当前 batch 不参与任何计算。"},
    {"μ, σ² are this statistic's, from the %s; σ² is the biased variance (divide by %lld).",
     "μ、σ² 是这组元素的统计量，由 %s 计算；σ² 是有偏（总体）方差（除以 %lld）。"},
    {"%s index %zu of the affine parameters (shape %s).", "%s仿射参数中索引 %zu 处的值（形状 %s）。"},
    {"γ, β are", "γ、β 是"},
    {"γ is", "γ 是"},
    // Statistics table
    {"%lld statistics over %lld elements each%s", "%lld 组统计量，每组 %lld 个元素%s"},
    {"%lld channels, eval: the running statistics as stored (nothing computed from this batch)",
     "%lld 个通道，推理模式：直接使用保存的运行统计量（不从当前 batch 计算任何量）"},
    {"count", "个数"},
    {"σ² biased", "σ²（有偏）"},
    {"σ² unbiased", "σ²（无偏）"},
    // Controls panel
    {"Tensor", "张量"},
    {"Method", "方法"},
    {"source", "来源"},
    {"generated", "生成"},
    {"preset", "预设"},
    {".npy file", ".npy 文件"},
    {"method", "方法"},
    {"groups G", "分组数 G"},
    {"normalized", "归一化维度"},
    {"regenerate (next seed)", "重新生成（下一个随机种子）"},
    {"affine (γ, β)", "仿射（γ、β）"},
    {"train (batch stats)", "训练（batch 统计量）"},
    {"eval (running stats)", "推理（运行统计量）"},
    {"BatchNorm: mode and running statistics", "BatchNorm：模式与运行统计量"},
    {"train step", "训练一步"},
    {"Refused: %s", "已拒绝：%s"},
    {"PyTorch: weight of the NEW batch (Keras' 0.99 is the old one)",
     "PyTorch：新 batch 的权重（Keras 的 0.99 是旧值的权重）"},
    {"draw a fresh randn batch (same shape, next seed) and update the running stats "
     "(PyTorch updates them on every forward pass in train mode)",
     "抽取一个新的 randn batch（形状不变，下一个随机种子）并更新运行统计量（PyTorch "
     "在训练模式下每次前向计算都会更新）"},
    {"stored values (eval uses them); running var is a moving average of the batches' UNBIASED variances.",
     "已保存的值（推理时使用）；running_var 是各 batch 无偏方差的滑动平均。"},
    {"a train step on this batch would give c=0: mean %.4g, var %.4g",
     "在这个 batch 上训练一步会得到 c=0：均值 %.4g，方差 %.4g"},
    // 3-D tensors (N, L, D): samples × tokens × features
    {"%lld rows = samples n, %lld columns = tokens l, each tile = one token's D = %lld features.  "
     "Hover: numbers; click: select (right click: clear).",
     "%lld 行 = 样本 n，%lld 列 = token l，每个小块 = 一个 token 的 D = %lld 个特征。"
     "悬停：看数值；单击：选中（右键：取消）。"},
    {"%lld rows = samples n, %lld columns = channels c, each tile = one channel's L = %lld positions.  "
     "Hover: numbers; click: select (right click: clear).",
     "%lld 行 = 样本 n，%lld 列 = 通道 c，每个小块 = 一个通道的 L = %lld 个位置。"
     "悬停：看数值；单击：选中（右键：取消）。"},
    {"token (n, l)", "token (n, l)"},
    {"Measure the batch noise over %d draws per N", "测量 batch 噪声（每个 N 抽取 %d 次）"},
    {"x ~ N(0, 1), %lld channels × L = %lld values per sample; BatchNorm's μ and σ² of each channel, on the %s",
     "x ~ N(0, 1)，%lld 个通道 × 每个样本 L = %lld 个值；每个通道的 BatchNorm μ 和 σ²，在 %s 上计算"},
    {"values per channel", "每通道值数"},
    {"sd of batch μ", "batch μ 的标准差"},
    {"mean σ² (expected 1 − 1/(N·L))", "σ² 的平均（期望 1 − 1/(N·L)）"},
    // The Controls panel (views/panels/src/controls_panel.cpp; tests/app/check_controls_i18n.py checks every string).
    {"shape N×C×H×W = %s", "形状 N×C×H×W = %s"},
    {"shape N×L×D = %s", "形状 N×L×D = %s"},
    {"shape D = %s", "形状 D = %s"},
    {"shape N×C = %s", "形状 N×C = %s"},
    {"one per row of the unbatched (C, L)", "未分批的 (C, L) 每行一个"},
    {"shape N×C×D×H×W = %s", "形状 N×C×D×H×W = %s"},
    {"shape N×C×L = %s", "形状 N×C×L = %s"},
    {"every dimension must be at least 1", "每个维度至少为 1"},
    {"N·C·H·W = %lld floats = %s, but this device holds at most %s in one storage buffer (maxStorageBufferRange)",
     "N·C·H·W = %lld 个浮点数 = %s，但此设备的单个存储缓冲区最多容纳 %s（maxStorageBufferRange）"},
    {"init", "初始化"},
    {"value", "数值"},
    {"path", "路径"},
    {"load .npy", "加载 .npy"},
    {"(no .npy files in %s)", "（%s 中没有 .npy 文件）"},
    {"%lld  (%lld channels per group)", "%lld（每组 %lld 个通道）"},
    {"G must divide C = %lld: each group takes C/G whole channels.",
     "G 必须整除 C = %lld：每组包含 C/G 个完整的通道。"},
    {" Not offered: %s (C/G would not be a whole number of channels).", "不提供 %s（C/G 不是整数个通道）。"},
    {"eps ε", "ε（eps）"},
    {"bias β", "偏置 β"},
    {"γ, β shape %s (%s)", "γ、β 的形状 %s（%s）"},
    {"γ shape %s (%s)", "γ 的形状 %s（%s）"},
    {"one per element of normalized_shape", "normalized_shape 的每个元素一个"},
    {"one per channel", "每个通道一个"},
    {"all γ, β", "全部 γ、β"},
    {"all γ", "全部 γ"},
    {"per index", "逐个设置"},
    {"elem ", "元素 "},
    {"cumulative (momentum=None)", "累积平均（momentum=None）"},
    {"momentum", "动量"},
    {"running mean", "滑动均值"},
    {"running var", "滑动方差"},
    // SyncBN on simulated devices (views/panels/src/sync_view.cpp, the Controls' BatchNorm section).
    {"SyncBN devices K", "SyncBN 设备数 K"},
    {"off", "关"},
    {"sync", "同步"},
    {"local", "本地"},
    {"naive", "朴素"},
    {"split the batch into K devices of N/K consecutive samples (K divides N)",
     "把 batch 分到 K 个设备上，每个设备 N/K 个连续样本（K 须整除 N）"},
    {"SyncBN on K = %lld simulated devices, N/K = %lld", "在 K = %lld 个模拟设备上的 SyncBN，N/K = %lld"},
    {"error", "误差"},
    {"|Δy| naive", "|Δy| 朴素"},
    {"|Δy| local", "|Δy| 本地"},
    {"naive error = sync σ² − naive σ²", "朴素误差 = 同步 σ² − 朴素 σ²"},
    {"the variance of the devices' means μ_k: equal to the naive error", "各设备均值 μ_k 的方差：等于朴素误差"},
    {"applied: %s", "当前应用：%s"},
    {"eval mode: every mode applies the running statistics, so y is the same",
     "eval 模式：每种方式都用运行统计量，y 相同"},
    {"GPU %lld: n = %lld..%lld", "GPU %lld：n = %lld..%lld"},
    {"GPU %lld: n = %lld", "GPU %lld：n = %lld"},
    {"… %lld more channels in the table", "…… 另有 %lld 个通道见表格"},
    {"sync σ²", "同步 σ²"},
    {"naive σ²", "朴素 σ²"},
    {"sync vs naive", "同步与朴素"},
    {"max |y naive − y sync|", "max |y 朴素 − y 同步|"},
    {"max |y local − y sync|", "max |y 本地 − y 同步|"},
    // Pictures (images as tensors, AdaIN)
    {"Pictures", "图像"},
    {"x (content)", "x（内容）"},
    {"style", "风格"},
    {"y (AdaIN)", "y（AdaIN）"},
    {"y (0.5 + y/6)", "y（0.5 + y/6）"},
    {"image file", "图像文件"},
    {"load image", "载入图像"},
    {"AdaIN: style image", "AdaIN：风格图像"},
    {"(none: plain InstanceNorm)", "（无：普通 InstanceNorm）"},
    {"remove the style", "去掉风格"},
    {"use as style", "用作风格"},
    {"AdaIN: γ = σ_s = √(var_s + ε) and β = μ_s, the style image's statistics of this channel, computed on the %s "
     "by InstanceNorm of the style image.",
     "AdaIN：γ = σ_s = √(var_s + ε)，β = μ_s，即风格图像这个通道的统计量，由 InstanceNorm 在 %s "
     "上对风格图像计算得到。"},
};

core::Language g_lang = core::Language::En;
bool g_cjk = false;
std::string g_cjk_missing = "no Chinese font loaded";

const std::unordered_map<std::string_view, const char*>& table() {
    static const auto map = [] {
        std::unordered_map<std::string_view, const char*> m;
        for (const auto& e : kTable) m.emplace(e.en, e.zh);
        for (const auto& e : train_strings()) m.emplace(e.en, e.zh);
        return m;
    }();
    return map;
}

}  // namespace

core::Language language() { return g_lang; }

bool set_language(core::Language lang) {
    if (lang == core::Language::Zh && !g_cjk) return false;
    g_lang = lang;
    return true;
}

void set_cjk_font(bool available, std::string missing_message) {
    g_cjk = available;
    g_cjk_missing = std::move(missing_message);
    if (!g_cjk) g_lang = core::Language::En;
}

bool cjk_font() { return g_cjk; }
const std::string& cjk_missing_message() { return g_cjk_missing; }

const char* tr(const char* english) {
    if (g_lang == core::Language::En) return english;
    auto it = table().find(english);
    return it == table().end() ? english : it->second;
}

std::string tr_id(const char* english, const char* id) { return std::string(tr(english)) + "###" + id; }

const std::string& tr(const core::LocalText& text) { return text.in(g_lang); }

std::string all_chinese_text() {
    std::string t;
    for (const auto& e : kTable) t += e.zh;
    for (const auto& e : train_strings()) t += e.zh;
    return t;
}

}  // namespace normlab::views
