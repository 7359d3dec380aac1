// Reading and writing NumPy .npy files (versions 1.0, 2.0 and 3.0; little-endian float32,
// float64 and int32; C order). The reader trusts nothing in the header: every field is
// checked and the data size is compared with the file size before anything is allocated.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace normlab::io {

struct NpyArray {
    std::vector<std::int64_t> shape;
    std::vector<float> data;  // converted to float32
    std::string descr;        // as in the file, e.g. "<f4"
};

// Parses .npy bytes; throws InputError("<name>: <what is wrong>").
NpyArray parse_npy(std::string_view bytes, const std::string& name);
// Reads a file (rejecting files larger than the largest tensor normlab accepts).
NpyArray read_npy(const std::string& path);

// Serialized .npy bytes (version 1.0).
std::string npy_bytes_f32(const std::vector<std::int64_t>& shape, const float* data);
std::string npy_bytes_f64(const std::vector<std::int64_t>& shape, const double* data);
std::string npy_bytes_i32(const std::vector<std::int64_t>& shape, const std::int32_t* data);
std::string npy_bytes_i64(const std::vector<std::int64_t>& shape, const std::int64_t* data);  // labels

}  // namespace normlab::io
