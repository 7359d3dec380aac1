// ShownViews: the views an app shows in the heatmap's place or beside it (the compare view, the cube
// drawing, the gradient view), for the desktop app and the browser app alike, and the view settings
// (a scene's or lesson step's "view") they make with the heatmap's mode and colours.
#pragma once
#include "normlab/views/heatmap_panel.hpp"

#include "normlab/classroom/experiments.hpp"
#include "normlab/classroom/view_settings.hpp"

namespace normlab::views {

struct ShownViews {
    bool compare = false, cube = false, gradient = false;

    // `v` shown: its heatmap part by `heatmap`, its views here (its experiment is the caller's to start).
    void show(const classroom::ViewSettings& v, HeatmapPanel& heatmap) {
        heatmap.show_view(v);
        compare = v.compare;
        cube = v.cube;
        gradient = v.gradient;
    }
    // What is shown, as a view: the heatmap's part, these views and the running experiment (or none).
    classroom::ViewSettings view(const HeatmapPanel& heatmap, const classroom::Experiment* running) const {
        classroom::ViewSettings v = heatmap.view();
        v.compare = compare;
        v.cube = cube;
        v.gradient = gradient;
        if (running) v.experiment = running->id;
        return v;
    }
};

}  // namespace normlab::views
