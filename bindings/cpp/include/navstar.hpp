// SPDX-License-Identifier: MIT
//
// navstar.hpp: a header-only C++17 wrapper over the C ABI in navstar.h.
//
// It adds ownership and types, and nothing else: every call is one call into the C
// library, with the same meaning, the same status codes and the same messages.
//
//   navstar::Mesh mesh;
//   navstar::Result r = navstar::Mesh::create(vertices, indices, polygon_sizes, mesh);
//   if (!r) log("navstar: %s (%s)", r.message().c_str(), r.status_name());
//   navstar::Query query;                    // one per thread; the mesh is shared
//   r = navstar::Query::create(mesh, query);
//   std::vector<navstar::Vec3> path;         // reused from call to call: no allocation
//   r = query.find_path({1, 0, 1}, {7, 0, 3}, path);   // in steady state
//
// * No exceptions and no RTTI: builds with -fno-exceptions -fno-rtti (failures are
//   returned as navstar::Result, which carries the status and the library's message).
// * Mesh and Query are move-only RAII owners of NavstarMesh* / NavstarQuery*.
// * Paths go into a caller's buffer (Span<Vec3>, never allocates) or a std::vector that
//   grows when needed and is reused.
// * Threading is the C library's: a Mesh may be used by any number of threads at once,
//   a Query by one thread at a time. A Query keeps its mesh alive by itself.
#ifndef NAVSTAR_HPP
#define NAVSTAR_HPP

#include "navstar.h"

#if defined(_MSVC_LANG)
#if _MSVC_LANG < 201703L
#error "navstar.hpp needs C++17 (/std:c++17 or later)"
#endif
#elif __cplusplus < 201703L
#error "navstar.hpp needs C++17 (-std=c++17 or later)"
#endif

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace navstar {

// ---------------------------------------------------------------------------------
// Status and Result

// The C status codes (NAVSTAR_*), as a scoped enum.
enum class Status : std::int32_t {
    ok = NAVSTAR_OK,
    partial_path = NAVSTAR_PARTIAL_PATH,
    buffer_too_small = NAVSTAR_BUFFER_TOO_SMALL,
    error_null_argument = NAVSTAR_ERROR_NULL_ARGUMENT,
    error_invalid_argument = NAVSTAR_ERROR_INVALID_ARGUMENT,
    error_invalid_mesh = NAVSTAR_ERROR_INVALID_MESH,
    error_not_on_mesh = NAVSTAR_ERROR_NOT_ON_MESH,
    error_no_path = NAVSTAR_ERROR_NO_PATH,
    error_out_of_memory = NAVSTAR_ERROR_OUT_OF_MEMORY,
    error_internal = NAVSTAR_ERROR_INTERNAL,
};

// "NAVSTAR_OK", "NAVSTAR_ERROR_INVALID_MESH", ... (static strings, never NULL).
inline const char *status_name(Status status) noexcept {
    return navstar_status_name(static_cast<std::int32_t>(status));
}

// The outcome of a call: the status, and for errors the library's message (copied, so
// it stays valid after later navstar calls).
//
// * ok():       the call did all that was asked: a mesh or query was made, or a whole
//               path (complete, or partial to the closest reachable point) was written.
// * is_error(): the status is negative; message() says why, naming the culprit.
// * Neither:    Status::buffer_too_small, from find_path into a fixed buffer; the count
//               says how many points the whole path has.
class [[nodiscard]] Result {
   public:
    Result() noexcept = default;
    Result(Status status, std::string message) noexcept : status_(status), message_(std::move(message)) {}

    // Wraps a raw status, copying the thread's last error message when it is an error.
    static Result from_c(NavstarStatus status) {
        const Status s = static_cast<Status>(status);
        if (status < 0) {
            return Result(s, std::string(navstar_last_error_message()));
        }
        return Result(s, std::string());
    }

    Status status() const noexcept { return status_; }
    bool ok() const noexcept { return status_ == Status::ok || status_ == Status::partial_path; }
    bool is_error() const noexcept { return static_cast<std::int32_t>(status_) < 0; }
    bool partial() const noexcept { return status_ == Status::partial_path; }
    explicit operator bool() const noexcept { return ok(); }
    // "" unless is_error().
    const std::string &message() const noexcept { return message_; }
    const char *status_name() const noexcept { return navstar::status_name(status_); }

   private:
    Status status_ = Status::ok;
    std::string message_;
};

// ---------------------------------------------------------------------------------
// Plain data

// A point, laid out as the C ABI's three floats.
struct Vec3 {
    float x;
    float y;
    float z;
};
static_assert(sizeof(Vec3) == 3 * sizeof(float), "navstar::Vec3 must be three packed floats");
static_assert(std::is_standard_layout<Vec3>::value && std::is_trivially_copyable<Vec3>::value,
              "navstar::Vec3 must be plain data");

// A non-owning view of contiguous elements (C++17 has no std::span): built from a
// pointer and a count, a C array, or any container with std::data/std::size
// (std::vector, std::array, ...). `{}` is an empty Span. (No braced lists: a Span
// would outlive their storage; name an std::array instead.)
template <class T>
class Span {
    template <class C>
    using data_type = std::remove_pointer_t<decltype(std::data(std::declval<C &>()))>;
    template <class C>
    using enable_if_container =
        std::enable_if_t<!std::is_same<std::decay_t<C>, Span>::value &&
                         std::is_convertible<data_type<C> (*)[], T (*)[]>::value>;

   public:
    constexpr Span() noexcept = default;
    constexpr Span(T *data, std::size_t size) noexcept : data_(data), size_(size) {}
    template <class C, class = enable_if_container<C>>
    constexpr Span(C &&container) noexcept : data_(std::data(container)), size_(std::size(container)) {}

    constexpr T *data() const noexcept { return data_; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr T &operator[](std::size_t i) const noexcept { return data_[i]; }

   private:
    T *data_ = nullptr;
    std::size_t size_ = 0;
};

// NavstarMeshOptions::up_axis.
enum class UpAxis : std::uint32_t {
    y = NAVSTAR_UP_Y,  // Detour, Unity, Godot (the default)
    z = NAVSTAR_UP_Z,  // Unreal, 2D games passing z = 0
};

// NavstarPathOptions::strategy.
enum class SearchStrategy : std::uint32_t {
    astar = NAVSTAR_SEARCH_ASTAR,
};

// Mesh options, starting from the library's defaults. Setters chain:
//   navstar::MeshOptions().set_up_axis(navstar::UpAxis::z).set_weld_distance(0.01f)
class MeshOptions {
   public:
    MeshOptions() noexcept : raw_(navstar_mesh_options_default()) {}
    explicit MeshOptions(const NavstarMeshOptions &raw) noexcept : raw_(raw) {}

    UpAxis up_axis() const noexcept { return static_cast<UpAxis>(raw_.up_axis); }
    MeshOptions &set_up_axis(UpAxis axis) noexcept {
        raw_.up_axis = static_cast<std::uint32_t>(axis);
        return *this;
    }
    // Merge vertices within weld_distance() before finding shared edges (default on).
    bool weld_vertices() const noexcept { return raw_.weld_vertices != 0; }
    MeshOptions &set_weld_vertices(bool weld) noexcept {
        raw_.weld_vertices = weld ? 1u : 0u;
        return *this;
    }
    // World units; default 0 (only exactly coincident vertices).
    float weld_distance() const noexcept { return raw_.weld_distance; }
    MeshOptions &set_weld_distance(float distance) noexcept {
        raw_.weld_distance = distance;
        return *this;
    }

    const NavstarMeshOptions &raw() const noexcept { return raw_; }
    NavstarMeshOptions &raw() noexcept { return raw_; }

   private:
    NavstarMeshOptions raw_;
};

// Path options, starting from the library's defaults (A*, weight 1, unlimited
// snapping, partial paths allowed).
class PathOptions {
   public:
    PathOptions() noexcept : raw_(navstar_path_options_default()) {}
    explicit PathOptions(const NavstarPathOptions &raw) noexcept : raw_(raw) {}

    SearchStrategy strategy() const noexcept { return static_cast<SearchStrategy>(raw_.strategy); }
    PathOptions &set_strategy(SearchStrategy strategy) noexcept {
        raw_.strategy = static_cast<std::uint32_t>(strategy);
        return *this;
    }
    // Multiplies the A* heuristic; above 1 is faster and may give longer paths.
    float heuristic_weight() const noexcept { return raw_.heuristic_weight; }
    PathOptions &set_heuristic_weight(float weight) noexcept {
        raw_.heuristic_weight = weight;
        return *this;
    }
    // How far start and goal may be from the mesh (default: infinity).
    float max_snap_distance() const noexcept { return raw_.max_snap_distance; }
    PathOptions &set_max_snap_distance(float distance) noexcept {
        raw_.max_snap_distance = distance;
        return *this;
    }
    // true (default): an unreachable goal gives Status::partial_path; false: an error.
    bool allow_partial() const noexcept { return raw_.allow_partial != 0; }
    PathOptions &set_allow_partial(bool allow) noexcept {
        raw_.allow_partial = allow ? 1u : 0u;
        return *this;
    }
    // false (default): A* and the funnel; true: the exact shortest path (NAVSTAR_PATH_OPTIMAL).
    bool optimal() const noexcept { return raw_.mode == NAVSTAR_PATH_OPTIMAL; }
    PathOptions &set_optimal(bool optimal) noexcept {
        raw_.mode = optimal ? NAVSTAR_PATH_OPTIMAL : NAVSTAR_PATH_FUNNEL;
        return *this;
    }

    const NavstarPathOptions &raw() const noexcept { return raw_; }
    NavstarPathOptions &raw() noexcept { return raw_; }

   private:
    NavstarPathOptions raw_;
};

// (major << 16) | (minor << 8) | patch of the library that is linked.
inline std::uint32_t version() noexcept { return navstar_version(); }

// "0.1.0"
inline std::string version_string() {
    const std::uint32_t v = navstar_version();
    return std::to_string(v >> 16) + "." + std::to_string((v >> 8) & 0xffu) + "." + std::to_string(v & 0xffu);
}

namespace detail {

// Errors the wrapper finds itself, where a container's size does not match what the C
// call would read. Same status codes and message style as the library's.
inline Result argument_error(const char *function, const std::string &what) {
    return Result(Status::error_invalid_argument, std::string(function) + ": " + what);
}

constexpr std::size_t max_u32 = std::numeric_limits<std::uint32_t>::max();

}  // namespace detail

// ---------------------------------------------------------------------------------
// Mesh

// An immutable navigation mesh (owns a NavstarMesh*). Move-only; may be used by any
// number of threads at once. Empty (false) when default-constructed or after a failed
// create.
class Mesh {
   public:
    Mesh() noexcept = default;
    // Takes ownership of a mesh made by the C API (NULL gives an empty Mesh).
    explicit Mesh(NavstarMesh *raw) noexcept : raw_(raw) {}
    ~Mesh() { reset(); }
    Mesh(Mesh &&other) noexcept : raw_(other.release()) {}
    Mesh &operator=(Mesh &&other) noexcept {
        if (this != &other) {
            reset(other.release());
        }
        return *this;
    }
    Mesh(const Mesh &) = delete;
    Mesh &operator=(const Mesh &) = delete;

    // Builds a mesh from vertices and convex polygons (navstar_mesh_create).
    // polygon_sizes empty: every polygon is a triangle (indices.size() a multiple of 3);
    // otherwise polygon i has polygon_sizes[i] corners and the sizes sum to
    // indices.size(). options NULL: defaults. On error `out` is left empty.
    static Result create(Span<const Vec3> vertices, Span<const std::uint32_t> indices,
                         Span<const std::uint32_t> polygon_sizes, Mesh &out, const MeshOptions *options = nullptr) {
        return create_xyz(reinterpret_cast<const float *>(vertices.data()), vertices.size(), indices, polygon_sizes,
                          out, options);
    }
    // As above, with vertices as flat x, y, z floats (xyz.size() a multiple of 3).
    static Result create(Span<const float> xyz, Span<const std::uint32_t> indices,
                         Span<const std::uint32_t> polygon_sizes, Mesh &out, const MeshOptions *options = nullptr) {
        if (xyz.size() % 3 != 0) {
            out.reset();
            return detail::argument_error("navstar::Mesh::create",
                                          "xyz has " + std::to_string(xyz.size()) + " floats, not a multiple of 3");
        }
        return create_xyz(xyz.data(), xyz.size() / 3, indices, polygon_sizes, out, options);
    }

    // Builds a mesh from a tile grid (navstar_mesh_create_from_grid): cells.size() must
    // be width * height, non-zero cells are walkable, cell (x, y) is cells[y * width + x].
    static Result create_from_grid(Span<const std::uint8_t> cells, std::uint32_t width, std::uint32_t height,
                                   float cell_size, const Vec3 &origin, Mesh &out,
                                   const MeshOptions *options = nullptr) {
        out.reset();
        if (static_cast<std::uint64_t>(width) * height != cells.size()) {
            return detail::argument_error("navstar::Mesh::create_from_grid",
                                          "cells has " + std::to_string(cells.size()) + " entries; width * height is " +
                                              std::to_string(static_cast<std::uint64_t>(width) * height));
        }
        const float corner[3] = {origin.x, origin.y, origin.z};
        NavstarMesh *raw = nullptr;
        const NavstarStatus status = navstar_mesh_create_from_grid(cells.data(), width, height, cell_size, corner,
                                                                   options ? &options->raw() : nullptr, &raw);
        Result result = Result::from_c(status);
        out.reset(raw);
        return result;
    }

    explicit operator bool() const noexcept { return raw_ != nullptr; }
    // 0 for an empty Mesh.
    std::uint32_t polygon_count() const noexcept { return navstar_mesh_polygon_count(raw_); }

    NavstarMesh *get() const noexcept { return raw_; }
    NavstarMesh *release() noexcept {
        NavstarMesh *raw = raw_;
        raw_ = nullptr;
        return raw;
    }
    void reset(NavstarMesh *raw = nullptr) noexcept {
        NavstarMesh *old = raw_;
        raw_ = raw;
        navstar_mesh_free(old);  // NULL does nothing
    }

   private:
    static Result create_xyz(const float *xyz, std::size_t vertex_count, Span<const std::uint32_t> indices,
                             Span<const std::uint32_t> polygon_sizes, Mesh &out, const MeshOptions *options) {
        out.reset();
        const char *function = "navstar::Mesh::create";
        if (vertex_count >= detail::max_u32) {
            return detail::argument_error(function, std::to_string(vertex_count) + " vertices is too many");
        }
        std::size_t polygon_count = 0;
        if (polygon_sizes.empty()) {
            if (indices.size() % 3 != 0) {
                return detail::argument_error(function, "indices has " + std::to_string(indices.size()) +
                                                            " entries, not a multiple of 3 (triangles)");
            }
            polygon_count = indices.size() / 3;
        } else {
            // The C call reads sum(polygon_sizes) indices: make sure they are there.
            std::uint64_t sum = 0;
            for (std::size_t i = 0; i < polygon_sizes.size(); i++) {
                sum += polygon_sizes[i];
            }
            if (sum != indices.size()) {
                return detail::argument_error(function, "polygon_sizes add up to " + std::to_string(sum) +
                                                            " corners but indices has " +
                                                            std::to_string(indices.size()) + " entries");
            }
            polygon_count = polygon_sizes.size();
        }
        if (polygon_count > detail::max_u32) {
            return detail::argument_error(function, std::to_string(polygon_count) + " polygons is too many");
        }
        NavstarMesh *raw = nullptr;
        const NavstarStatus status = navstar_mesh_create(
            xyz, static_cast<std::uint32_t>(vertex_count), indices.data(),
            polygon_sizes.empty() ? nullptr : polygon_sizes.data(), static_cast<std::uint32_t>(polygon_count),
            options ? &options->raw() : nullptr, &raw);
        Result result = Result::from_c(status);  // before any other navstar call
        out.reset(raw);
        return result;
    }

    NavstarMesh *raw_ = nullptr;
};

// ---------------------------------------------------------------------------------
// Query

// Per-thread path-finding state over one mesh (owns a NavstarQuery*). Move-only; use it
// from one thread at a time (make one per thread). It holds its own reference to the
// mesh, so the Mesh may be destroyed first.
class Query {
   public:
    Query() noexcept = default;
    // Takes ownership of a query made by the C API (NULL gives an empty Query).
    explicit Query(NavstarQuery *raw) noexcept : raw_(raw) {}
    ~Query() { reset(); }
    Query(Query &&other) noexcept : raw_(other.release()) {}
    Query &operator=(Query &&other) noexcept {
        if (this != &other) {
            reset(other.release());
        }
        return *this;
    }
    Query(const Query &) = delete;
    Query &operator=(const Query &) = delete;

    // navstar_query_create. An empty mesh gives Status::error_null_argument.
    static Result create(const Mesh &mesh, Query &out) {
        out.reset();
        NavstarQuery *raw = nullptr;
        const NavstarStatus status = navstar_query_create(mesh.get(), &raw);
        Result result = Result::from_c(status);
        out.reset(raw);
        return result;
    }

    // Finds a path into a caller's buffer; never allocates. `count` receives the number
    // of points of the whole path. When it exceeds out.size() the first out.size()
    // points are written and the status is Status::buffer_too_small (not ok(), not an
    // error). An empty `out` asks for the count alone. options NULL: defaults.
    Result find_path(const Vec3 &start, const Vec3 &goal, Span<Vec3> out, std::uint32_t &count,
                     const PathOptions *options = nullptr) {
        const std::uint32_t capacity = static_cast<std::uint32_t>(out.size() < detail::max_u32 ? out.size()
                                                                                               : detail::max_u32);
        return call(start, goal, options, capacity == 0 ? nullptr : reinterpret_cast<float *>(out.data()), capacity,
                    count);
    }

    // As above, into flat x, y, z floats (room for xyz.size() / 3 points).
    Result find_path(const Vec3 &start, const Vec3 &goal, Span<float> xyz, std::uint32_t &count,
                     const PathOptions *options = nullptr) {
        const std::size_t points = xyz.size() / 3;
        const std::uint32_t capacity = static_cast<std::uint32_t>(points < detail::max_u32 ? points : detail::max_u32);
        return call(start, goal, options, capacity == 0 ? nullptr : xyz.data(), capacity, count);
    }

    // Finds a path into a vector, which ends up holding exactly the path's points (none
    // after an error). Its capacity is reused, so once it is large enough the call does
    // not allocate; it grows (and the search runs again) only when the path does not fit.
    Result find_path(const Vec3 &start, const Vec3 &goal, std::vector<Vec3> &out,
                     const PathOptions *options = nullptr) {
        out.resize(out.capacity());  // offer all the room the vector already has
        for (;;) {
            std::uint32_t count = 0;
            const std::uint32_t capacity =
                static_cast<std::uint32_t>(out.size() < detail::max_u32 ? out.size() : detail::max_u32);
            Result result = call(start, goal, options, capacity == 0 ? nullptr : reinterpret_cast<float *>(out.data()),
                                 capacity, count);
            if (result.status() == Status::buffer_too_small && count > capacity) {
                out.resize(count);
                continue;
            }
            out.resize(result.is_error() ? 0 : count);
            return result;
        }
    }

    explicit operator bool() const noexcept { return raw_ != nullptr; }
    NavstarQuery *get() const noexcept { return raw_; }
    NavstarQuery *release() noexcept {
        NavstarQuery *raw = raw_;
        raw_ = nullptr;
        return raw;
    }
    void reset(NavstarQuery *raw = nullptr) noexcept {
        NavstarQuery *old = raw_;
        raw_ = raw;
        navstar_query_free(old);  // NULL does nothing
    }

   private:
    Result call(const Vec3 &start, const Vec3 &goal, const PathOptions *options, float *out, std::uint32_t capacity,
                std::uint32_t &count) {
        const float from[3] = {start.x, start.y, start.z};
        const float to[3] = {goal.x, goal.y, goal.z};
        return Result::from_c(
            navstar_find_path(raw_, from, to, options ? &options->raw() : nullptr, out, capacity, &count));
    }

    NavstarQuery *raw_ = nullptr;
};

}  // namespace navstar

#endif  // NAVSTAR_HPP
