#include "page_bridge.hpp"

#include <emscripten.h>

namespace normlab::web {
namespace {

// (JavaScript: clang-format would split its === operators)
// clang-format off
EM_JS(void, js_page_call, (const char* method, const char* text), {
    var page = (typeof window !== 'undefined') ? window.normlabPage : undefined;
    var m = UTF8ToString(method), t = UTF8ToString(text);
    if (page && page[m])
        page[m](t);
    else
        console.log('normlab ' + m + ': ' + t);
});
// clang-format on

}  // namespace

void show_status(const std::string& line) { js_page_call("status", line.c_str()); }
void show_summary(const std::string& text) { js_page_call("summary", text.c_str()); }
void show_stats(const std::string& json) { js_page_call("stats", json.c_str()); }
void show_kernel_report(const std::string& json) { js_page_call("kernelReport", json.c_str()); }
void show_error(const std::string& line) { js_page_call("error", line.c_str()); }
void show_link(const std::string& line, const std::string& note) {
    js_page_call("link", line.c_str());
    if (!note.empty()) show_note(note);
}
void show_note(const std::string& line) { js_page_call("note", line.c_str()); }
void mark_done(const std::string& state) { js_page_call("done", state.c_str()); }
void show_report(const std::string& json) { js_page_call("report", json.c_str()); }

}  // namespace normlab::web
