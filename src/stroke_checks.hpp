// The invariants every stroke reader and writer enforces (validateStroke is
// their public form), and the readers' normalising of quaternions a little off
// unit length. Internal: stroke_io.cpp's readers and writer use them.
#pragma once

#include <string>

#include <sculptflow/stroke.hpp>

namespace sculptflow::detail {

// A stroke built in code must be unit to 1e-3 (validateStroke); a file may be off by
// up to 1e-2 (float rounding in an exporter, a hand edit), and the readers then
// normalise it with a warning in StrokeReadNotes::warnings rather than refuse it.
inline constexpr double kQuaternionNormTolerance = 1e-3;
inline constexpr double kReadQuaternionNormTolerance = 1e-2;

// How field paths are spelled: JSON strokes say "tools[0].poses[3].time"; a .bin file
// holds one tool, so its messages say "poses[3].time" and name the voxel-size option.
struct FieldNaming {
    bool indexTools = true;
    std::string voxelSize = "voxel_size";
    double quaternionTolerance = kQuaternionNormTolerance;
    // Files (read or written) refuse inner_radius > outer_radius; a stroke built in
    // code may have it (validateStroke), and the solver clamps it (spec §3.1).
    bool innerWithinOuter = true;
};

// Throws sculptflow::Error "source: what".
[[noreturn]] void strokeError(const std::string& source, const std::string& what);
// Shortest text that reads back as the same double, so messages show real differences.
std::string formatNumber(double value);

// Throws sculptflow::Error naming `source` and the first field that breaks an invariant.
void checkStroke(const Stroke& stroke, const std::string& source, const FieldNaming& naming);

// Readers normalise after validating (validateStroke only checks). Quaternions already
// unit to within rounding are left as they are, so reading a written stroke gives back
// exactly the same numbers.
// One warning names the first pose off by more than kQuaternionNormTolerance and
// how many there were.
void normaliseOrientations(Stroke& stroke, const std::string& source, bool indexTools, StrokeReadNotes* notes);

} // namespace sculptflow::detail
