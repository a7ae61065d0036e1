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
// * Mesh, Query and World are move-only RAII owners of NavstarMesh* / NavstarQuery* /
//   NavstarWorld*.
// * Paths go into a caller's buffer (Span<Vec3>, never allocates) or a std::vector that
//   grows when needed and is reused.
// * Threading is the C library's: a Mesh may be used by any number of threads at once,
//   a Query by one thread at a time. A Query keeps its mesh alive by itself. A World
//   may be used by any number of threads; its snapshots are Meshes.
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
#include <cstdio>
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
    partial_node_limit = NAVSTAR_PARTIAL_NODE_LIMIT,
    error_null_argument = NAVSTAR_ERROR_NULL_ARGUMENT,
    error_invalid_argument = NAVSTAR_ERROR_INVALID_ARGUMENT,
    error_invalid_mesh = NAVSTAR_ERROR_INVALID_MESH,
    error_not_on_mesh = NAVSTAR_ERROR_NOT_ON_MESH,
    error_no_path = NAVSTAR_ERROR_NO_PATH,
    error_out_of_memory = NAVSTAR_ERROR_OUT_OF_MEMORY,
    error_stale_reference = NAVSTAR_ERROR_STALE_REFERENCE,
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
//               A partial path is partial(); node_limit() when the query's node limit
//               (QueryOptions::set_max_nodes) cut the search, so the goal may be reachable.
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
    bool ok() const noexcept { return status_ == Status::ok || partial(); }
    bool is_error() const noexcept { return static_cast<std::int32_t>(status_) < 0; }
    bool partial() const noexcept { return status_ == Status::partial_path || node_limit(); }
    bool node_limit() const noexcept { return status_ == Status::partial_node_limit; }
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

// The file formats Mesh::load reads (NAVSTAR_FORMAT_*). `automatic` (paths only) tells
// the format by the extension: .obj, .mesh, .map, .navstar or .bin (Detour), any case.
enum class MeshFormat : std::uint32_t {
    automatic = NAVSTAR_FORMAT_AUTO,
    obj = NAVSTAR_FORMAT_OBJ,                    // Wavefront OBJ, built with the options' up axis
    polyanya_mesh = NAVSTAR_FORMAT_POLYANYA_MESH,  // Polyanya .mesh v2/v3, 2D: built Z up, z = 0
    movingai_map = NAVSTAR_FORMAT_MOVINGAI_MAP,    // Moving AI grid map, 2D: built Z up, z = 0
    navstar = NAVSTAR_FORMAT_NAVSTAR,              // navstar's binary format; options ignored
    detour = NAVSTAR_FORMAT_DETOUR,                // Recast/Detour tile data or tile set: built Y up
};

// NavstarPathOptions::strategy (see NAVSTAR_SEARCH_* in navstar.h for what each
// guarantees): A* (weighted with heuristic_weight > 1), Dijkstra, greedy best-first,
// breadth-first, depth-first.
enum class SearchStrategy : std::uint32_t {
    astar = NAVSTAR_SEARCH_ASTAR,
    dijkstra = NAVSTAR_SEARCH_DIJKSTRA,
    greedy = NAVSTAR_SEARCH_GREEDY,
    breadth_first = NAVSTAR_SEARCH_BREADTH_FIRST,
    depth_first = NAVSTAR_SEARCH_DEPTH_FIRST,
};

// Which polygons and off-mesh links a query may use, and the cost of each area (a plain
// value; see NavstarQueryFilter). Defaults: every area costs 1, any non-zero flags pass.
class QueryFilter {
   public:
    QueryFilter() noexcept : raw_(navstar_query_filter_default()) {}
    // Walking a unit of length in `area` (below NAVSTAR_MAX_AREAS) costs `cost` (> 0).
    // An area id out of range is ignored here and left to the library's defaults.
    QueryFilter &set_area_cost(std::uint32_t area, float cost) noexcept {
        if (area < NAVSTAR_MAX_AREAS) {
            raw_.area_costs[area] = cost;
        }
        return *this;
    }
    // Items must have a flag in `include` and none in `exclude`.
    QueryFilter &set_include_flags(std::uint32_t include) noexcept {
        raw_.include_flags = include;
        return *this;
    }
    QueryFilter &set_exclude_flags(std::uint32_t exclude) noexcept {
        raw_.exclude_flags = exclude;
        return *this;
    }
    const NavstarQueryFilter &raw() const noexcept { return raw_; }

   private:
    NavstarQueryFilter raw_;
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
    // Accept degenerate connectors: zero-area triangles (three corners on one line)
    // that join the polygons along their edges as a walkable line (default off).
    bool allow_degenerate_connectors() const noexcept { return raw_.allow_degenerate_connectors != 0; }
    MeshOptions &set_allow_degenerate_connectors(bool allow) noexcept {
        raw_.allow_degenerate_connectors = allow ? 1u : 0u;
        return *this;
    }
    // The radius of the agent the mesh was baked for (world units, default 0); path
    // queries erode the mesh by what their agent_radius exceeds it by.
    float agent_radius() const noexcept { return raw_.agent_radius; }
    MeshOptions &set_agent_radius(float radius) noexcept {
        raw_.agent_radius = radius;
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
    // NAVSTAR_PATH_AUTO (default: the exact shortest path wherever it answers what was
    // asked, A* and the funnel otherwise), NAVSTAR_PATH_FUNNEL or NAVSTAR_PATH_OPTIMAL.
    uint32_t mode() const noexcept { return raw_.mode; }
    PathOptions &set_mode(uint32_t mode) noexcept {
        raw_.mode = mode;
        return *this;
    }
    // true: always the exact shortest path (NAVSTAR_PATH_OPTIMAL); false: always A* and
    // the funnel (NAVSTAR_PATH_FUNNEL).
    bool optimal() const noexcept { return raw_.mode == NAVSTAR_PATH_OPTIMAL; }
    PathOptions &set_optimal(bool optimal) noexcept {
        raw_.mode = optimal ? NAVSTAR_PATH_OPTIMAL : NAVSTAR_PATH_FUNNEL;
        return *this;
    }

    // The query filter, or nullptr for the default. The options keep a pointer to it:
    // the filter must outlive every call made with these options.
    PathOptions &set_filter(const QueryFilter *filter) noexcept {
        raw_.filter = filter ? &filter->raw() : nullptr;
        return *this;
    }
    // Add a corner (flag NAVSTAR_CORNER_AREA_CHANGE) where the path enters another area.
    PathOptions &set_split_at_area_changes(bool split) noexcept {
        raw_.split_at_area_changes = split ? 1u : 0u;
        return *this;
    }
    // The agent's radius (world units, default 0: a point). Above the mesh's baked
    // radius, paths keep this distance from every wall, start and goal move to where
    // the disc fits, and a path exists exactly when the disc can pass (the mesh's eroded
    // copy for the radius is built on the first such query and kept).
    float agent_radius() const noexcept { return raw_.agent_radius; }
    PathOptions &set_agent_radius(float radius) noexcept {
        raw_.agent_radius = radius;
        return *this;
    }

    const NavstarPathOptions &raw() const noexcept { return raw_; }
    NavstarPathOptions &raw() noexcept { return raw_; }

   private:
    NavstarPathOptions raw_;
};

// Query options, starting from the library's defaults (no node limit).
class QueryOptions {
   public:
    QueryOptions() noexcept : raw_(navstar_query_options_default()) {}
    explicit QueryOptions(const NavstarQueryOptions &raw) noexcept : raw_(raw) {}

    // The most search nodes each search may touch (Detour's maxNodes); 0 (default): no
    // limit. A search the limit cuts gives Status::partial_node_limit. Nothing is
    // allocated up front, whatever the value.
    std::uint32_t max_nodes() const noexcept { return raw_.max_nodes; }
    QueryOptions &set_max_nodes(std::uint32_t max_nodes) noexcept {
        raw_.max_nodes = max_nodes;
        return *this;
    }

    const NavstarQueryOptions &raw() const noexcept { return raw_; }
    NavstarQueryOptions &raw() noexcept { return raw_; }

   private:
    NavstarQueryOptions raw_;
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

// Calls `call(data, capacity, count)` with all the room `out` has, grows `out` and
// calls again when the answer did not fit, and leaves `out` holding exactly the answer
// (nothing after an error).
template <class T, class Call>
Result fill(std::vector<T> &out, Call call) {
    out.resize(out.capacity());
    for (;;) {
        std::uint32_t count = 0;
        const std::uint32_t capacity = static_cast<std::uint32_t>(out.size() < max_u32 ? out.size() : max_u32);
        Result result = Result::from_c(call(capacity == 0 ? nullptr : out.data(), capacity, count));
        if (result.status() == Status::buffer_too_small && count > capacity) {
            out.resize(count);
            continue;
        }
        out.resize(result.is_error() ? 0 : count);
        return result;
    }
}

// Writes `bytes` to the file `path` (replaced if it exists), for the save_file methods:
// a NULL path is Status::error_null_argument, a file that cannot be written
// Status::error_invalid_argument.
inline Result write_file(const char *function, const char *path, const std::vector<std::uint8_t> &bytes) {
    if (path == nullptr) {
        return Result(Status::error_null_argument, std::string(function) + ": path is NULL");
    }
    std::FILE *file = std::fopen(path, "wb");
    if (file == nullptr) {
        return argument_error(function, std::string("cannot open '") + path + "' for writing");
    }
    const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
    const bool closed = std::fclose(file) == 0;
    if (!written || !closed) {
        return argument_error(function, std::string("cannot write '") + path + "'");
    }
    return Result();
}

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

    // ---- Areas, flags and off-mesh links

    // Builds a mesh with per-polygon areas and flags and off-mesh links
    // (navstar_mesh_create_ex). `areas` and `flags` are empty (defaults: area 0, flags 1)
    // or hold one entry per polygon; links start from navstar_off_mesh_link_default().
    static Result create(Span<const Vec3> vertices, Span<const std::uint32_t> indices,
                         Span<const std::uint32_t> polygon_sizes, Span<const std::uint8_t> areas,
                         Span<const std::uint32_t> flags, Span<const NavstarOffMeshLink> links, Mesh &out,
                         const MeshOptions *options = nullptr) {
        out.reset();
        const char *function = "navstar::Mesh::create";
        std::uint64_t corners = 0;
        for (std::size_t i = 0; i < polygon_sizes.size(); i++) {
            corners += polygon_sizes[i];
        }
        const std::size_t polygons = polygon_sizes.empty() ? indices.size() / 3 : polygon_sizes.size();
        if (polygon_sizes.empty() ? indices.size() % 3 != 0 : corners != indices.size()) {
            return detail::argument_error(function, "indices has " + std::to_string(indices.size()) +
                                                        " entries, which the polygon sizes do not add up to");
        }
        if ((!areas.empty() && areas.size() != polygons) || (!flags.empty() && flags.size() != polygons)) {
            return detail::argument_error(function, "areas and flags need one entry per polygon (" +
                                                        std::to_string(polygons) + ")");
        }
        if (vertices.size() >= detail::max_u32 || polygons > detail::max_u32 || links.size() > detail::max_u32) {
            return detail::argument_error(function, "too many vertices, polygons or links");
        }
        NavstarMeshInput input = navstar_mesh_input_default();
        input.vertices = reinterpret_cast<const float *>(vertices.data());
        input.vertex_count = static_cast<std::uint32_t>(vertices.size());
        input.indices = indices.data();
        input.polygon_sizes = polygon_sizes.empty() ? nullptr : polygon_sizes.data();
        input.polygon_count = static_cast<std::uint32_t>(polygons);
        input.areas = areas.empty() ? nullptr : areas.data();
        input.flags = flags.empty() ? nullptr : flags.data();
        input.links = links.empty() ? nullptr : links.data();
        input.link_count = static_cast<std::uint32_t>(links.size());
        NavstarMesh *raw = nullptr;
        const NavstarStatus status = navstar_mesh_create_ex(&input, options ? &options->raw() : nullptr, &raw);
        Result result = Result::from_c(status);
        out.reset(raw);
        return result;
    }

    // ---- Loading files in any format (navstar_mesh_load, navstar_mesh_load_bytes)

    // Loads a mesh from the file `path` in `format` (MeshFormat::automatic: by the
    // extension). On error `out` is left empty and the message names the file and, for
    // malformed text, the line ("'level.obj': line 7: ..."): an unreadable file or an
    // unknown extension is Status::error_invalid_argument, a refused one
    // Status::error_invalid_mesh.
    static Result load(const char *path, Mesh &out, MeshFormat format = MeshFormat::automatic,
                       const MeshOptions *options = nullptr) {
        out.reset();
        NavstarMesh *raw = nullptr;
        Result result = Result::from_c(navstar_mesh_load(path, static_cast<std::uint32_t>(format),
                                                         options ? &options->raw() : nullptr, &raw));
        out.reset(raw);
        return result;
    }
    // Loads a mesh from the bytes of a file in `format` (not automatic); the bytes are
    // not used after the call.
    static Result load(Span<const std::uint8_t> bytes, MeshFormat format, Mesh &out,
                       const MeshOptions *options = nullptr) {
        out.reset();
        if (bytes.size() > detail::max_u32) {
            return detail::argument_error("navstar::Mesh::load", "more than 4 GiB of bytes");
        }
        NavstarMesh *raw = nullptr;
        Result result = Result::from_c(navstar_mesh_load_bytes(bytes.data(), static_cast<std::uint32_t>(bytes.size()),
                                                               static_cast<std::uint32_t>(format),
                                                               options ? &options->raw() : nullptr, &raw));
        out.reset(raw);
        return result;
    }
    // The same, one per format, for files.
    static Result load_obj(const char *path, Mesh &out, const MeshOptions *options = nullptr) {
        return load(path, out, MeshFormat::obj, options);
    }
    static Result load_polyanya_mesh(const char *path, Mesh &out, const MeshOptions *options = nullptr) {
        return load(path, out, MeshFormat::polyanya_mesh, options);
    }
    static Result load_movingai_map(const char *path, Mesh &out, const MeshOptions *options = nullptr) {
        return load(path, out, MeshFormat::movingai_map, options);
    }

    // ---- The binary format (.navstar): save once, load fast

    // Loads a mesh saved by save() or `navstar save` from the file `path`
    // (navstar_mesh_load_navstar). On error `out` is left empty: an unreadable file is
    // Status::error_invalid_argument, a refused one Status::error_invalid_mesh.
    static Result load_file(const char *path, Mesh &out) {
        out.reset();
        NavstarMesh *raw = nullptr;
        Result result = Result::from_c(navstar_mesh_load_navstar(path, &raw));
        out.reset(raw);
        return result;
    }
    // Loads a saved mesh from bytes (navstar_mesh_load_navstar_bytes); the bytes are
    // not used after the call.
    static Result load_bytes(Span<const std::uint8_t> bytes, Mesh &out) {
        out.reset();
        if (bytes.size() > detail::max_u32) {
            return detail::argument_error("navstar::Mesh::load_bytes", "more than 4 GiB of bytes");
        }
        NavstarMesh *raw = nullptr;
        Result result = Result::from_c(
            navstar_mesh_load_navstar_bytes(bytes.data(), static_cast<std::uint32_t>(bytes.size()), &raw));
        out.reset(raw);
        return result;
    }
    // Saves the mesh into a caller's buffer; never allocates. `size` receives the size
    // of the saved mesh; when it exceeds buffer.size() the first buffer.size() bytes are
    // written and the status is Status::buffer_too_small. An empty buffer asks for the
    // size alone.
    Result save(Span<std::uint8_t> buffer, std::uint32_t &size) const {
        const std::uint32_t capacity =
            static_cast<std::uint32_t>(buffer.size() < detail::max_u32 ? buffer.size() : detail::max_u32);
        return Result::from_c(navstar_mesh_save(raw_, capacity == 0 ? nullptr : buffer.data(), capacity, &size));
    }
    // Saves the mesh into a vector, which ends up holding exactly the saved bytes
    // (nothing after an error).
    Result save(std::vector<std::uint8_t> &out) const {
        return detail::fill(out, [this](std::uint8_t *data, std::uint32_t capacity, std::uint32_t &size) {
            return navstar_mesh_save(raw_, data, capacity, &size);
        });
    }
    // Saves the mesh to the file `path` (replaced if it exists). A file that cannot be
    // written is Status::error_invalid_argument.
    Result save_file(const char *path) const {
        std::vector<std::uint8_t> bytes;
        Result result = save(bytes);
        return result.is_error() ? result : detail::write_file("navstar::Mesh::save_file", path, bytes);
    }

    // Changes a polygon's flags while other threads may query (atomic, no lock);
    // `previous` (optional) receives the old flags.
    Result set_polygon_flags(std::uint32_t polygon, std::uint32_t flags, std::uint32_t *previous = nullptr) const {
        return Result::from_c(navstar_mesh_set_polygon_flags(raw_, polygon, flags, previous));
    }
    // A polygon's current flags and its area id.
    Result polygon_info(std::uint32_t polygon, std::uint32_t &flags, std::uint32_t &area) const {
        return Result::from_c(navstar_mesh_polygon_info(raw_, polygon, &flags, &area));
    }
    // The numbers of every polygon, in increasing order: 0 to polygon_count() - 1 for a
    // mesh built from arrays; for a snapshot of a World, numbers that encode the tile.
    Result polygon_ids(std::vector<std::uint32_t> &out) const {
        return detail::fill(out, [this](std::uint32_t *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_mesh_polygon_ids(raw_, data, capacity, &count);
        });
    }
    // A reference to a polygon that outlives this mesh: it names the polygon's tile and
    // that tile's generation (navstar_mesh_polygon_ref). Error for a polygon out of range.
    Result polygon_ref(std::uint32_t polygon, std::uint64_t &out_ref) const {
        return Result::from_c(navstar_mesh_polygon_ref(raw_, polygon, &out_ref));
    }
    // The polygon a reference names in this mesh (a snapshot of the same world);
    // Status::error_stale_reference when its tile was removed or replaced since.
    Result resolve_polygon_ref(std::uint64_t ref, std::uint32_t &out_polygon) const {
        return Result::from_c(navstar_mesh_resolve_polygon_ref(raw_, ref, &out_polygon));
    }
    // Changes an off-mesh link's flags (index in the links given at creation).
    Result set_link_flags(std::uint32_t link, std::uint32_t flags, std::uint32_t *previous = nullptr) const {
        return Result::from_c(navstar_mesh_set_link_flags(raw_, link, flags, previous));
    }
    std::uint32_t link_count() const noexcept { return navstar_mesh_link_count(raw_); }

    // ---- Reading the mesh back (debug drawing, places of corridor polygons)
    //
    // Per-polygon vectors follow polygon_ids() (entry i belongs to its i-th polygon);
    // corners are indices into vertices() (for a World snapshot: every tile's vertices,
    // tile after tile). Each fills `out` with exactly the answer (nothing on error).

    // Every vertex position (welded and unused ones included).
    Result vertices(std::vector<Vec3> &out) const {
        return detail::fill(out, [this](Vec3 *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_mesh_vertices(raw_, reinterpret_cast<float *>(data), capacity, &count);
        });
    }
    // The corner count of each polygon.
    Result polygon_sizes(std::vector<std::uint32_t> &out) const {
        return detail::fill(out, [this](std::uint32_t *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_mesh_polygon_sizes(raw_, data, capacity, &count);
        });
    }
    // Every polygon's corners (vertex indices), counter-clockwise seen from above,
    // polygon after polygon: with vertices() and polygon_sizes(), what create() takes.
    Result polygon_corners(std::vector<std::uint32_t> &out) const {
        return detail::fill(out, [this](std::uint32_t *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_mesh_polygon_corners(raw_, data, capacity, &count);
        });
    }
    // Per corner (as polygon_corners()): the polygon across the edge from that corner to
    // the next, or no_polygon for a wall.
    Result polygon_neighbours(std::vector<std::uint32_t> &out) const {
        return detail::fill(out, [this](std::uint32_t *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_mesh_polygon_neighbours(raw_, data, capacity, &count);
        });
    }
    // The area id of each polygon.
    Result polygon_areas(std::vector<std::uint8_t> &out) const {
        return detail::fill(out, [this](std::uint8_t *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_mesh_polygon_areas(raw_, data, capacity, &count);
        });
    }
    // The current flags of each polygon.
    Result polygon_flags(std::vector<std::uint32_t> &out) const {
        return detail::fill(out, [this](std::uint32_t *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_mesh_polygon_flags(raw_, data, capacity, &count);
        });
    }
    // The island of each polygon (below island_count()).
    Result polygon_islands(std::vector<std::uint32_t> &out) const {
        return detail::fill(out, [this](std::uint32_t *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_mesh_polygon_islands(raw_, data, capacity, &count);
        });
    }
    // The corner positions of one polygon (a number from polygon_ids() or a query);
    // Status::error_invalid_argument for a polygon the mesh lacks.
    Result polygon_points(std::uint32_t polygon, std::vector<Vec3> &out) const {
        return detail::fill(out, [this, polygon](Vec3 *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_mesh_polygon_points(raw_, polygon, reinterpret_cast<float *>(data), capacity, &count);
        });
    }
    // The bounding box of the polygons (empty, min +inf and max -inf, for an empty World).
    Result bounds(Vec3 &min, Vec3 &max) const {
        return Result::from_c(
            navstar_mesh_bounds(raw_, reinterpret_cast<float *>(&min), reinterpret_cast<float *>(&max)));
    }
    // The number of islands (sets of polygons joined by edges or links); 0 when empty.
    std::uint32_t island_count() const noexcept { return navstar_mesh_island_count(raw_); }
    // Builds the landmark table now (navstar_mesh_prepare_landmarks: call it at load time,
    // the first search that uses it builds it otherwise); has_table is set to whether the
    // mesh has one (none with off-mesh links).
    Result prepare_landmarks(bool *has_table = nullptr) const {
        std::uint32_t has = 0;
        Result result = Result::from_c(navstar_mesh_prepare_landmarks(raw_, &has));
        if (has_table && result.ok()) {
            *has_table = has != 0;
        }
        return result;
    }
    // Builds the exact mode's fast-lane index now, with no size limit
    // (navstar_mesh_prepare_fast_lane: call it at load time, before queries start; a query
    // builds it on its first exact-mode path otherwise, on meshes of 500 polygons or more,
    // within a budget); has_index is set to whether the mesh has one (none with off-mesh
    // links; a World's snapshot gets one for itself alone: see World::prepare_fast_lane).
    // Safe while other threads query the mesh.
    Result prepare_fast_lane(bool *has_index = nullptr) const {
        std::uint32_t has = 0;
        Result result = Result::from_c(navstar_mesh_prepare_fast_lane(raw_, &has));
        if (has_index && result.ok()) {
            *has_index = has != 0;
        }
        return result;
    }
    // polygon_neighbours() of a wall.
    static constexpr std::uint32_t no_polygon = NAVSTAR_NO_POLYGON;

    // ---- Queries on the mesh itself

    // The nearest point within max_distance (navstar_mesh_nearest_point);
    // Status::error_not_on_mesh when none is that close.
    Result nearest_point(const Vec3 &point, float max_distance, Vec3 &out_point, std::uint32_t &out_polygon,
                         float &out_distance, const QueryFilter *filter = nullptr) const {
        const float p[3] = {point.x, point.y, point.z};
        return Result::from_c(navstar_mesh_nearest_point(raw_, p, max_distance, filter ? &filter->raw() : nullptr,
                                                         reinterpret_cast<float *>(&out_point), &out_polygon, &out_distance));
    }
    // A straight walk along the mesh (navstar_mesh_raycast).
    Result raycast(const Vec3 &start, const Vec3 &end, NavstarRaycastHit &hit,
                   const QueryFilter *filter = nullptr) const {
        const float a[3] = {start.x, start.y, start.z};
        const float b[3] = {end.x, end.y, end.z};
        return Result::from_c(navstar_mesh_raycast(raw_, a, b, filter ? &filter->raw() : nullptr, &hit));
    }
    // nearest_point for an agent of radius agent_radius (navstar_mesh_nearest_point_for_agent):
    // the nearest point where the disc fits, at least the radius from every wall.
    // Status::error_invalid_argument for a NaN, infinite or negative radius, or one no point fits.
    Result nearest_point_for_agent(const Vec3 &point, float max_distance, float agent_radius, Vec3 &out_point,
                                   std::uint32_t &out_polygon, float &out_distance,
                                   const QueryFilter *filter = nullptr) const {
        const float p[3] = {point.x, point.y, point.z};
        return Result::from_c(navstar_mesh_nearest_point_for_agent(
            raw_, p, max_distance, filter ? &filter->raw() : nullptr, agent_radius,
            reinterpret_cast<float *>(&out_point), &out_polygon, &out_distance));
    }
    // raycast of the centre of a disc of radius agent_radius (navstar_mesh_raycast_for_agent):
    // the walk stops where the disc would touch a wall.
    Result raycast_for_agent(const Vec3 &start, const Vec3 &end, float agent_radius, NavstarRaycastHit &hit,
                             const QueryFilter *filter = nullptr) const {
        const float a[3] = {start.x, start.y, start.z};
        const float b[3] = {end.x, end.y, end.z};
        return Result::from_c(
            navstar_mesh_raycast_for_agent(raw_, a, b, filter ? &filter->raw() : nullptr, agent_radius, &hit));
    }
    // Moves from start towards target along the surface, sliding along walls
    // (navstar_mesh_move_along_surface). start_polygon: the polygon of the last move, or
    // NAVSTAR_NO_POLYGON to snap start. `visited` receives the polygons walked through
    // (start polygon first); the vector is reused, so a kept one makes the call
    // allocation-free in steady state.
    Result move_along_surface(std::uint32_t start_polygon, const Vec3 &start, const Vec3 &target,
                              NavstarSurfaceMove &out_move, std::vector<std::uint32_t> &visited,
                              const QueryFilter *filter = nullptr) const {
        const float a[3] = {start.x, start.y, start.z};
        const float b[3] = {target.x, target.y, target.z};
        return detail::fill(visited, [&](std::uint32_t *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_mesh_move_along_surface(raw_, start_polygon, a, b, filter ? &filter->raw() : nullptr,
                                                   &out_move, data, capacity, &count);
        });
    }
    // A random point of the admitted polygons, uniform by ground area
    // (navstar_mesh_random_point); rng_state is the caller's SplitMix64 state (a seed),
    // advanced by 4 steps per point.
    Result random_point(std::uint64_t &rng_state, Vec3 &out_point, std::uint32_t *out_polygon = nullptr,
                        const QueryFilter *filter = nullptr) const {
        return Result::from_c(navstar_mesh_random_point(raw_, filter ? &filter->raw() : nullptr, &rng_state,
                                                        reinterpret_cast<float *>(&out_point), out_polygon));
    }
    // move_along_surface for the centre of a disc of radius agent_radius
    // (navstar_mesh_move_along_surface_for_agent): slides along the walls moved in by the
    // radius, so the disc never overlaps a wall; `visited` and out_move.polygon name this
    // mesh's polygons. Status::error_invalid_argument for a NaN, infinite or negative
    // radius, or one no point fits.
    Result move_along_surface_for_agent(std::uint32_t start_polygon, const Vec3 &start, const Vec3 &target,
                                        float agent_radius, NavstarSurfaceMove &out_move,
                                        std::vector<std::uint32_t> &visited,
                                        const QueryFilter *filter = nullptr) const {
        const float a[3] = {start.x, start.y, start.z};
        const float b[3] = {target.x, target.y, target.z};
        return detail::fill(visited, [&](std::uint32_t *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_mesh_move_along_surface_for_agent(raw_, start_polygon, a, b,
                                                             filter ? &filter->raw() : nullptr, agent_radius,
                                                             &out_move, data, capacity, &count);
        });
    }
    // random_point where a disc of radius agent_radius fits, uniform by area over that
    // region (navstar_mesh_random_point_for_agent); rng_state as for random_point.
    Result random_point_for_agent(float agent_radius, std::uint64_t &rng_state, Vec3 &out_point,
                                  std::uint32_t *out_polygon = nullptr, const QueryFilter *filter = nullptr) const {
        return Result::from_c(navstar_mesh_random_point_for_agent(raw_, filter ? &filter->raw() : nullptr,
                                                                  agent_radius, &rng_state,
                                                                  reinterpret_cast<float *>(&out_point), out_polygon));
    }
    // Per-vertex data (values.size() == vertex_count() * out.size()) at a point.
    Result interpolate(const Vec3 &point, Span<const float> values, Span<float> out,
                       std::uint32_t *polygon = nullptr, const QueryFilter *filter = nullptr) const {
        if (values.size() > detail::max_u32 || out.size() > detail::max_u32) {
            return detail::argument_error("navstar::Mesh::interpolate", "too many values");
        }
        const float p[3] = {point.x, point.y, point.z};
        return Result::from_c(navstar_mesh_interpolate(raw_, p, values.data(), static_cast<std::uint32_t>(values.size()),
                                                       static_cast<std::uint32_t>(out.size()),
                                                       filter ? &filter->raw() : nullptr, out.data(), polygon));
    }

    explicit operator bool() const noexcept { return raw_ != nullptr; }
    // 0 for an empty Mesh.
    std::uint32_t polygon_count() const noexcept { return navstar_mesh_polygon_count(raw_); }
    // The input vertex count, welded and unused vertices included: what interpolate()
    // takes values for. 0 for an empty Mesh.
    std::uint32_t vertex_count() const noexcept { return navstar_mesh_vertex_count(raw_); }

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

    // navstar_query_create_ex (options NULL: defaults, no node limit). An empty mesh
    // gives Status::error_null_argument.
    static Result create(const Mesh &mesh, Query &out, const QueryOptions *options = nullptr) {
        out.reset();
        NavstarQuery *raw = nullptr;
        const NavstarStatus status = navstar_query_create_ex(mesh.get(), options ? &options->raw() : nullptr, &raw);
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

    // ---- Details of the last path, the nearest of several goals, reachable polygons

    // Summary of the last path (Status::error_no_path when the last path call failed).
    Result path_info(NavstarPathInfo &info) const { return Result::from_c(navstar_query_path_info(raw_, &info)); }
    // Per-corner flags (NAVSTAR_CORNER_*), area and link of the last path.
    Result path_details(std::vector<NavstarCornerDetail> &out) const {
        return detail::fill(out, [this](NavstarCornerDetail *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_query_path_details(raw_, data, capacity, &count);
        });
    }
    // The turns of the last path round convex wall corners (paths with an agent radius
    // above the mesh's baked one; empty otherwise): the points first_point..last_point lie
    // round centre, at least radius from it.
    Result path_arcs(std::vector<NavstarPathArc> &out) const {
        return detail::fill(out, [this](NavstarPathArc *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_query_path_arcs(raw_, data, capacity, &count);
        });
    }
    // The polygon corridor of the last path, start polygon first.
    Result path_corridor(std::vector<std::uint32_t> &out) const {
        return detail::fill(out, [this](std::uint32_t *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_query_path_corridor(raw_, data, capacity, &count);
        });
    }
    // Of several goals, the cheapest to walk to and the path to it (one search).
    Result find_nearest_target(const Vec3 &start, Span<const Vec3> goals, std::vector<Vec3> &out,
                               std::uint32_t &goal_index, const PathOptions *options = nullptr) {
        if (goals.size() > detail::max_u32) {
            return detail::argument_error("navstar::Query::find_nearest_target", "too many goals");
        }
        const float from[3] = {start.x, start.y, start.z};
        return detail::fill(out, [&](Vec3 *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_find_nearest_target(raw_, from, reinterpret_cast<const float *>(goals.data()),
                                               static_cast<std::uint32_t>(goals.size()),
                                               options ? &options->raw() : nullptr, reinterpret_cast<float *>(data),
                                               capacity, &count, &goal_index);
        });
    }
    // The polygons reachable within max_cost, cheapest first.
    Result reachable_polygons(const Vec3 &start, float max_cost, std::vector<NavstarReachedPolygon> &out,
                              const PathOptions *options = nullptr) {
        const float from[3] = {start.x, start.y, start.z};
        return detail::fill(out, [&](NavstarReachedPolygon *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_query_reachable_polygons(raw_, from, max_cost, options ? &options->raw() : nullptr, data,
                                                    capacity, &count);
        });
    }

    // ---- Time-sliced path searches (a frame's budget of node expansions per call)

    // navstar_query_begin_path: begins a search (cancelling one in progress); done is
    // true when the answer is known already (no search needed, or answered whole: an
    // end on a pinched vertex; both modes are sliced, with an agent radius too).
    Result begin_path(const Vec3 &start, const Vec3 &goal, bool &done, const PathOptions *options = nullptr) {
        const float from[3] = {start.x, start.y, start.z};
        const float to[3] = {goal.x, goal.y, goal.z};
        std::uint32_t state = NAVSTAR_SLICE_IN_PROGRESS;
        Result result = Result::from_c(
            navstar_query_begin_path(raw_, from, to, options ? &options->raw() : nullptr, &state));
        done = result.ok() && state == NAVSTAR_SLICE_DONE;
        return result;
    }
    // navstar_query_advance_path: at most max_expansions (>= 1) node expansions;
    // progress.state is NAVSTAR_SLICE_DONE once the answer is known.
    Result advance_path(std::uint32_t max_expansions, NavstarSliceProgress &progress) {
        return Result::from_c(navstar_query_advance_path(raw_, max_expansions, &progress));
    }
    // navstar_query_finish_path into a caller's buffer (never allocates): the one-shot
    // answer once done, else the best partial path (Status::partial_path). The search is
    // over afterwards, so a path longer than out is cut: Status::buffer_too_small, count
    // the whole, and path_info / path_details / path_corridor still describe it whole.
    Result finish_path(Span<Vec3> out, std::uint32_t &count) {
        const std::uint32_t capacity = static_cast<std::uint32_t>(out.size() < detail::max_u32 ? out.size()
                                                                                               : detail::max_u32);
        return Result::from_c(navstar_query_finish_path(
            raw_, capacity == 0 ? nullptr : reinterpret_cast<float *>(out.data()), capacity, &count));
    }
    // navstar_query_cancel_path: cancelled (optional) says whether a search was in progress.
    Result cancel_path(bool *cancelled = nullptr) {
        std::uint32_t was = 0;
        Result result = Result::from_c(navstar_query_cancel_path(raw_, &was));
        if (cancelled) {
            *cancelled = was == 1;
        }
        return result;
    }

    // ---- Queries for agents that move

    // The nearest wall within radius of point (navstar_query_distance_to_wall):
    // out_wall.found is 0 when there is none (still Status::ok).
    Result distance_to_wall(const Vec3 &point, float radius, NavstarWallDistance &out_wall,
                            const QueryFilter *filter = nullptr) {
        const float p[3] = {point.x, point.y, point.z};
        return Result::from_c(
            navstar_query_distance_to_wall(raw_, p, radius, filter ? &filter->raw() : nullptr, &out_wall));
    }
    // A random point of the polygons whose portals come within radius of center
    // (navstar_query_random_point_around, Detour's findRandomPointAroundCircle: the
    // point may lie outside the circle); rng_state as for Mesh::random_point.
    Result random_point_around(const Vec3 &center, float radius, std::uint64_t &rng_state, Vec3 &out_point,
                               std::uint32_t *out_polygon = nullptr, const QueryFilter *filter = nullptr) {
        const float c[3] = {center.x, center.y, center.z};
        return Result::from_c(navstar_query_random_point_around(raw_, c, radius, filter ? &filter->raw() : nullptr,
                                                                &rng_state, reinterpret_cast<float *>(&out_point),
                                                                out_polygon));
    }

    // distance_to_wall for a disc of radius agent_radius
    // (navstar_query_distance_to_wall_for_agent): from the centre (moved to where the disc
    // fits) to the walls moved in by the radius, i.e. the wall distance less the radius;
    // out_wall.point lies on that eroded boundary.
    Result distance_to_wall_for_agent(const Vec3 &point, float radius, float agent_radius,
                                      NavstarWallDistance &out_wall, const QueryFilter *filter = nullptr) {
        const float p[3] = {point.x, point.y, point.z};
        return Result::from_c(navstar_query_distance_to_wall_for_agent(
            raw_, p, radius, filter ? &filter->raw() : nullptr, agent_radius, &out_wall));
    }
    // random_point_around where a disc of radius agent_radius fits and can walk to
    // (navstar_query_random_point_around_for_agent); rng_state as for Mesh::random_point.
    Result random_point_around_for_agent(const Vec3 &center, float radius, float agent_radius,
                                         std::uint64_t &rng_state, Vec3 &out_point,
                                         std::uint32_t *out_polygon = nullptr, const QueryFilter *filter = nullptr) {
        const float c[3] = {center.x, center.y, center.z};
        return Result::from_c(navstar_query_random_point_around_for_agent(
            raw_, c, radius, filter ? &filter->raw() : nullptr, agent_radius, &rng_state,
            reinterpret_cast<float *>(&out_point), out_polygon));
    }

    // Whether the query's searches use the mesh's landmark table (navstar_query_set_landmarks):
    // NAVSTAR_LANDMARKS_BY_SIZE (the default, on meshes of 500 polygons or more),
    // NAVSTAR_LANDMARKS_ON or NAVSTAR_LANDMARKS_OFF.
    Result set_landmarks(std::uint32_t mode) { return Result::from_c(navstar_query_set_landmarks(raw_, mode)); }
    // Whether the query answers exact-mode paths from the mesh's fast-lane index
    // (navstar_query_set_fast_lane; on by default): the same lengths either way, no search
    // (nodes_expanded() 0) where the index answers.
    Result set_fast_lane(bool on) { return Result::from_c(navstar_query_set_fast_lane(raw_, on ? 1u : 0u)); }

    // The bytes of search memory the query holds now (navstar_query_scratch_bytes): it
    // grows with the largest searches made, up to the node limit. 0 for an empty Query.
    std::uint64_t scratch_bytes() const noexcept { return navstar_query_scratch_bytes(raw_); }
    // The search nodes the last query expanded (navstar_query_nodes_expanded), for budgets
    // and profiling; 0 before the first query.
    std::uint64_t nodes_expanded() const noexcept { return navstar_query_nodes_expanded(raw_); }

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

// ---------------------------------------------------------------------------------
// Corridor

// The corridor that follows one agent (navstar_corridor_*): the polygons from its
// position to its target, trimmed as it moves, its next corners with their
// NAVSTAR_CORNER_* flags, checked against the current flags and repaired when polygons
// on it close. One thread at a time; holds its own reference to the mesh.
class Corridor {
   public:
    Corridor() noexcept = default;
    // Takes ownership of a corridor made by the C API (NULL gives an empty Corridor).
    explicit Corridor(NavstarCorridor *raw) noexcept : raw_(raw) {}
    ~Corridor() { reset(); }
    Corridor(Corridor &&other) noexcept : raw_(other.release()) {}
    Corridor &operator=(Corridor &&other) noexcept {
        if (this != &other) {
            reset(other.release());
        }
        return *this;
    }
    Corridor(const Corridor &) = delete;
    Corridor &operator=(const Corridor &) = delete;

    // navstar_corridor_create: polygons[0] is the agent's polygon, a chain of neighbours.
    static Result create(const Mesh &mesh, const std::vector<std::uint32_t> &polygons, const Vec3 &start,
                         const Vec3 &target, Corridor &out) {
        out.reset();
        if (polygons.size() > detail::max_u32) {
            return detail::argument_error("navstar::Corridor::create", "too many polygons");
        }
        const float a[3] = {start.x, start.y, start.z};
        const float b[3] = {target.x, target.y, target.z};
        NavstarCorridor *raw = nullptr;
        Result result = Result::from_c(navstar_corridor_create(
            mesh.get(), polygons.data(), static_cast<std::uint32_t>(polygons.size()), a, b, &raw));
        out.reset(raw);
        return result;
    }

    // navstar_corridor_create_from_query: along the query's last path.
    static Result from_query(const Query &query, const Vec3 &start, const Vec3 &target, Corridor &out) {
        out.reset();
        const float a[3] = {start.x, start.y, start.z};
        const float b[3] = {target.x, target.y, target.z};
        NavstarCorridor *raw = nullptr;
        Result result = Result::from_c(navstar_corridor_create_from_query(query.get(), a, b, &raw));
        out.reset(raw);
        return result;
    }

    // Moves the agent along the surface and trims the corridor; on_corridor (optional):
    // whether it is still on it.
    // The radius of the agent followed (navstar_corridor_set_agent_radius): above the
    // mesh's baked radius, moves slide along the walls moved in by it, the corners keep
    // it from the walls, repair searches with it and optimize walks the disc.
    // Status::error_invalid_argument
    // for a NaN, infinite or negative radius, or one no point fits.
    Result set_agent_radius(float agent_radius) {
        return Result::from_c(navstar_corridor_set_agent_radius(raw_, agent_radius));
    }
    Result move_position(const Vec3 &position, bool *on_corridor = nullptr, const QueryFilter *filter = nullptr) {
        const float p[3] = {position.x, position.y, position.z};
        std::uint32_t on = 0;
        Result result =
            Result::from_c(navstar_corridor_move_position(raw_, p, filter ? &filter->raw() : nullptr, &on));
        if (on_corridor != nullptr) {
            *on_corridor = on == 1;
        }
        return result;
    }

    // Moves the target along the surface, extending or trimming the corridor's end.
    Result move_target(const Vec3 &target, bool *on_corridor = nullptr, const QueryFilter *filter = nullptr) {
        const float p[3] = {target.x, target.y, target.z};
        std::uint32_t on = 0;
        Result result = Result::from_c(navstar_corridor_move_target(raw_, p, filter ? &filter->raw() : nullptr, &on));
        if (on_corridor != nullptr) {
            *on_corridor = on == 1;
        }
        return result;
    }

    // The agent's position and the target.
    Result position(Vec3 &out_position, Vec3 &out_target) const {
        return Result::from_c(navstar_corridor_position(raw_, reinterpret_cast<float *>(&out_position),
                                                        reinterpret_cast<float *>(&out_target)));
    }

    // The polygons from the agent's to the target's; the vector is reused.
    Result polygons(std::vector<std::uint32_t> &out) const {
        return detail::fill(out, [this](std::uint32_t *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_corridor_polygons(raw_, data, capacity, &count);
        });
    }

    // The corners from the agent to the target (the agent's position not listed, the
    // target last) and their NAVSTAR_CORNER_* flags; both vectors end up the same size.
    Result corners(std::vector<Vec3> &points, std::vector<std::uint32_t> &flags, const QueryFilter *filter = nullptr,
                   bool split_at_area_changes = false) {
        points.resize(points.capacity());
        for (;;) {
            const std::uint32_t capacity =
                static_cast<std::uint32_t>(points.size() < detail::max_u32 ? points.size() : detail::max_u32);
            flags.resize(capacity);
            std::uint32_t count = 0;
            Result result = Result::from_c(navstar_corridor_corners(
                raw_, filter ? &filter->raw() : nullptr, split_at_area_changes ? 1u : 0u,
                capacity == 0 ? nullptr : reinterpret_cast<float *>(points.data()),
                capacity == 0 ? nullptr : flags.data(), capacity, &count));
            if (result.status() == Status::buffer_too_small && count > capacity) {
                points.resize(count);
                continue;
            }
            const std::size_t kept = result.is_error() ? 0 : count;
            points.resize(kept);
            flags.resize(kept);
            return result;
        }
    }

    // Whether the first look_ahead polygons are all admitted by the filter.
    Result is_valid(std::uint32_t look_ahead, bool &valid, const QueryFilter *filter = nullptr) const {
        std::uint32_t answer = 0;
        Result result =
            Result::from_c(navstar_corridor_is_valid(raw_, look_ahead, filter ? &filter->raw() : nullptr, &answer));
        valid = answer == 1;
        return result;
    }

    // Repairs the corridor after polygons on it closed, searching with `query` (of the
    // same mesh) from the agent back onto the corridor past the closed part (within a
    // budget, the rest kept), else from the last admitted polygon before the break;
    // with set_agent_radius the searches keep the radius. outcome:
    // NAVSTAR_REPAIR_VALID, _REPAIRED or _CUT_OFF; kept (optional): polygons kept.
    Result repair(Query &query, std::uint32_t &outcome, std::uint32_t *kept = nullptr,
                  const QueryFilter *filter = nullptr) {
        return Result::from_c(
            navstar_corridor_repair(raw_, query.get(), filter ? &filter->raw() : nullptr, &outcome, kept));
    }

    // Shortens the corridor when the agent sees `next`; changed (optional): whether it did.
    Result optimize(const Vec3 &next, bool *changed = nullptr, const QueryFilter *filter = nullptr) {
        const float p[3] = {next.x, next.y, next.z};
        std::uint32_t answer = 0;
        Result result = Result::from_c(navstar_corridor_optimize(raw_, p, filter ? &filter->raw() : nullptr, &answer));
        if (changed != nullptr) {
            *changed = answer == 1;
        }
        return result;
    }

    explicit operator bool() const noexcept { return raw_ != nullptr; }
    NavstarCorridor *get() const noexcept { return raw_; }
    NavstarCorridor *release() noexcept {
        NavstarCorridor *raw = raw_;
        raw_ = nullptr;
        return raw;
    }
    void reset(NavstarCorridor *raw = nullptr) noexcept {
        NavstarCorridor *old = raw_;
        raw_ = raw;
        navstar_corridor_free(old);  // NULL does nothing
    }

   private:
    NavstarCorridor *raw_ = nullptr;
};

// ---------------------------------------------------------------------------------
// World

// World options, starting from the library's defaults. Setters chain:
//   navstar::WorldOptions().set_max_tiles(1024).set_seam_tolerance(0.01f)
class WorldOptions {
   public:
    WorldOptions() noexcept : raw_(navstar_world_options_default()) {}
    explicit WorldOptions(const NavstarWorldOptions &raw) noexcept : raw_(raw) {}

    UpAxis up_axis() const noexcept { return static_cast<UpAxis>(raw_.up_axis); }
    WorldOptions &set_up_axis(UpAxis axis) noexcept {
        raw_.up_axis = static_cast<std::uint32_t>(axis);
        return *this;
    }
    // How many tiles the world holds at once (a power of two).
    std::uint32_t max_tiles() const noexcept { return raw_.max_tiles; }
    WorldOptions &set_max_tiles(std::uint32_t max_tiles) noexcept {
        raw_.max_tiles = max_tiles;
        return *this;
    }
    // How far apart (ground plane) wall edges of two tiles may be and still join.
    float seam_tolerance() const noexcept { return raw_.seam_tolerance; }
    WorldOptions &set_seam_tolerance(float tolerance) noexcept {
        raw_.seam_tolerance = tolerance;
        return *this;
    }
    // The largest height difference at the ends of a seam that still joins.
    float climb() const noexcept { return raw_.climb; }
    WorldOptions &set_climb(float climb) noexcept {
        raw_.climb = climb;
        return *this;
    }

    const NavstarWorldOptions &raw() const noexcept { return raw_; }
    NavstarWorldOptions &raw() noexcept { return raw_; }

   private:
    NavstarWorldOptions raw_;
};

// A tile of a world: its world, slot and generation (plain data, NavstarTileRef).
using TileRef = NavstarTileRef;

// An obstacle's shape for World::add_obstacle and World::move_obstacle (NavstarObstacle):
// a strictly convex polygon, a disc or a turned box, in ground-plane coordinates (x, z
// when Y is up; x, y when Z is up), standing in a range of heights (every height by
// default). The shape is checked by the library when it is used.
//   navstar::Obstacle::circle(5, 5, 1).set_height_range(0, 2)
class Obstacle {
   public:
    Obstacle() noexcept : raw_(navstar_obstacle_default()) {}
    // A disc of `radius` round (x, z).
    static Obstacle circle(float x, float z, float radius) noexcept {
        Obstacle o;
        o.raw_.shape = NAVSTAR_OBSTACLE_CIRCLE;
        o.raw_.center[0] = x;
        o.raw_.center[1] = z;
        o.raw_.radius = radius;
        return o;
    }
    // A box of half extents (half_x, half_z) round (x, z), turned by `angle` radians.
    static Obstacle box(float x, float z, float half_x, float half_z, float angle = 0.0f) noexcept {
        Obstacle o;
        o.raw_.shape = NAVSTAR_OBSTACLE_BOX;
        o.raw_.center[0] = x;
        o.raw_.center[1] = z;
        o.raw_.half_extents[0] = half_x;
        o.raw_.half_extents[1] = half_z;
        o.raw_.angle = angle;
        return o;
    }
    // A convex polygon: x, z pairs (copied), either winding.
    static Obstacle polygon(std::vector<float> points) {
        Obstacle o;
        o.raw_.shape = NAVSTAR_OBSTACLE_POLYGON;
        o.points_ = std::move(points);
        return o;
    }
    // Stands from `bottom` to `top` only.
    Obstacle &set_height_range(float bottom, float top) noexcept {
        raw_.bottom = bottom;
        raw_.top = top;
        return *this;
    }
    // The C struct, its points pointing into this object (valid while it lives
    // unchanged).
    NavstarObstacle raw() const noexcept {
        NavstarObstacle r = raw_;
        if (r.shape == NAVSTAR_OBSTACLE_POLYGON) {
            r.points = points_.data();
            r.point_count = points_.size() / 2 > detail::max_u32 ? detail::max_u32
                                                                 : static_cast<std::uint32_t>(points_.size() / 2);
        }
        return r;
    }

   private:
    NavstarObstacle raw_;
    std::vector<float> points_;
};

// An obstacle of a world: its world and number (plain data, NavstarObstacleRef).
using ObstacleRef = NavstarObstacleRef;

// A world of tiles (owns a NavstarWorld*): add, remove and replace tiles while other
// threads query snapshots of it. Move-only; any number of threads may use one World at
// once. Empty (false) when default-constructed or after a failed create or load.
class World {
   public:
    World() noexcept = default;
    // Takes ownership of a world made by the C API (NULL gives an empty World).
    explicit World(NavstarWorld *raw) noexcept : raw_(raw) {}
    ~World() { reset(); }
    World(World &&other) noexcept : raw_(other.release()) {}
    World &operator=(World &&other) noexcept {
        if (this != &other) {
            reset(other.release());
        }
        return *this;
    }
    World(const World &) = delete;
    World &operator=(const World &) = delete;

    // An empty world (navstar_world_create); options NULL: defaults.
    static Result create(World &out, const WorldOptions *options = nullptr) {
        out.reset();
        NavstarWorld *raw = nullptr;
        Result result = Result::from_c(navstar_world_create(options ? &options->raw() : nullptr, &raw));
        out.reset(raw);
        return result;
    }
    // A world saved by save() (navstar_world_load / navstar_world_load_bytes). Its
    // tiles keep their slots and generations; list them with tiles(). On error `out`
    // is left empty: an unreadable file is Status::error_invalid_argument, a refused one
    // Status::error_invalid_mesh.
    static Result load_file(const char *path, World &out) {
        out.reset();
        NavstarWorld *raw = nullptr;
        Result result = Result::from_c(navstar_world_load(path, &raw));
        out.reset(raw);
        return result;
    }
    static Result load_bytes(Span<const std::uint8_t> bytes, World &out) {
        out.reset();
        if (bytes.size() > detail::max_u32) {
            return detail::argument_error("navstar::World::load_bytes", "more than 4 GiB of bytes");
        }
        NavstarWorld *raw = nullptr;
        Result result = Result::from_c(
            navstar_world_load_bytes(bytes.data(), static_cast<std::uint32_t>(bytes.size()), &raw));
        out.reset(raw);
        return result;
    }

    // Adds a tile (copied: `tile` may be destroyed afterwards), joined to its neighbours.
    Result add_tile(const Mesh &tile, TileRef &out) {
        return Result::from_c(navstar_world_add_tile(raw_, tile.get(), &out));
    }
    // Adds a whole mesh as square tiles of side `tile_size` (world units), published at
    // once, with the links between them; `out` receives the tiles' references in the
    // grid's row order. On error nothing is added and `out` is empty (a tile size that is
    // not finite and > 0, a mesh of another up axis, too few free slots:
    // Status::error_invalid_argument).
    Result add_mesh_tiles(const Mesh &mesh, float tile_size, std::vector<TileRef> &out) {
        return detail::fill(out, [this, &mesh, tile_size](TileRef *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_world_add_mesh_tiles(raw_, mesh.get(), tile_size, data, capacity, &count);
        });
    }
    // Removes a tile; Status::error_stale_reference when it is gone already.
    Result remove_tile(const TileRef &tile) { return Result::from_c(navstar_world_remove_tile(raw_, tile)); }
    // Adds an obstacle: the polygons it overlaps (grown by each tile's baked agent
    // radius, within its height range) are cut in the next snapshot.
    Result add_obstacle(const Obstacle &obstacle, ObstacleRef &out) {
        const NavstarObstacle raw = obstacle.raw();
        return Result::from_c(navstar_world_add_obstacle(raw_, &raw, &out));
    }
    // Gives an obstacle a new shape; Status::error_stale_reference when it is gone.
    Result move_obstacle(const ObstacleRef &obstacle, const Obstacle &shape) {
        const NavstarObstacle raw = shape.raw();
        return Result::from_c(navstar_world_move_obstacle(raw_, obstacle, &raw));
    }
    // Removes an obstacle (its tiles are cut again without it, or restored);
    // Status::error_stale_reference when it is gone already.
    Result remove_obstacle(const ObstacleRef &obstacle) {
        return Result::from_c(navstar_world_remove_obstacle(raw_, obstacle));
    }
    // 0 for an empty World.
    std::uint32_t obstacle_count() const noexcept { return navstar_world_obstacle_count(raw_); }
    // Replaces a tile in one step; `out` is the new tile (same slot, next generation).
    Result replace_tile(const TileRef &tile, const Mesh &mesh, TileRef &out) {
        return Result::from_c(navstar_world_replace_tile(raw_, tile, mesh.get(), &out));
    }
    // Builds landmark tables for the world as it is now (navstar_world_prepare_landmarks)
    // and publishes a snapshot with them; later snapshots keep them through removals,
    // added obstacles, tiles added back or replaced by equal meshes, and ground they never
    // saw, which caps each bound at the goal's distance to it (much such
    // ground drops them: call it again then).
    // has_table is set to whether the world has them (with off-mesh links, only for the
    // merged copy the exact mode searches, which does not follow links).
    Result prepare_landmarks(bool *has_table = nullptr) const {
        std::uint32_t has = 0;
        Result result = Result::from_c(navstar_world_prepare_landmarks(raw_, &has));
        if (has_table && result.ok()) {
            *has_table = has != 0;
        }
        return result;
    }
    // Builds the exact mode's fast-lane index for the world as it is now
    // (navstar_world_prepare_fast_lane) and publishes a snapshot with it: exact-mode paths
    // on snapshots taken after it are answered from the index. Any later tile or obstacle
    // change drops it (flag changes keep it); a World never builds one by itself.
    // has_index is set to whether the world has one (none with off-mesh links, or when a
    // change overtook the build: call it again).
    Result prepare_fast_lane(bool *has_index = nullptr) const {
        std::uint32_t has = 0;
        Result result = Result::from_c(navstar_world_prepare_fast_lane(raw_, &has));
        if (has_index && result.ok()) {
            *has_index = has != 0;
        }
        return result;
    }
    // The world as it is now, as an immutable Mesh that every query takes.
    Result snapshot(Mesh &out) const {
        out.reset();
        NavstarMesh *raw = nullptr;
        Result result = Result::from_c(navstar_world_snapshot(raw_, &raw));
        out.reset(raw);
        return result;
    }
    // The tiles present now, by slot.
    Result tiles(std::vector<TileRef> &out) const {
        return detail::fill(out, [this](TileRef *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_world_tiles(raw_, data, capacity, &count);
        });
    }
    // Saves the world into a caller's buffer; never allocates. `size` receives the size
    // of the saved world; when it exceeds buffer.size() the first buffer.size() bytes are
    // written and the status is Status::buffer_too_small. An empty buffer asks for the
    // size alone.
    Result save(Span<std::uint8_t> buffer, std::uint32_t &size) const {
        const std::uint32_t capacity =
            static_cast<std::uint32_t>(buffer.size() < detail::max_u32 ? buffer.size() : detail::max_u32);
        return Result::from_c(navstar_world_save(raw_, capacity == 0 ? nullptr : buffer.data(), capacity, &size));
    }
    // The world in the world format (navstar_world_save), into a vector of its size.
    Result save(std::vector<std::uint8_t> &out) const {
        return detail::fill(out, [this](std::uint8_t *data, std::uint32_t capacity, std::uint32_t &count) {
            return navstar_world_save(raw_, data, capacity, &count);
        });
    }
    // Saves the world to the file `path` (replaced if it exists). A file that cannot be
    // written is Status::error_invalid_argument.
    Result save_file(const char *path) const {
        std::vector<std::uint8_t> bytes;
        Result result = save(bytes);
        return result.is_error() ? result : detail::write_file("navstar::World::save_file", path, bytes);
    }
    // 0 for an empty World.
    std::uint32_t tile_count() const noexcept { return navstar_world_tile_count(raw_); }

    explicit operator bool() const noexcept { return raw_ != nullptr; }
    NavstarWorld *get() const noexcept { return raw_; }
    NavstarWorld *release() noexcept {
        NavstarWorld *raw = raw_;
        raw_ = nullptr;
        return raw;
    }
    void reset(NavstarWorld *raw = nullptr) noexcept {
        NavstarWorld *old = raw_;
        raw_ = raw;
        navstar_world_free(old);  // NULL does nothing
    }

   private:
    NavstarWorld *raw_ = nullptr;
};

}  // namespace navstar

#endif  // NAVSTAR_HPP
