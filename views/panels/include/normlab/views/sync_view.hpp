// SyncView: SyncBN on K simulated devices made visible, for the current tensor (the state has
// spec.sync_devices = K). It draws the K devices (each shard's samples and its per-channel μ and
// σ²) and the three modes side by side — sync (exact all-reduce), local (each device its own
// statistics), naive (mean of the shard variances) — with, per channel, the variance each mode
// applies, the naive error (sync σ² − naive σ², which is the variance of the shard means) and
// how far each mode's y lies from sync's. Every number comes from the GPU run (NormResult::sync).
#pragma once
#include "normlab/views/heatmap_panel.hpp"
#include "normlab/session/session.hpp"

namespace normlab::views {

// Draws into the current window; does nothing when the result holds no SyncBN statistics.
// table_first (presenter mode): the modes' table above the devices, so the naive error shows first.
// Returns the height the view needs at this width to show every channel without scrolling (0
// without SyncBN), whatever room it had: the layout sizes the view from it.
float draw_sync_view(const session::Session& session, bool table_first = false);

// The SyncBN area's heights from the last frame, which the layout sizes the panels from
// (LayoutContent::sync_chrome, sync_need).
struct SyncArea {
    float chrome = 0;  // the heatmap panel's height above its heatmap
    float need = 0;    // the height of the devices and modes below the heatmap
};
// In the heatmap panel (panel_h high): the heatmap above, the devices and modes below
// (draw_sync_view; table_first in presenter mode).
void heatmap_above_sync_view(HeatmapPanel& heatmap, session::Session& session, bool presenter, float panel_h,
                             SyncArea& area);

}  // namespace normlab::views
