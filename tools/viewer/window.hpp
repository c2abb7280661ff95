// The GLFW window and its Vulkan surface (windowed mode only; headless runs never touch GLFW).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <volk.h>

struct GLFWwindow;

namespace sculptflow::viewer {

// Initialises GLFW and opens a resizable window without a GL context. Owns GLFW:
// one Window per process at a time. Throws sculptflow::Error when there is no
// display or no Vulkan support.
class Window {
public:
    Window(uint32_t width, uint32_t height, const std::string& title);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    // The instance extensions the surface needs (VK_KHR_surface and the platform's).
    std::vector<const char*> requiredInstanceExtensions() const;
    // The framebuffer's size in pixels; 0×0 while minimised.
    VkExtent2D framebufferSize() const;
    bool shouldClose() const;
    void pollEvents() const;
    // Blocks until the window has a non-zero size again (or is closed).
    void waitWhileMinimised() const;
    void setTitle(const std::string& title);
    // True once after each resize of the framebuffer.
    bool takeResized();
    // The keys pressed since the last call (GLFW key codes), in order.
    std::vector<int> takeKeys();

    GLFWwindow* handle() const { return window_; }

private:
    GLFWwindow* window_ = nullptr;
    bool resized_ = false;
    std::vector<int> keys_;
};

// The window's VkSurfaceKHR, destroyed before the instance it was made from.
class WindowSurface {
public:
    WindowSurface(VkInstance instance, const Window& window);
    ~WindowSurface();
    WindowSurface(const WindowSurface&) = delete;
    WindowSurface& operator=(const WindowSurface&) = delete;

    VkSurfaceKHR handle() const { return surface_; }

private:
    VkInstance instance_ = VK_NULL_HANDLE;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
};

} // namespace sculptflow::viewer
