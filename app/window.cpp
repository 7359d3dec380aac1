#include "window.hpp"

#include "normlab/views/imgui_vulkan.hpp"
#include "normlab/views/key_queue.hpp"
#include "normlab/views/vk_check.hpp"

#include "normlab/gpu/command_recorder.hpp"

#include "normlab/core/error.hpp"
#include "normlab/gpu/gpu_buffer.hpp"
#include "normlab/views/png_file.hpp"

#define GLFW_INCLUDE_NONE
#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

namespace normlab::app {
namespace {

std::string g_glfw_error;

void glfw_error(int code, const char* description) {
    g_glfw_error = description ? description : ("GLFW error " + std::to_string(code));
}

}  // namespace

struct Window::Impl {
    const gpu::VulkanContext& ctx;
    ImGui_ImplVulkanH_Window wd;
    std::unique_ptr<views::ImGuiVulkan> imgui;  // context, fonts and the Vulkan backend
    bool rebuild = false;
    int min_images = 2;
    bool imgui_glfw = false;
    views::KeyQueue keys;  // chained after ImGui's GLFW key callback
    explicit Impl(const gpu::VulkanContext& c) : ctx(c) {}
    ~Impl() {
        keys.uninstall();  // ImGui's callback back in place, so its shutdown restores GLFW's
        if (imgui_glfw) ImGui_ImplGlfw_Shutdown();
        imgui.reset();  // waits for the device, then the Vulkan backend and the context
        try {
            ctx.device().waitIdle();
        } catch (const vk::SystemError&) {  // a lost device: tear down anyway, never throw from here
        }
        if (wd.Surface) ImGui_ImplVulkanH_DestroyWindow(*ctx.instance(), *ctx.device(), &wd, nullptr);
    }
};

Window::Window(const WindowOptions& options) {
    open_context();
    open_swapchain(options);
    init_imgui(options);
}

// GLFW, then the Vulkan context with the extensions the display needs.
void Window::open_context() {
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit())
        throw core::DeviceError("cannot open a window (" + g_glfw_error +
                                "); is a display available? Set DISPLAY, or run under xvfb-run -a");
    if (!glfwVulkanSupported()) {
        glfwTerminate();
        throw core::DeviceError(
            "GLFW finds no Vulkan loader; install libvulkan1 and a driver such as mesa-vulkan-drivers");
    }
    std::uint32_t count = 0;
    const char** exts = glfwGetRequiredInstanceExtensions(&count);
    if (!exts) {
        glfwTerminate();
        throw core::DeviceError("the Vulkan driver cannot present to this display (" + g_glfw_error + ")");
    }
    gpu::ContextOptions opt = gpu::ContextOptions::from_env();
    opt.instance_extensions.assign(exts, exts + count);
    opt.device_extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
    opt.need_graphics = true;
    try {
        ctx_ = std::make_unique<gpu::VulkanContext>(opt);
    } catch (...) {
        glfwTerminate();
        throw;
    }
}

// The window, its surface and Dear ImGui's swapchain helper (format, present mode, frames).
void Window::open_swapchain(const WindowOptions& options) {
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    window_ = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
    if (!window_) {
        ctx_.reset();
        glfwTerminate();
        throw core::DeviceError("cannot create a window: " + g_glfw_error);
    }
    impl_ = std::make_unique<Impl>(*ctx_);
    auto& wd = impl_->wd;
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    if (glfwCreateWindowSurface(*ctx_->instance(), window_, nullptr, &surface) != VK_SUCCESS)
        throw core::DeviceError("cannot create a Vulkan surface for the window: " + g_glfw_error);
    wd.Surface = surface;
    if (!ctx_->physical().getSurfaceSupportKHR(ctx_->queue_family(), surface))
        throw core::DeviceError("the Vulkan device " + ctx_->device_name() + " cannot present to this window");

    const VkFormat formats[] = {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM};
    wd.SurfaceFormat =
        ImGui_ImplVulkanH_SelectSurfaceFormat(*ctx_->physical(), surface, formats, 2, VK_COLORSPACE_SRGB_NONLINEAR_KHR);
    std::vector<VkPresentModeKHR> modes;
    if (options.unlimited_fps) modes = {VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR};
    modes.push_back(VK_PRESENT_MODE_FIFO_KHR);
    wd.PresentMode =
        ImGui_ImplVulkanH_SelectPresentMode(*ctx_->physical(), surface, modes.data(), static_cast<int>(modes.size()));
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(window_, &fw, &fh);
    ImGui_ImplVulkanH_CreateOrResizeWindow(*ctx_->instance(), *ctx_->physical(), *ctx_->device(), &wd,
                                           ctx_->queue_family(), nullptr, fw, fh,
                                           static_cast<std::uint32_t>(impl_->min_images));
}

// Dear ImGui's context, fonts and Vulkan backend (normlab/views/imgui_vulkan.hpp), then its GLFW backend.
void Window::init_imgui(const WindowOptions& options) {
    auto& wd = impl_->wd;
    set_scales(options.ui_scale);
    // Fonts rasterized at the pixels they cover (crisp, never a scaled-up bitmap); ImGui's
    // units are window units, so a framebuffer scale above 1 is divided out again.
    views::ImGuiVulkanOptions o;
    o.glyph_text = options.glyph_text;
    o.raster_scale = ui_scale_ * fb_scale_;
    o.min_images = static_cast<std::uint32_t>(impl_->min_images);
    o.image_count = wd.ImageCount;
    impl_->imgui = std::make_unique<views::ImGuiVulkan>(*ctx_, wd.RenderPass, o);
    fonts_ = impl_->imgui->fonts();
    ImGui::GetIO().FontGlobalScale = ui_scale_ / impl_->imgui->raster_scale();  // ImGui's units are window units
    ImGui::GetStyle().ScaleAllSizes(ui_scale_);
    ImGui_ImplGlfw_InitForVulkan(window_, true);
    impl_->imgui_glfw = true;
    impl_->keys.install(window_);
}

// The UI scale: `forced` (--ui-scale or NORMLAB_UI_SCALE), else the monitor's content scale (X11:
// Xft.dpi / 96; Windows: the display setting) over the framebuffer scale (macOS and Wayland
// report a 2× output as a framebuffer twice the window's size: ImGui's units stay window units).
void Window::set_scales(float forced) {
    int ww = 0, wh = 0, fw = 0, fh = 0;
    glfwGetWindowSize(window_, &ww, &wh);
    glfwGetFramebufferSize(window_, &fw, &fh);
    fb_scale_ = ww > 0 && fw > 0 ? static_cast<float>(fw) / static_cast<float>(ww) : 1.0f;
    float xs = 1, ys = 1;
    glfwGetWindowContentScale(window_, &xs, &ys);
    ui_scale_ = std::clamp(xs / fb_scale_, 1.0f, 4.0f);
    if (forced > 0) ui_scale_ = forced;
}

Window::~Window() {
    impl_.reset();
    if (window_) glfwDestroyWindow(window_);
    ctx_.reset();
    glfwTerminate();
}

vk::RenderPass Window::render_pass() const { return impl_->wd.RenderPass; }

std::vector<views::KeyPress> Window::take_key_presses() { return impl_->keys.take(); }

bool Window::should_close() const { return glfwWindowShouldClose(window_); }

void Window::poll() {
    impl_->keys.release_deferred();
    glfwPollEvents();
}

void Window::wait_events(std::optional<double> timeout_s) {
    impl_->keys.release_deferred();
    if (impl_->keys.holding())  // held keys: the next frame without waiting for events
        glfwPollEvents();
    else if (timeout_s)
        glfwWaitEventsTimeout(std::max(*timeout_s, 0.0));
    else
        glfwWaitEvents();
}

void Window::new_frame() {
    auto& wd = impl_->wd;
    if (impl_->rebuild) {
        int w = 0, h = 0;
        glfwGetFramebufferSize(window_, &w, &h);
        if (w > 0 && h > 0) {
            ImGui_ImplVulkan_SetMinImageCount(static_cast<std::uint32_t>(impl_->min_images));
            ImGui_ImplVulkanH_CreateOrResizeWindow(*ctx_->instance(), *ctx_->physical(), *ctx_->device(), &wd,
                                                   ctx_->queue_family(), nullptr, w, h,
                                                   static_cast<std::uint32_t>(impl_->min_images));
            wd.FrameIndex = 0;
            impl_->rebuild = false;
        }
    }
    ImGui_ImplVulkan_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

void Window::render(const views::BeforePass& before_pass) {
    ImGui::Render();
    ImDrawData* draw_data = ImGui::GetDrawData();
    if (draw_data->DisplaySize.x <= 0.0f || draw_data->DisplaySize.y <= 0.0f) return;  // minimized
    auto& wd = impl_->wd;
    VkDevice dev = *ctx_->device();
    VkSemaphore acquired = wd.FrameSemaphores[wd.SemaphoreIndex].ImageAcquiredSemaphore;
    VkSemaphore done = wd.FrameSemaphores[wd.SemaphoreIndex].RenderCompleteSemaphore;
    // Every wait has a timeout: a hung or lost device ends the app with a message, never a hang.
    constexpr std::uint64_t kFrameTimeoutNs = 10'000'000'000ull;
    VkResult err = vkAcquireNextImageKHR(dev, wd.Swapchain, kFrameTimeoutNs, acquired, VK_NULL_HANDLE, &wd.FrameIndex);
    if (err == VK_TIMEOUT || err == VK_NOT_READY)
        throw core::DeviceError("no swapchain image became available within 10 s");
    if (err == VK_ERROR_OUT_OF_DATE_KHR) {
        impl_->rebuild = true;
        return;
    }
    if (err == VK_SUBOPTIMAL_KHR)
        impl_->rebuild = true;  // acquired all the same: draw it, rebuild after
    else
        views::check_vk(err);
    ImGui_ImplVulkanH_Frame* fd = &wd.Frames[wd.FrameIndex];
    err = vkWaitForFences(dev, 1, &fd->Fence, VK_TRUE, kFrameTimeoutNs);
    if (err == VK_TIMEOUT) throw core::DeviceError("the Vulkan device did not finish a frame within 10 s");
    views::check_vk(err);
    views::check_vk(vkResetFences(dev, 1, &fd->Fence));
    views::check_vk(vkResetCommandPool(dev, fd->CommandPool, 0));
    vk::CommandBuffer cmd(fd->CommandBuffer);
    cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
    const vk::Extent2D extent(static_cast<std::uint32_t>(wd.Width), static_cast<std::uint32_t>(wd.Height));
    before_pass(cmd, extent);
    vk::ClearValue clear(vk::ClearColorValue(std::array<float, 4>{0.06f, 0.06f, 0.07f, 1.0f}));
    cmd.beginRenderPass(vk::RenderPassBeginInfo(wd.RenderPass, fd->Framebuffer, vk::Rect2D({0, 0}, extent), clear),
                        vk::SubpassContents::eInline);
    ImGui_ImplVulkan_RenderDrawData(draw_data, fd->CommandBuffer);
    cmd.endRenderPass();
    cmd.end();
    VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    VkSubmitInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    info.waitSemaphoreCount = 1;
    info.pWaitSemaphores = &acquired;
    info.pWaitDstStageMask = &wait_stage;
    info.commandBufferCount = 1;
    info.pCommandBuffers = &fd->CommandBuffer;
    info.signalSemaphoreCount = 1;
    info.pSignalSemaphores = &done;
    views::check_vk(vkQueueSubmit(*ctx_->queue(), 1, &info, fd->Fence));

    VkPresentInfoKHR present{};
    present.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
    present.waitSemaphoreCount = 1;
    present.pWaitSemaphores = &done;
    present.swapchainCount = 1;
    present.pSwapchains = &wd.Swapchain;
    present.pImageIndices = &wd.FrameIndex;
    err = vkQueuePresentKHR(*ctx_->queue(), &present);
    if (err == VK_ERROR_OUT_OF_DATE_KHR || err == VK_SUBOPTIMAL_KHR) {
        impl_->rebuild = true;
        return;
    }
    views::check_vk(err);
    wd.SemaphoreIndex = (wd.SemaphoreIndex + 1) % wd.ImageCount;
}

void Window::capture(const views::BeforePass& before_pass, const std::string& png_path, std::array<int, 4> crop) {
    ImDrawData* draw_data = ImGui::GetDrawData();
    if (!draw_data) throw core::DeviceError("--screenshot: nothing was rendered yet");
    auto& wd = impl_->wd;
    const auto& dev = ctx_->device();
    dev.waitIdle();  // the swapchain frames are done with ImGui's buffers before we reuse them
    const vk::Extent2D extent(static_cast<std::uint32_t>(wd.Width), static_cast<std::uint32_t>(wd.Height));
    // Drawn again into an image compatible with the swapchain's render pass, so ImGui's and the
    // heatmap's pipelines draw into it as they do on screen.
    views::OffscreenTarget target(*ctx_, extent, static_cast<vk::Format>(wd.SurfaceFormat.format));
    const views::RgbaImage full{static_cast<int>(extent.width), static_cast<int>(extent.height),
                                target.render(draw_data, before_pass)};
    const views::RgbaImage shot = views::crop_image(full, crop);
    views::write_png_atomic(png_path, shot.width, shot.height, shot.rgba);
}

}  // namespace normlab::app
