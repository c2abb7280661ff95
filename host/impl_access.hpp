// The library's way into the Impl of its public classes, and the tests' way to
// their internals. The installed headers only befriend ImplAccess, so no
// installed header hands out an Impl.
#pragma once

namespace sculptflow {

struct ImplAccess {
    template <typename Public>
    static typename Public::Impl& of(const Public& object) { return *object.impl_; }
};

// The Impl of a Context, GpuMesh, GpuSolver or LiveMove.
template <typename Public>
typename Public::Impl& implOf(const Public& object) { return ImplAccess::of(object); }

} // namespace sculptflow
