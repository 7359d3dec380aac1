// The wasm side of the pages (web/site/page.js and app_page.js define window.normlabPage): what
// the C++ main hands to the page, each call filling one element of index.html or app.html.
#pragma once
#include <string>

namespace normlab::web {

void show_status(const std::string& line);         // a progress line (#normlab-status)
void show_summary(const std::string& text);        // the textual summary (#normlab-summary)
void show_stats(const std::string& json);          // the statistics JSON (#normlab-stats, ?stats=1)
void show_kernel_report(const std::string& json);  // the kernel test's report (#normlab-kernel-test)
void show_error(const std::string& line);          // one error line (#normlab-error)
// The shown state's link: "normlab-scene:…" goes into the URL (and the link field); "" clears
// it, with `note` saying why the state has no link.
void show_link(const std::string& line, const std::string& note);
void show_note(const std::string& line);    // a line that is not an error (#normlab-note)
void mark_done(const std::string& state);   // <body data-normlab-state="done" | "error">
void show_report(const std::string& json);  // app.html: the ImGui shell's report (#normlab-app-report)

}  // namespace normlab::web
