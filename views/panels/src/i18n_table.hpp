// The string table's entries (i18n.hpp: English → Simplified Chinese) for the parts kept in files of
// their own (i18n_train.cpp); i18n.cpp looks them up with its own table.
#pragma once
#include <span>

namespace normlab::views {

struct I18nEntry {
    const char* en;
    const char* zh;
};

// The Train view's strings.
std::span<const I18nEntry> train_strings();

}  // namespace normlab::views
