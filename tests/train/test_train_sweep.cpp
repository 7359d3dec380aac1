// normlab-cli train --sweep and --figure as a user runs them (label train): a bad sweep exits 2 with one
// line before any run and writes nothing; a sweep's runs are the single runs of the same options (its CSV
// rows equal their logs' last rows); its table, summary CSV, combined log and figure; a run's figure with
// its two curves in their colours.
#include "cli/cli_support.hpp"
#include "normlab/io/image_file.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace normlab;
using namespace normlab::test;

namespace {

const std::string kBase =
    "train --model mlp --width 8 --data spirals --classes 3 --samples 64 --steps 30 "
    "--lr 0.05 --optimizer adam --seed 3 --data-seed 4";

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

std::string q(const fs::path& p) {  // quoted for the shell (appended: GCC 12 warns on "'" + s + "'")
    std::string s(1, '\'');
    s += p.string();
    s += '\'';
    return s;
}

// Pixels of the figure within 12 of an Okabe–Ito colour (the chart's series 0: orange, 1: sky blue).
int pixels_of(const core::Tensor& img, int r, int g, int b) {
    const std::int64_t plane = img.shape.h * img.shape.w;
    int n = 0;
    for (std::int64_t i = 0; i < plane; ++i) {
        const float dr = img.data[i] * 255 - r, dg = img.data[plane + i] * 255 - g,
                    db = img.data[2 * plane + i] * 255 - b;
        n += std::abs(dr) < 12 && std::abs(dg) < 12 && std::abs(db) < 12;
    }
    return n;
}

}  // namespace

TEST_CASE("train sweep: bad sweeps exit 2 with one line before any run and write nothing", "[train]") {
    const fs::path dir = tmpdir() / "bad-sweep";
    fs::create_directories(dir);
    const std::string out = " --sweep-csv " + q(dir / "s.csv") + " --log " + q(dir / "log.csv");
    check_refused(kBase + " --sweep colour=red,blue" + out, "unknown --sweep key 'colour'");
    check_refused(kBase + " --sweep batch=4,abc" + out, "'abc' is not an integer");
    check_refused(kBase + " --sweep norm=batch,magic" + out, "unknown norm 'magic'");
    check_refused(kBase + " --sweep batch" + out, "KEY=V1,V2");
    check_refused(kBase + " --sweep batch=4,4" + out, "repeats");
    check_refused(kBase + " --sweep batch=4 --sweep batch=8" + out, "given twice");
    check_refused(kBase + " --norm group --groups 4 --sweep depth=1,2 --sweep width=8,6" + out,
                  "sweep run depth=1, width=6: num_channels must be divisible by num_groups");
    check_refused(kBase + " --sweep norm=none,batch --sweep batch=1,2" + out, "sweep run norm=batch, batch=1");
    check_refused(kBase + " --sweep channels=4,8" + out, "the mlp sweeps width");
    check_refused(kBase + " --sweep lr=0.1,0" + out, "--lr must be positive");
    check_refused(kBase + " --sweep norm=none,batch --save-init " + q(dir / "init") + out, "not with --sweep");
    check_refused(kBase + " --sweep norm=none,batch --figure " + q(dir / "f.png") + out, "--sweep batch=");
    check_refused(kBase + " --sweep-csv " + q(dir / "s.csv"), "--sweep-csv needs --sweep");
    check_refused(kBase + " --sweep batch=2,3 --sweep-csv /proc/forbidden/s.csv", "/proc");
    check_refused(kBase +
                      " --sweep seed=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17 --sweep batch=1,2,3,4,5,6,7,8,"
                      "9,10,11,12,13,14,15,16",
                  "more than 256 runs");
    CHECK(fs::is_empty(dir));
}

TEST_CASE("train sweep: the grid's runs, table, CSV, log and figure", "[train]") {
    const fs::path dir = tmpdir() / "sweep";
    fs::create_directories(dir);
    const Run r = cli(kBase + " --depth 2 --sweep norm=none,batch --sweep batch=16,4 --eval-every 5 --log " +
                      q(dir / "log.csv") + " --figure " + q(dir / "gn.png") + " --figure-size 900x500");
    INFO(r.err);
    REQUIRE(r.status == 0);
    const auto table = lines(r.out);
    REQUIRE(table.size() == 6);                                 // the device line, the header, 4 runs
    CHECK(table[1].rfind("norm   batch  train_loss", 0) == 0);  // columns as wide as their values
    CHECK(table[2].rfind("none   16     ", 0) == 0);
    CHECK(table[5].rfind("batch  4      ", 0) == 0);

    const auto csv = lines(slurp(dir / "log-sweep.csv"));  // beside --log
    REQUIRE(csv.size() == 5);
    CHECK(csv[0] == "norm,batch,train_loss,train_acc,val_loss,val_acc,steps_per_s");
    CHECK(csv[1].rfind("none,16,", 0) == 0);
    CHECK(csv[2].rfind("none,4,", 0) == 0);
    CHECK(csv[3].rfind("batch,16,", 0) == 0);
    CHECK(csv[4].rfind("batch,4,", 0) == 0);
    const auto log = lines(slurp(dir / "log.csv"));
    REQUIRE(log.size() == 121);
    CHECK(log[0] == "norm,batch,step,train_loss,train_acc,val_loss,val_acc");

    // The run norm=batch, batch=4 alone: its log's last row is the sweep's row.
    const Run one = cli(kBase + " --depth 2 --norm batch --batch 4 --eval-every 5 -q --log " + q(dir / "one.csv"));
    REQUIRE(one.status == 0);
    const auto single = lines(slurp(dir / "one.csv"));
    REQUIRE(single.size() == 31);
    CHECK("batch,4," + single[30] == log[120]);
    const std::string last = single[30].substr(single[30].find(',') + 1);  // train_loss,…,val_acc
    CHECK(csv[4].rfind("batch,4," + last + ",", 0) == 0);

    const core::Tensor fig = io::load_image((dir / "gn.png").string());
    CHECK(fig.shape.w == 900);
    CHECK(fig.shape.h == 500);
    CHECK(pixels_of(fig, 230, 159, 0) > 100);   // norm=none
    CHECK(pixels_of(fig, 86, 180, 233) > 100);  // norm=batch
}

TEST_CASE("train figure: a run's loss and accuracy curves", "[train]") {
    const fs::path dir = tmpdir() / "figure";
    fs::create_directories(dir);
    const Run r = cli(kBase + " --depth 2 --norm layer -q --figure " + q(dir / "run.png"));
    INFO(r.err);
    REQUIRE(r.status == 0);
    const core::Tensor fig = io::load_image((dir / "run.png").string());
    CHECK(fig.shape.w == 1400);
    CHECK(fig.shape.h == 700);
    CHECK(pixels_of(fig, 230, 159, 0) > 200);   // training
    CHECK(pixels_of(fig, 86, 180, 233) > 100);  // validation
    check_refused(kBase + " --figure " + q(dir / "bad.png") + " --figure-size 10x10", "--figure-size");
    CHECK_FALSE(fs::exists(dir / "bad.png"));
}
