// JsonReader: the one way normlab reads its JSON files — scenes, lessons, presets and
// experiments (docs/scene-format.md). Typed access to one object of a file whose errors all
// read "<file>: <what is wrong>" and name the key by its path ("tensor.shape", "state.norm"),
// so every loader checks its files the same way and only InputError ever escapes.
// Also the scene's parts, for the formats that embed a scene's objects.
#pragma once
#include "normlab/core/local_text.hpp"
#include "normlab/core/state.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace normlab::io {

// Parses JSON text; throws InputError("<name>: not valid JSON (<the parser's reason>)").
nlohmann::json parse_json_text(const std::string& text, const std::string& name);

class JsonReader {
public:
    // The object `j` at key path `where` ("" for the file's root) of the file `name`. Throws
    // unless j is an object: "<name>: <what> must be a JSON object" at the root (what: "a scene",
    // "a lesson", ...), "<name>: <where> must be an object" below it. j must outlive the reader.
    JsonReader(const nlohmann::json& j, std::string where, std::string name, const std::string& what = "a scene");

    [[noreturn]] void fail(const std::string& why) const;
    const std::string& name() const { return name_; }
    const nlohmann::json& value() const { return j_; }
    // The path of key k ("tensor.shape"), as the messages name it.
    std::string key(const std::string& k) const;
    // Whether k is there and not null (null means "the default" everywhere).
    bool has(const std::string& k) const;
    // The value of a key that must be there ("<key> is missing" otherwise).
    const nlohmann::json& get(const std::string& k) const;
    const nlohmann::json& at(const std::string& k) const { return get(k); }
    // The object at key k, read the same way.
    JsonReader child(const std::string& k) const;

    // Refuses keys outside `allowed`: "unknown <what> 'k' (a, b or c)" (what: "key", "view key", ...).
    void only_keys(std::initializer_list<std::string_view> allowed, const std::string& what = "key") const;
    // The format marker of a file: k must be 1, else "not a normlab <what> (needs "k": 1)".
    void format_version(const std::string& k, const std::string& what) const;

    std::int64_t integer(const std::string& k, std::int64_t lo, std::int64_t hi) const;
    double number(const std::string& k) const;
    bool boolean(const std::string& k) const;
    std::string string(const std::string& k) const;
    std::string nonempty_string(const std::string& k) const;
    // A list of lo..hi integers, each >= 0.
    std::vector<std::int64_t> dims(const std::string& k, std::size_t lo, std::size_t hi) const;
    // A list of numbers that fit a float32 (JSON has no Inf/NaN).
    std::vector<float> floats(const std::string& k) const;
    // A list of strings.
    std::vector<std::string> strings(const std::string& k) const;
    // A list of lo..hi elements of any kind.
    const nlohmann::json& list(const std::string& k, std::size_t lo, std::size_t hi) const;
    // {"en": ..., "zh": ...} (or an English-only string); en must not be empty. Absent and not
    // required: empty texts.
    core::LocalText text(const std::string& k, bool required) const;

private:
    const nlohmann::json& j_;
    std::string where_, name_;
};

// The scene's parts (docs/scene-format.md), for the formats that embed them.
// A "tensor" object: generated (shape, init, seed, value), preset or file.
core::TensorSource tensor_source_from_json(const JsonReader& t);
// A "norm" object; keys it leaves out keep `base` (a "method" starts from its defaults).
core::NormSpec norm_spec_from_json(const JsonReader& n, core::NormSpec base = core::default_spec(core::Method::Batch));
// A "params" object.
core::NormParams norm_params_from_json(const JsonReader& p);
// An object with a scene's keys (tensor, norm, params, selection, view; "normlab_scene" is
// not checked): the State, checked whole when the tensor is generated (its shape is known).
core::State state_from_json(const JsonReader& r);

// What a state can only be checked for once its tensor's shape is known: the method, its
// parameters and the selection fit `shape`. Throws InputError("<name>: <why><note>").
void check_state_for_shape(const core::State& s, const core::Shape4& shape, const std::string& name,
                           const std::string& note = "");

}  // namespace normlab::io
