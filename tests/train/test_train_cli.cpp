// `normlab-cli train` as a user runs it (label train): bad options exit 2 with one line and write
// nothing; a run writes every parameter with its PyTorch name, the data and batch order, and a log
// whose losses are the float64 reference's at each step.
#include "cli/cli_support.hpp"
#include "normlab/train/train_reference.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace normlab;
using namespace normlab::test;

namespace {

const std::string kRun =
    "train --model mlp --depth 2 --width 8 --norm batch --data spirals --classes 3 --samples 64 "
    "--batch 16 --steps 12 --lr 0.1 --optimizer sgd --seed 5 --data-seed 6 --eval-every 5";

train::TrainConfig run_config() {
    train::TrainConfig c;
    c.depth = 2;
    c.width = 8;
    c.norm = train::TrainNorm::Batch;
    c.classes = 3;
    c.samples = 64;
    c.batch = 16;
    c.steps = 12;
    c.lr = 0.1;
    c.seed = 5;
    c.data_seed = 6;
    return c;
}

std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> cells;
        std::string cell;
        std::istringstream l(line);
        while (std::getline(l, cell, ',')) cells.push_back(cell);
        if (!line.empty() && line.back() == ',') cells.emplace_back();
        rows.push_back(cells);
    }
    return rows;
}

// The data bytes of a version-1.0 .npy (normlab's reader takes floats only; the labels and batch
// order are int64 and int32).
std::string npy_payload(const std::string& bytes) {
    const std::size_t header =
        10 + static_cast<unsigned char>(bytes.at(8)) + 256u * static_cast<unsigned char>(bytes.at(9));
    return bytes.substr(header);
}

}  // namespace

TEST_CASE("train cli: bad options exit 2 with one line and write nothing", "[train]") {
    const fs::path out = tmpdir() / "refused";
    const std::string save = " --save-init '" + out.string() + "' --log '" + (tmpdir() / "refused.csv").string() + "'";
    check_refused("train --norm instance" + save, "instance");
    check_refused("train --norm group --width 32 --groups 5" + save, "divisible");
    check_refused("train --norm batch --batch 1" + save, "more than 1 value");
    check_refused("train --lr 0" + save, "--lr");
    check_refused("train --lr -0.1" + save, "--lr");
    check_refused("train --model cnn" + save, "cnn");
    check_refused("train --optimizer rmsprop" + save, "rmsprop");
    check_refused("train --norm-placement middle" + save, "middle");
    check_refused("train --no-such-option" + save, "no-such-option");
    check_refused("train --save-init /proc/forbidden/x", "/proc");
    CHECK_FALSE(fs::exists(out));
    CHECK_FALSE(fs::exists(tmpdir() / "refused.csv"));
}

TEST_CASE("train cli: a run writes PyTorch-named parameters, the data and the reference's losses", "[train]") {
    const fs::path dir = tmpdir() / "run";
    fs::create_directories(dir);  // the CLI creates DIR, not its missing parents
    const Run r = cli(kRun + " --save-init '" + (dir / "init").string() + "' --save-data '" + (dir / "data").string() +
                      "' --save-final '" + (dir / "final").string() + "' --log '" + (dir / "log.csv").string() + "'");
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);

    const train::TrainConfig c = run_config();
    const auto init = train::init_mlp_params(c);
    const auto data = train::make_train_data(c);
    for (const auto& t : init) {
        INFO(t.name);
        const io::NpyArray a = io::read_npy((dir / "init" / (t.name + ".npy")).string());
        CHECK(a.shape == t.shape);
        CHECK(a.data == t.values);
        CHECK(io::read_npy((dir / "final" / (t.name + ".npy")).string()).shape == t.shape);
    }
    CHECK(fs::exists(dir / "init" / "layers.1.norm.num_batches_tracked.npy"));
    CHECK(io::read_npy((dir / "data" / "x_train.npy").string()).data == data.train.x);
    CHECK(io::read_npy((dir / "data" / "x_val.npy").string()).shape == std::vector<std::int64_t>{16, 2});
    const std::string batches = slurp(dir / "data" / "batches.npy");
    CHECK(batches.find("'descr': '<i4', 'fortran_order': False, 'shape': (12, 16)") != std::string::npos);
    CHECK(npy_payload(batches) == std::string(reinterpret_cast<const char*>(data.batches.data()), 12 * 16 * 4));
    const std::string y = slurp(dir / "data" / "y_train.npy");
    CHECK(y.find("'descr': '<i8', 'fortran_order': False, 'shape': (64,)") != std::string::npos);
    const std::vector<std::int64_t> labels(data.train.y.begin(), data.train.y.end());
    CHECK(npy_payload(y) == std::string(reinterpret_cast<const char*>(labels.data()), 64 * 8));

    const auto rows = csv_rows(slurp(dir / "log.csv"));
    REQUIRE(rows.size() == 13);
    CHECK(rows[0] == std::vector<std::string>{"step", "train_loss", "train_acc", "val_loss", "val_acc"});
    train::MlpReference ref(c, init);
    for (int t = 0; t < c.steps; ++t) {
        const std::vector<std::int32_t> batch(data.batches.begin() + t * c.batch,
                                              data.batches.begin() + (t + 1) * c.batch);
        const auto s = ref.step(data.train, batch);
        const auto& row = rows[t + 1];
        INFO("step " << t);
        REQUIRE(row.size() == 5);
        CHECK(row[0] == std::to_string(t));
        CHECK(std::abs(std::stod(row[1]) - s.loss) < 1e-4 * s.loss);
        CHECK(std::abs(std::stod(row[2]) - s.accuracy) < 1e-6);
        const bool evaluated = t == 4 || t == 9 || t == 11;
        CHECK(row[3].empty() == !evaluated);
        CHECK(row[4].empty() == !evaluated);
    }
    CHECK(std::abs(std::stod(rows[12][3]) - ref.evaluate(data.val).loss) < 1e-4 * ref.evaluate(data.val).loss);
}
