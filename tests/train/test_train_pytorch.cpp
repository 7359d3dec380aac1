// "Copy as PyTorch" (label train): normlab-cli train --pytorch-script writes a script that Debian's
// /usr/bin/python3 (torch 1.13) runs from the run's --save-init and --save-data; its loss at every step
// equals normlab's --log within 1e-4 relative, for mlps and cnns; the script's own comparison passes, and
// fails on a log with one loss changed by 1%. Skipped, with a message, only where torch is missing.
#include "cli/cli_support.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

using namespace normlab;
using namespace normlab::test;

namespace {

const char* const kPython = "/usr/bin/python3";

bool have_torch() {
    const std::string cmd = std::string(kPython) + " -c 'import torch, numpy' >/dev/null 2>&1";
    return std::system(cmd.c_str()) == 0;
}

Run python(const std::string& args) {
    const fs::path o = tmpdir() / "py-stdout.txt", e = tmpdir() / "py-stderr.txt";
    const std::string cmd = std::string(kPython) + " " + args + " >'" + o.string() + "' 2>'" + e.string() + "'";
    const int rc = std::system(cmd.c_str());
    return Run{WIFEXITED(rc) ? WEXITSTATUS(rc) : 128, slurp(o), slurp(e)};
}

std::string q(const fs::path& p) {  // quoted for the shell (appended: GCC 12 warns on "'" + s + "'")
    std::string s(1, '\'');
    s += p.string();
    s += '\'';
    return s;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

// The train_loss column of a --log CSV.
std::vector<double> log_losses(const fs::path& csv) {
    std::vector<double> out;
    const auto rows = lines(slurp(csv));
    for (std::size_t i = 1; i < rows.size(); ++i) out.push_back(std::stod(rows[i].substr(rows[i].find(',') + 1)));
    return out;
}

// "step 3: loss 1.0986 acc 0.25" lines of the script's output.
std::vector<double> script_losses(const std::string& out) {
    std::vector<double> losses;
    for (const auto& l : lines(out))
        if (l.rfind("step ", 0) == 0) losses.push_back(std::stod(l.substr(l.find("loss ") + 5)));
    return losses;
}

}  // namespace

// Two mlps and two cnns, short runs; the first also checks that the script's comparison can fail.
const char* const kRuns[] = {
    "--model mlp --depth 2 --width 8 --norm group --groups 2 --activation tanh --data spirals --classes 3 "
    "--samples 64 --batch 16 --steps 15 --lr 0.1 --optimizer sgd --seed 7",
    "--model mlp --depth 3 --width 8 --norm rms --norm-placement after --activation sigmoid --data circles "
    "--samples 64 --batch 8 --steps 15 --lr 0.01 --optimizer adam --seed 8",
    "--model cnn --depth 3 --channels 4 --norm batch --data textures --classes 3 --samples 32 --batch 8 --steps 15 "
    "--lr 0.05 --optimizer sgd --seed 9",
    "--model cnn --depth 2 --channels 4 --norm layer --norm-placement after --activation tanh --data textures "
    "--classes 4 --samples 16 --batch 4 --steps 15 --lr 0.01 --optimizer adam --seed 10",
};

TEST_CASE("train: the PyTorch script replays the run's losses", "[train]") {
    const int index = GENERATE(range(0, 4));
    const std::string run = kRuns[index];
    INFO(run);
    if (!have_torch()) {
        WARN("skipped: " << kPython << " cannot import torch and numpy (Debian: apt install python3-torch)");
        return;
    }
    const fs::path dir = tmpdir() / ("torch-" + std::to_string(std::hash<std::string>{}(run)));
    fs::create_directories(dir);
    const Run r = cli("train -q " + run + " --save-init '" + (dir / "init").string() + "' --save-data '" +
                      (dir / "data").string() + "' --log '" + (dir / "log.csv").string() + "' --pytorch-script '" +
                      (dir / "replay.py").string() + "'");
    INFO(r.err);
    REQUIRE(r.status == 0);
    const Run py = python(q(dir / "replay.py"));
    INFO(py.out << py.err);
    CHECK(py.status == 0);
    CHECK(py.out.find("worst relative loss difference") != std::string::npos);
    const auto want = log_losses(dir / "log.csv"), got = script_losses(py.out);
    REQUIRE(want.size() == 15);
    REQUIRE(got.size() == want.size());
    for (std::size_t s = 0; s < want.size(); ++s) {
        INFO("step " << s << ": normlab " << want[s] << ", PyTorch " << got[s]);
        CHECK(std::abs(got[s] - want[s]) <= 1e-4 * std::abs(want[s]));
    }

    if (index != 0) return;
    // The script's own check can fail: a log with one loss 1% off.
    auto rows = lines(slurp(dir / "log.csv"));
    const auto comma = rows[5].find(',', rows[5].find(',') + 1);
    const std::size_t start = rows[5].find(',') + 1;
    rows[5] = rows[5].substr(0, start) + std::to_string(want[4] * 1.01) + rows[5].substr(comma);
    std::string text;
    for (const auto& l : rows) text += l + "\n";
    write(dir / "bad.csv", text);
    const Run bad =
        python(q(dir / "replay.py") + " " + q(dir / "init") + " " + q(dir / "data") + " " + q(dir / "bad.csv"));
    CHECK(bad.status == 1);
}
