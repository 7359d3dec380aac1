// The wasm side of the results page (web/site/page.js defines window.normlabPage): what the
// C++ main hands to the page, each call filling one element of index.html.
#pragma once
#include <string>

namespace normlab::web {

void show_status(const std::string& line);         // a progress line (#normlab-status)
void show_summary(const std::string& text);        // the textual summary (#normlab-summary)
void show_stats(const std::string& json);          // the statistics JSON (#normlab-stats, ?stats=1)
void show_kernel_report(const std::string& json);  // the kernel test's report (#normlab-kernel-test)
void show_error(const std::string& line);          // one error line (#normlab-error)
void mark_done(const std::string& state);          // <body data-normlab-state="done" | "error">

}  // namespace normlab::web
