// GLFW: the window, its resize flag and title, and the Vulkan surface.
#include "window.hpp"

#include <utility>

// volk.h (through window.hpp) declares the Vulkan types first, so GLFW declares its
// Vulkan functions; GLFW_INCLUDE_NONE keeps it from including any GL header.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <sculptflow/error.hpp>
#include "host/vulkan_check.hpp"

namespace sculptflow::viewer {
namespace {

std::string glfwErrorText() {
    const char* description = nullptr;
    const int code = glfwGetError(&description);
    return description ? std::string(description) + " (GLFW error " + std::to_string(code) + ")"
                       : std::string("no details from GLFW");
}

} // namespace

Window::Window(uint32_t width, uint32_t height, const std::string& title) {
    if (!glfwInit()) throw Error("cannot open a window (is DISPLAY set? try xvfb-run): " + glfwErrorText());
    if (!glfwVulkanSupported()) {
        glfwTerminate();
        throw Error("GLFW finds no Vulkan loader with surface support");
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    window_ = glfwCreateWindow(int(width), int(height), title.c_str(), nullptr, nullptr);
    if (!window_) {
        const std::string why = glfwErrorText();
        glfwTerminate();
        throw Error("cannot create the window: " + why);
    }
    glfwSetWindowUserPointer(window_, this);
    glfwSetFramebufferSizeCallback(window_, [](GLFWwindow* window, int, int) {
        static_cast<Window*>(glfwGetWindowUserPointer(window))->resized_ = true;
    });
    glfwSetKeyCallback(window_, [](GLFWwindow* window, int key, int, int action, int) {
        if (action == GLFW_PRESS) static_cast<Window*>(glfwGetWindowUserPointer(window))->keys_.push_back(key);
    });
}

Window::~Window() {
    if (window_) glfwDestroyWindow(window_);
    glfwTerminate();
}

std::vector<const char*> Window::requiredInstanceExtensions() const {
    uint32_t count = 0;
    const char** names = glfwGetRequiredInstanceExtensions(&count);
    if (!names) throw Error("GLFW cannot make Vulkan surfaces here: " + glfwErrorText());
    return {names, names + count};
}

VkExtent2D Window::framebufferSize() const {
    int width = 0, height = 0;
    glfwGetFramebufferSize(window_, &width, &height);
    return {uint32_t(width), uint32_t(height)};
}

bool Window::shouldClose() const { return glfwWindowShouldClose(window_); }

void Window::pollEvents() const { glfwPollEvents(); }

void Window::waitWhileMinimised() const {
    for (VkExtent2D size = framebufferSize(); (size.width == 0 || size.height == 0) && !shouldClose();
         size = framebufferSize())
        glfwWaitEvents();
}

void Window::setTitle(const std::string& title) { glfwSetWindowTitle(window_, title.c_str()); }

std::vector<int> Window::takeKeys() { return std::exchange(keys_, {}); }

bool Window::takeResized() {
    const bool resized = resized_;
    resized_ = false;
    return resized;
}

WindowSurface::WindowSurface(VkInstance instance, const Window& window) : instance_(instance) {
    SF_VK_CHECK(glfwCreateWindowSurface(instance, window.handle(), nullptr, &surface_));
}

WindowSurface::~WindowSurface() {
    if (surface_) vkDestroySurfaceKHR(instance_, surface_, nullptr);
}

} // namespace sculptflow::viewer
