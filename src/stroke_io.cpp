// Stroke input and output: the spec's JSON form and the recorded .bin format (spec §5).
#include <sculptflow/stroke.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cmath>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <sculptflow/error.hpp>
#include <sculptflow/motion.hpp>
#include "file_io.hpp"
#include "kind_table.hpp"
#include "stroke_checks.hpp"
#include "text_scan.hpp"

namespace sculptflow {
namespace {

using Json = nlohmann::json;
using detail::checkStroke;
using detail::FieldNaming;
using detail::formatNumber;
using detail::kReadQuaternionNormTolerance;
using detail::normaliseOrientations;
using detail::strokeError;

// Recorded .bin layout (spec §5): header, 9 f32 per pose, then the tool's 5 fields.
constexpr uint64_t kBinHeaderBytes = 8;
constexpr uint64_t kBinPoseBytes = 36;
constexpr uint64_t kBinTrailerBytes = 20;
constexpr uint32_t kBinVersion = 0;

// ---------------------------------------------------------------------------
// JSON

// Reads one JSON document with messages that name the file and a path into it.
class JsonStrokeParser {
public:
    explicit JsonStrokeParser(std::string source) : source_(std::move(source)) {}

    Stroke parse(const Json& root) const {
        requireObject(root, "", {"voxel_size", "tools", "symmetry"});
        Stroke stroke;
        stroke.voxelSize = optionalNumber(root, "", "voxel_size", 1.0);
        if (const auto it = root.find("symmetry"); it != root.end()) stroke.symmetry = parseSymmetry(*it);
        const Json& tools = requireKey(root, "", "tools");
        if (!tools.is_array()) typeError("tools", "an array", tools);
        for (size_t t = 0; t < tools.size(); ++t) {
            stroke.tools.push_back(parseTool(tools[t], "tools[" + std::to_string(t) + "]"));
        }
        return stroke;
    }

private:
    static std::string join(const std::string& where, std::string_view key) {
        return where.empty() ? std::string(key) : where + "." + std::string(key);
    }

    [[noreturn]] void typeError(const std::string& where, const std::string& expected,
                                const Json& found) const {
        strokeError(source_, (where.empty() ? std::string("top level") : where) + ": expected " + expected +
                          ", found " + found.type_name());
    }

    // Unknown keys are refused: a misspelled optional key would otherwise silently
    // fall back to its default.
    void requireObject(const Json& value, const std::string& where,
                       std::initializer_list<std::string_view> allowed) const {
        if (!value.is_object()) typeError(where, "an object", value);
        for (const auto& item : value.items()) {
            if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end()) {
                const std::string near = detail::nearestName(item.key(), allowed);
                strokeError(source_, join(where, item.key()) + ": unknown key" +
                                  (near.empty() ? "" : " (did you mean \"" + near + "\"?)"));
            }
        }
    }

    const Json& requireKey(const Json& object, const std::string& where, std::string_view key) const {
        const auto it = object.find(key);
        if (it == object.end()) strokeError(source_, join(where, key) + ": missing required key");
        return *it;
    }

    double number(const Json& value, const std::string& where) const {
        if (!value.is_number()) typeError(where, "a number", value);
        return value.get<double>();
    }

    double requiredNumber(const Json& object, const std::string& where, std::string_view key) const {
        return number(requireKey(object, where, key), join(where, key));
    }

    double optionalNumber(const Json& object, const std::string& where, std::string_view key,
                          double fallback) const {
        const auto it = object.find(key);
        return it == object.end() ? fallback : number(*it, join(where, key));
    }

    template <size_t N>
    std::array<double, N> numbers(const Json& object, const std::string& where, std::string_view key) const {
        const Json& value = requireKey(object, where, key);
        const std::string field = join(where, key);
        if (!value.is_array() || value.size() != N ||
            !std::all_of(value.begin(), value.end(), [](const Json& v) { return v.is_number(); })) {
            strokeError(source_, field + ": expected " + std::to_string(N) + " numbers");
        }
        std::array<double, N> result{};
        for (size_t k = 0; k < N; ++k) result[k] = value[k].get<double>();
        return result;
    }

    std::string text(const Json& value, const std::string& field) const {
        if (!value.is_string()) typeError(field, "a string", value);
        return value.get<std::string>();
    }

    // One of a fixed set of names: an unknown one is named with the valid ones.
    template <typename T, typename Parse>
    T choice(const Json& value, const std::string& where, std::string_view key, Parse parseName,
             std::string_view choices) const {
        const std::string field = join(where, key);
        const std::string name = text(value, field);
        const std::optional<T> parsed = parseName(name);
        if (!parsed)
            strokeError(source_, field + ": unknown " + std::string(key) + " \"" + name + "\" (expected " +
                              std::string(choices) + ")");
        return *parsed;
    }

    // The kind, then the profile or falloff it allows; the other is refused by name.
    void parseShape(const Json& object, const std::string& where, ToolStroke& tool) const {
        tool.kind = choice<ToolKind>(requireKey(object, where, "kind"), where, "kind", parseToolKind,
                                     kToolKindChoices);
        const bool profiled = kindTraits(tool.kind).profiled;
        const std::string kindName(toolKindName(tool.kind));
        if (const auto it = object.find("profile"); it != object.end()) {
            if (!profiled) strokeError(source_, join(where, "profile") + ": a profile is for a kelvinlet, not an " +
                                              kindName + " tool (use \"falloff\")");
            tool.profile = choice<KelvinletProfile>(*it, where, "profile", parseKelvinletProfile,
                                                    kKelvinletProfileChoices);
        }
        if (const auto it = object.find("falloff"); it != object.end()) {
            if (profiled) strokeError(source_, join(where, "falloff") +
                                         ": a falloff is for an affine or affine-flow tool, not a kelvinlet (use \"profile\")");
            tool.falloff = choice<Falloff>(*it, where, "falloff", parseFalloff, kFalloffChoices);
        }
    }

    Symmetry parseSymmetry(const Json& value) const {
        requireObject(value, "symmetry", {"axes", "origin"});
        Symmetry symmetry;
        const Json& axes = requireKey(value, "symmetry", "axes");
        if (!axes.is_string()) typeError("symmetry.axes", "a string", axes);
        const auto& text = axes.get_ref<const std::string&>();
        const std::optional<uint32_t> bits = parseSymmetryAxes(text);
        if (!bits)
            strokeError(source_, "symmetry.axes: \"" + text + "\" is not a non-empty subset of \"xyz\" (each letter once)");
        symmetry.axes = *bits;
        if (value.contains("origin")) {
            const auto c = numbers<3>(value, "symmetry", "origin");
            symmetry.origin = glm::dvec3(c[0], c[1], c[2]);
        }
        return symmetry;
    }

    ToolStroke parseTool(const Json& value, const std::string& where) const {
        requireObject(value, where,
                      {"kind", "profile", "falloff", "inner_radius", "outer_radius", "stiffness",
                       "compressibility", "poses"});
        ToolStroke tool;
        parseShape(value, where, tool);
        tool.innerRadius = requiredNumber(value, where, "inner_radius");
        tool.outerRadius = requiredNumber(value, where, "outer_radius");
        tool.stiffness = optionalNumber(value, where, "stiffness", 1.0);
        tool.compressibility = optionalNumber(value, where, "compressibility", 0.5);
        const Json& poses = requireKey(value, where, "poses");
        const std::string posesWhere = join(where, "poses");
        if (!poses.is_array()) typeError(posesWhere, "an array", poses);
        for (size_t i = 0; i < poses.size(); ++i) {
            tool.poses.push_back(parsePose(poses[i], posesWhere + "[" + std::to_string(i) + "]"));
        }
        return tool;
    }

    Pose parsePose(const Json& value, const std::string& where) const {
        requireObject(value, where, {"position", "orientation", "scale", "time"});
        Pose pose;
        const auto p = numbers<3>(value, where, "position");
        const auto q = numbers<4>(value, where, "orientation");
        pose.position = glm::dvec3(p[0], p[1], p[2]);
        pose.orientation = glm::dquat(q[0], q[1], q[2], q[3]); // glm takes w first
        pose.scale = optionalNumber(value, where, "scale", 1.0);
        pose.time = requiredNumber(value, where, "time");
        return pose;
    }

    std::string source_;
};

std::string toJsonText(const Stroke& stroke) {
    using Ordered = nlohmann::ordered_json;
    Ordered tools = Ordered::array();
    for (const ToolStroke& tool : stroke.tools) {
        Ordered poses = Ordered::array();
        for (const Pose& pose : tool.poses) {
            const glm::dvec3& p = pose.position;
            const glm::dquat& q = pose.orientation;
            poses.push_back(Ordered{{"position", {p.x, p.y, p.z}},
                                    {"orientation", {q.w, q.x, q.y, q.z}},
                                    {"scale", pose.scale},
                                    {"time", pose.time}});
        }
        Ordered written{{"kind", std::string(toolKindName(tool.kind))}};
        if (kindTraits(tool.kind).profiled) written["profile"] = std::string(kelvinletProfileName(tool.profile));
        else written["falloff"] = std::string(falloffName(tool.falloff));
        written.update(Ordered{{"inner_radius", tool.innerRadius},
                                {"outer_radius", tool.outerRadius},
                                {"stiffness", tool.stiffness},
                                {"compressibility", tool.compressibility},
                                {"poses", std::move(poses)}});
        tools.push_back(std::move(written));
    }
    Ordered root{{"voxel_size", stroke.voxelSize}, {"tools", std::move(tools)}};
    if (stroke.symmetry.axes) {
        const glm::dvec3& c = stroke.symmetry.origin;
        root["symmetry"] = Ordered{{"axes", symmetryAxesName(stroke.symmetry.axes)}, {"origin", {c.x, c.y, c.z}}};
    }
    // nlohmann writes doubles in the shortest form that reads back exactly.
    return root.dump(2) + "\n";
}

// ---------------------------------------------------------------------------
// Recorded .bin

uint32_t loadU32(const std::string& bytes, uint64_t offset) {
    uint32_t value = 0;
    for (unsigned k = 0; k < 4; ++k) {
        value |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[offset + k])) << (8 * k);
    }
    return value;
}

double loadF32(const std::string& bytes, uint64_t offset) {
    return static_cast<double>(std::bit_cast<float>(loadU32(bytes, offset)));
}

} // namespace

std::optional<uint32_t> parseSymmetryAxes(std::string_view axes) {
    uint32_t bits = 0;
    for (char upper : axes) {
        const char c = char(std::tolower(static_cast<unsigned char>(upper))); // "X" is x
        const uint32_t bit = c == 'x' ? kSymmetryX : c == 'y' ? kSymmetryY : c == 'z' ? kSymmetryZ : 0u;
        if (!bit || (bits & bit)) return std::nullopt;
        bits |= bit;
    }
    if (!bits) return std::nullopt;
    return bits;
}

std::string symmetryAxesName(uint32_t axes) {
    std::string name;
    if (axes & kSymmetryX) name += 'x';
    if (axes & kSymmetryY) name += 'y';
    if (axes & kSymmetryZ) name += 'z';
    return name;
}

void validateStroke(const Stroke& stroke, const std::string& source) {
    checkStroke(stroke, source, FieldNaming{.innerWithinOuter = false});
}

Stroke readStrokeJson(const std::filesystem::path& path, const StrokeReadOptions& options) {
    return parseStrokeJson(detail::readWholeFile(path), path, options);
}

Stroke parseStrokeJson(const std::string& text, const std::filesystem::path& path, const StrokeReadOptions& options) {
    if (options.notes) *options.notes = {};
    const std::string source = path.string();
    Json root;
    try {
        root = Json::parse(text);
    } catch (const Json::exception& e) { // syntax errors, and numbers beyond double range
        strokeError(source, std::string("invalid JSON: ") + e.what());
    }
    Stroke stroke = JsonStrokeParser(source).parse(root);
    checkStroke(stroke, source, FieldNaming{.quaternionTolerance = kReadQuaternionNormTolerance});
    normaliseOrientations(stroke, source, true, options.notes);
    // JSON carries its own voxel size; the kind override applies to every tool.
    if (options.kindOverride)
        for (ToolStroke& tool : stroke.tools) setToolKind(tool, *options.kindOverride);
    if (options.notes) options.notes->voxelSizeDefaulted = !root.contains("voxel_size");
    return stroke;
}

Stroke readStrokeBin(const std::filesystem::path& path, const StrokeReadOptions& options) {
    return parseStrokeBin(detail::readWholeFile(path), path, options);
}

Stroke parseStrokeBin(const std::string& bytes, const std::filesystem::path& path,
                      const StrokeReadOptions& options) {
    if (options.notes) *options.notes = {};
    const std::string source = path.string();
    const uint64_t size = bytes.size();
    if (size < kBinHeaderBytes) {
        strokeError(source, "truncated: expected at least " + std::to_string(kBinHeaderBytes) +
                         " header bytes, file has " + std::to_string(size));
    }
    const uint32_t version = loadU32(bytes, 0);
    if (version != kBinVersion) {
        strokeError(source, "unsupported version " + std::to_string(version) + " (expected " +
                         std::to_string(kBinVersion) + ")");
    }
    const uint32_t poseCount = loadU32(bytes, 4);
    // 64-bit arithmetic: no pose count can overflow this, and nothing is allocated before it.
    const uint64_t expected = kBinHeaderBytes + kBinPoseBytes * poseCount + kBinTrailerBytes;
    const std::string sizes = "expected " + std::to_string(expected) + " bytes for " +
                              std::to_string(poseCount) + " poses, file has " + std::to_string(size);
    if (size < expected) strokeError(source, "truncated: " + sizes);
    if (size > expected) strokeError(source, std::to_string(size - expected) + " trailing bytes: " + sizes);

    ToolStroke tool;
    tool.poses.resize(poseCount);
    for (uint64_t i = 0; i < poseCount; ++i) {
        const uint64_t at = kBinHeaderBytes + kBinPoseBytes * i;
        const auto f = [&](uint64_t field) { return loadF32(bytes, at + 4 * field); };
        Pose& pose = tool.poses[i];
        pose.position = glm::dvec3(f(0), f(1), f(2));
        pose.orientation = glm::dquat(f(3), f(4), f(5), f(6)); // stored w, x, y, z
        pose.scale = f(7);
        pose.time = f(8);
    }
    const uint64_t trailer = expected - kBinTrailerBytes;
    tool.innerRadius = loadF32(bytes, trailer);
    tool.outerRadius = loadF32(bytes, trailer + 4);
    const uint32_t elastic = loadU32(bytes, trailer + 8);
    if (elastic > 1) {
        strokeError(source, "elastic flag " + std::to_string(elastic) + " is neither 0 (affine) nor 1 (kelvinlet)");
    }
    tool.kind = elastic == 1 ? ToolKind::Kelvinlet : ToolKind::Affine;
    tool.stiffness = loadF32(bytes, trailer + 12);
    tool.compressibility = loadF32(bytes, trailer + 16);
    if (options.kindOverride) setToolKind(tool, *options.kindOverride);

    Stroke stroke;
    stroke.voxelSize = options.binVoxelSize;
    stroke.tools.push_back(std::move(tool));
    checkStroke(stroke, source, FieldNaming{false, "voxel_size (binVoxelSize option)", kReadQuaternionNormTolerance});
    normaliseOrientations(stroke, source, false, options.notes);
    return stroke;
}

Stroke readStroke(const std::filesystem::path& path, const StrokeReadOptions& options) {
    const std::string ext = detail::lowerExtension(path);
    if (ext == ".bin") return readStrokeBin(path, options);
    if (ext != ".json") {
        strokeError(path.string(),
             "unknown stroke extension '" + path.extension().string() + "' (expected .json or .bin)");
    }
    return readStrokeJson(path, options);
}

void writeStrokeJson(const Stroke& stroke, const std::filesystem::path& path) {
    // Never write a file that the reader would refuse.
    checkStroke(stroke, path.string(), FieldNaming{});
    detail::writeFileAtomically(path, toJsonText(stroke));
}

} // namespace sculptflow
