// Images as tensors and AdaIN through normlab-cli: --image gives exactly value/255 (checked
// against tests/golden/images/, decoded by an independent Python PNG reader), JPEG within its
// lossy coding, --style-image matches PyTorch's AdaIN (float64 golden data) within 1e-5,
// --output-image writes the documented formula, and every bad input exits 2 with nothing written.
#include <catch2/catch.hpp>

#include "cli_support.hpp"
#include "normlab/io/image_file.hpp"
#include "normlab/io/npy.hpp"

#include <nlohmann/json.hpp>
#include <stb_image_write.h>

#include <cmath>
#include <filesystem>

using namespace normlab;
using namespace normlab::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kImages = fs::path(NORMLAB_SOURCE_DIR) / "tests/golden/images";
const fs::path kAssets = fs::path(NORMLAB_SOURCE_DIR) / "assets/images";

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

// A failing run: exit 2, one "error: " line naming `message`, and none of the outputs written.
void expect_image_error(const std::string& args, const std::string& message) {
    const fs::path y = tmpdir() / "err-y.npy", png = tmpdir() / "err-y.png", stats = tmpdir() / "err-s.json";
    for (const auto& p : {y, png, stats}) fs::remove(p);
    check_refused(args + " --output " + q(y) + " --output-image " + q(png) + " --stats " + q(stats), message);
    CHECK_FALSE(fs::exists(y));
    CHECK_FALSE(fs::exists(png));
    CHECK_FALSE(fs::exists(stats));
}

void append(void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
}

}  // namespace

TEST_CASE("image input: PNG gray, gray+alpha, RGB and RGBA give value/255 exactly", "[cli][image]") {
    for (const char* name : {"gray", "gray-alpha", "rgb", "rgba"}) {
        INFO(name);
        const core::Tensor t = io::load_image((kImages / (std::string(name) + ".png")).string());
        const io::NpyArray want = io::read_npy((kImages / (std::string(name) + ".x.npy")).string());
        CHECK(t.shape.dims() == want.shape);
        CHECK(t.shape.c == (std::string(name).rfind("gray", 0) == 0 ? 1 : 3));
        REQUIRE(t.data.size() == want.data.size());
        CHECK(t.data == want.data);  // bit-exact: value/255 in float32 both sides
    }
    // The shipped images too (their decodes are the AdaIN cases' x.npy).
    for (const char* c : {"adain-rgb", "adain-rgb-mosaic"}) {
        const json e = json::parse(slurp(kImages / c / "expected.json"));
        const core::Tensor t =
            io::load_image((fs::path(NORMLAB_SOURCE_DIR) / e["content"].get<std::string>()).string());
        CHECK(t.data == io::read_npy((kImages / c / "x.npy").string()).data);
        const core::Tensor s = io::load_image((fs::path(NORMLAB_SOURCE_DIR) / e["style"].get<std::string>()).string());
        CHECK(s.data == io::read_npy((kImages / c / "style.npy").string()).data);
    }
}

TEST_CASE("image input: JPEG (lossy: within 3/255 of the pixels encoded at quality 100)", "[cli][image]") {
    const int w = 24, h = 16;
    for (int comp : {1, 3}) {
        std::vector<unsigned char> px(static_cast<std::size_t>(w * h * comp));
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                for (int k = 0; k < comp; ++k)
                    px[static_cast<std::size_t>((y * w + x) * comp + k)] =
                        static_cast<unsigned char>(40 + 4 * x + 3 * y + 30 * k);  // smooth: JPEG keeps it closely
        std::string bytes;
        REQUIRE(stbi_write_jpg_to_func(append, &bytes, w, h, comp, px.data(), 100));
        const fs::path path = tmpdir() / ("test" + std::to_string(comp) + ".jpg");
        write(path, bytes);
        const core::Tensor t = io::load_image(path.string());
        CHECK(t.shape == core::Shape4{1, 3, h, w});  // stb_image_write stores even gray as YCbCr: RGB on reading
        double worst = 0;
        for (int k = 0; k < 3; ++k)
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x)
                    worst = std::max(worst, std::abs(t.at(0, k, y, x) * 255.0 -
                                                     px[static_cast<std::size_t>((y * w + x) * comp + k % comp)]));
        CHECK(worst <= 3.0);
        Run r = cli("--norm instance --image " + q(path) + " -q --no-reference");
        CHECK(r.status == 0);
    }
}

TEST_CASE("AdaIN (style image) matches PyTorch (float64 golden) within 1e-5", "[cli][image][adain][golden]") {
    const json cases = json::parse(slurp(kImages / "cases.json"));
    for (const auto& c : cases["adain"]) {
        const std::string name = c.get<std::string>();
        INFO(name);
        const json e = json::parse(slurp(kImages / name / "expected.json"));
        const fs::path y = tmpdir() / (name + "-y.npy"), stats = tmpdir() / (name + "-s.json");
        Run r = cli("--norm instance --image " + q(fs::path(NORMLAB_SOURCE_DIR) / e["content"].get<std::string>()) +
                    " --style-image " + q(fs::path(NORMLAB_SOURCE_DIR) / e["style"].get<std::string>()) + " --output " +
                    q(y) + " --stats " + q(stats) + " -q");
        INFO(r.err);
        REQUIRE(r.status == 0);
        const io::NpyArray got = io::read_npy(y.string()), want = io::read_npy((kImages / name / "y.npy").string());
        REQUIRE(got.shape == want.shape);
        double worst = 0;
        for (std::size_t i = 0; i < got.data.size(); ++i)
            worst = std::max(worst, std::abs(double(got.data[i]) - double(want.data[i])));
        CHECK(worst <= 1e-5);
        const json s = json::parse(slurp(stats));
        for (const char* key : {"mean", "var", "style_mean", "style_std"}) {
            INFO(key);
            REQUIRE(s[key].size() == e[key].size());
            for (std::size_t i = 0; i < e[key].size(); ++i)
                CHECK(s[key][i].get<double>() == Approx(e[key][i].get<double>()).margin(1e-6));
        }
        CHECK(s["max_abs_error_vs_reference"].get<double>() < 1e-5);
    }
}

TEST_CASE("output image: writes clamp(0.5 + y/6) and, with a style, clamp(y)", "[cli][image]") {
    for (bool style : {false, true})
        for (const char* name : {"gray", "rgb"}) {
            INFO(name << (style ? " with a style" : ""));
            const fs::path in = kImages / (std::string(name) + ".png");
            const fs::path y = tmpdir() / "rt-y.npy", png = tmpdir() / "rt-y.png";
            Run r = cli("--norm instance --image " + q(in) + (style ? " --style-image " + q(in) : "") + " --output " +
                        q(y) + " --output-image " + q(png) + " -q");
            INFO(r.err);
            REQUIRE(r.status == 0);
            const io::NpyArray yy = io::read_npy(y.string());
            const core::Tensor back = io::load_image(png.string());  // gray is written as R = G = B
            REQUIRE(back.shape.h == yy.shape[2]);
            REQUIRE(back.shape.w == yy.shape[3]);
            const std::int64_t c = yy.shape[1], hw = yy.shape[2] * yy.shape[3];
            int off = 0;
            for (std::int64_t k = 0; k < 3; ++k)
                for (std::int64_t p = 0; p < hw; ++p) {
                    const double v = yy.data[static_cast<std::size_t>((c == 1 ? 0 : k) * hw + p)];
                    const double want = std::clamp(style ? v : 0.5 + v / 6.0, 0.0, 1.0) * 255.0;
                    const double got = back.data[static_cast<std::size_t>(k * hw + p)] * 255.0;
                    CHECK(std::abs(got - want) <= 0.5 + 1e-3);  // rounded to the nearest level
                    off += std::abs(got - want) > 1e-6;
                }
            CHECK(off > 0);  // not trivially equal: the levels are rounded values of y
        }
}

TEST_CASE("images and AdaIN: bad input exits 2 and writes nothing", "[cli][image][errors]") {
    const fs::path d = tmpdir();
    const std::string rgb = q(kImages / "rgb.png"), gray = q(kImages / "gray.png");
    expect_image_error("--norm instance --image " + q(d / "missing.png"), "cannot read");
    write(d / "text.png", "this is not an image at all");
    expect_image_error("--norm instance --image " + q(d / "text.png"), "not a PNG or JPEG image");
    write(d / "x.npy", io::npy_bytes_f32({1, 1, 1, 1}, std::vector<float>{1.0f}.data()));
    expect_image_error("--norm instance --image " + q(d / "x.npy"), "not a PNG or JPEG image");
    expect_image_error("--norm instance --image " + q(kImages / "rgb16.png"), "16-bit");
    // A PNG whose header says 5000×5000 (stb reads the size before any pixel).
    std::string big = slurp(kImages / "rgb.png");
    big.replace(16, 8, std::string("\x00\x00\x13\x88\x00\x00\x13\x88", 8));
    write(d / "big.png", big);
    expect_image_error("--norm instance --image " + q(d / "big.png"), "larger than 4096 pixels on a side");
    std::string cut = slurp(kImages / "rgb.png");
    write(d / "cut.png", cut.substr(0, cut.size() / 2));
    expect_image_error("--norm instance --image " + q(d / "cut.png"), "cut.png");
    expect_image_error("--norm instance --image " + rgb + " --style-image " + gray,
                       "--style-image has 1 channel but the content image has 3");
    expect_image_error("--norm instance --image " + gray + " --style-image " + rgb,
                       "--style-image has 3 channels but the content image has 1");
    expect_image_error("--norm batch --image " + rgb + " --style-image " + rgb,
                       "--style-image (AdaIN) is only used by --norm instance");
    expect_image_error("--norm instance --image " + rgb + " --style-image " + q(d / "missing.png"), "cannot read");
    expect_image_error("--norm instance --image " + rgb + " --input " + q(d / "x.npy"), "give only one of");
    write(d / "w.npy", io::npy_bytes_f32({3}, std::vector<float>{1, 1, 1}.data()));
    expect_image_error("--norm instance --image " + rgb + " --style-image " + rgb + " --weight " + q(d / "w.npy"),
                       "cannot be used with --style-image");
    expect_image_error("--norm instance --shape 1,6,4,4", "--output-image needs 1 (gray) or 3 (RGB) channels");
    expect_image_error("--norm instance --shape 2,3,4,4", "N must be 1");
    expect_image_error("--norm layer --shape 1,3,4", "4-D");
}
