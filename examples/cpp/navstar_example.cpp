// navstar from C++17: RAII handles over the C ABI, and a self-checking run.
//
// The handles are std::unique_ptr with custom deleters, so a mesh and its queries are
// released on every path out of a scope. Paths go into a std::vector with the
// BUFFER_TOO_SMALL retry pattern: try with the vector's current size, and when the
// library reports a larger count, grow the vector and ask again.
//
// Compiles with -Wall -Wextra -Wpedantic -Werror, also with -fno-exceptions -fno-rtti
// (nothing here throws or uses typeid/dynamic_cast). The last line printed is
// "N passed, M failed"; the exit status is non-zero if M > 0.
//
// Build (after `cargo build`):
//   g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror -Iinclude examples/cpp/navstar_example.cpp
//       -Ltarget/debug -lnavstar -Wl,-rpath,"$PWD/target/debug" -o navstar_example_cpp
// (one command line; tests/native/c_programs.rs runs it in every configuration)
//
// The mesh (seen from above, Y up, all at y = 0) is a U of unit quads with an island:
//
//   z=3 +---+   +---+
//       | 5 |   | 6 |
//   z=2 +---+   +---+
//       | 3 |   | 4 |
//   z=1 +---+---+---+
//       | 0 | 1 | 2 |         +---+
//   z=0 +---+---+---+         | 7 |
//      x=0 x=1 x=2 x=3      x=5 x=6
#include "navstar.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

static_assert(sizeof(NavstarStatus) == 4, "NavstarStatus must be 32 bits on both sides of the ABI");
static_assert(sizeof(NavstarMeshOptions) == 24,
              "NavstarMeshOptions layout (v1 was 16 bytes; allow_degenerate_connectors, then "
              "agent_radius came later)");
static_assert(sizeof(NavstarPathOptions) == 32 + 2 * sizeof(void *),
              "NavstarPathOptions layout (v1 was 20 bytes; mode, the filter pointer and "
              "split_at_area_changes, then agent_radius and reserved appended)");

namespace navstar {

struct MeshDeleter {
    void operator()(NavstarMesh *mesh) const noexcept { navstar_mesh_free(mesh); }
};
struct QueryDeleter {
    void operator()(NavstarQuery *query) const noexcept { navstar_query_free(query); }
};
using MeshPtr = std::unique_ptr<NavstarMesh, MeshDeleter>;
using QueryPtr = std::unique_ptr<NavstarQuery, QueryDeleter>;

// An xyz point, as the C ABI reads and writes them.
using Point = std::array<float, 3>;

// A path: the corners as xyz triples in one flat vector, so that its storage is the
// `float *out_points` buffer of the C call and is reused from call to call.
struct Path {
    std::vector<float> xyz;
    std::size_t size() const { return xyz.size() / 3; }
    bool empty() const { return xyz.empty(); }
    Point operator[](std::size_t i) const { return {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]}; }
};

// A status plus the message copied out of the library (it is only valid until the next
// navstar call on this thread).
struct Result {
    NavstarStatus status;
    std::string message;
    bool ok() const { return status >= 0; }
};

static Result result_of(NavstarStatus status) {
    return Result{status, status < 0 ? std::string(navstar_last_error_message()) : std::string()};
}

// Builds a mesh (empty `sizes`: triangles); on error `mesh` stays empty and the result
// carries the message.
static Result make_mesh(const std::vector<float> &vertices, const std::vector<std::uint32_t> &indices,
                        const std::vector<std::uint32_t> &sizes, const NavstarMeshOptions *options, MeshPtr &mesh) {
    NavstarMesh *raw = nullptr;
    NavstarStatus status = navstar_mesh_create(
        vertices.data(), static_cast<std::uint32_t>(vertices.size() / 3), indices.data(),
        sizes.empty() ? nullptr : sizes.data(),
        static_cast<std::uint32_t>(sizes.empty() ? indices.size() / 3 : sizes.size()), options, &raw);
    Result result = result_of(status);  // copy the message before reset() calls navstar_mesh_free
    mesh.reset(raw);
    return result;
}

static Result make_query(const MeshPtr &mesh, QueryPtr &query) {
    NavstarQuery *raw = nullptr;
    NavstarStatus status = navstar_query_create(mesh.get(), &raw);
    Result result = result_of(status);  // before reset(): any navstar call replaces the message
    query.reset(raw);
    return result;
}

// Finds a path into `path`, growing it when the library reports BUFFER_TOO_SMALL. The
// vector's capacity is reused across calls, so steady-state calls do not allocate.
static Result find_path(NavstarQuery *query, const Point &start, const Point &goal, Path &path,
                        const NavstarPathOptions *options = nullptr) {
    // Offer all the room the vector already has.
    path.xyz.resize(path.xyz.capacity() / 3 * 3);
    for (;;) {
        std::uint32_t count = 0;
        const auto capacity = static_cast<std::uint32_t>(path.size());
        const NavstarStatus status = navstar_find_path(query, start.data(), goal.data(), options,
                                                       path.empty() ? nullptr : path.xyz.data(), capacity, &count);
        if (status == NAVSTAR_BUFFER_TOO_SMALL && count > capacity) {
            path.xyz.resize(3 * static_cast<std::size_t>(count));
            continue;
        }
        path.xyz.resize(status < 0 ? 0 : 3 * static_cast<std::size_t>(count));
        return result_of(status);
    }
}

}  // namespace navstar

namespace {

int passed = 0;
int failed = 0;

void check(bool ok, const std::string &what) {
    std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
    (ok ? passed : failed)++;
}

std::string name(NavstarStatus status) { return navstar_status_name(static_cast<std::int32_t>(status)); }

void expect_status(const navstar::Result &got, NavstarStatus want, const std::string &what) {
    check(got.status == want, what + ": status " + name(got.status) + " (want " + name(want) + ")" +
                                  (got.message.empty() ? "" : "; message: " + got.message));
}

void expect_error(const navstar::Result &got, NavstarStatus want, const char *culprit, const std::string &what) {
    expect_status(got, want, what);
    check(!got.message.empty() && got.message.find(culprit) != std::string::npos,
          what + ": message \"" + got.message + "\" names \"" + culprit + "\"");
}

void expect_path(const navstar::Path &got, const std::vector<navstar::Point> &want, const std::string &what) {
    bool same = got.size() == want.size();
    for (std::size_t i = 0; same && i < want.size(); i++) {
        for (std::size_t k = 0; k < 3; k++) {
            same = same && std::fabs(got[i][k] - want[i][k]) <= 1e-4f;
        }
    }
    check(same, what + ": " + std::to_string(got.size()) + " points (want " + std::to_string(want.size()) + ")");
    if (!same) {
        for (std::size_t i = 0; i < got.size(); i++) {
            std::printf("      got  (%g, %g, %g)\n", got[i][0], got[i][1], got[i][2]);
        }
        for (const auto &p : want) {
            std::printf("      want (%g, %g, %g)\n", p[0], p[1], p[2]);
        }
    }
}

// The U mesh: a 4x4 vertex grid (index 4 * z + x) and the island's corners 16..19.
void u_mesh_data(std::vector<float> &vertices, std::vector<std::uint32_t> &indices,
                 std::vector<std::uint32_t> &sizes) {
    vertices.clear();
    indices.clear();
    sizes.clear();
    for (int z = 0; z < 4; z++) {
        for (int x = 0; x < 4; x++) {
            vertices.insert(vertices.end(), {static_cast<float>(x), 0.0f, static_cast<float>(z)});
        }
    }
    vertices.insert(vertices.end(), {5, 0, 0, 6, 0, 0, 6, 0, 1, 5, 0, 1});
    const std::array<std::array<std::uint32_t, 2>, 7> cells{{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {2, 1}, {0, 2}, {2, 2}}};
    for (const auto &cell : cells) {
        const std::uint32_t x = cell[0], z = cell[1];
        indices.insert(indices.end(), {4 * z + x, 4 * z + x + 1, 4 * (z + 1) + x + 1, 4 * (z + 1) + x});
        sizes.push_back(4);
    }
    indices.insert(indices.end(), {16, 17, 18, 19});
    sizes.push_back(4);
}

void test_paths() {
    std::vector<float> vertices;
    std::vector<std::uint32_t> indices, sizes;
    u_mesh_data(vertices, indices, sizes);

    navstar::MeshPtr mesh;
    expect_status(navstar::make_mesh(vertices, indices, sizes, nullptr, mesh), NAVSTAR_OK, "create U mesh");
    check(mesh != nullptr, "the mesh handle is set");
    check(navstar_mesh_polygon_count(mesh.get()) == 8, "the mesh has 8 polygons");

    navstar::QueryPtr query;
    expect_status(navstar::make_query(mesh, query), NAVSTAR_OK, "create query");

    // Free the mesh first: the query holds its own reference.
    mesh.reset();

    navstar::Path path;  // empty: the first call asks for the count
    auto r = navstar::find_path(query.get(), {0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, path);
    expect_status(r, NAVSTAR_OK, "U-turn (retry from an empty vector)");
    expect_path(path, {{0.5f, 0, 2.5f}, {1, 0, 1}, {2, 0, 1}, {2.5f, 0, 2.5f}}, "U-turn around (1,1) and (2,1)");

    r = navstar::find_path(query.get(), {0.5f, 0, 2.5f}, {2.5f, 0, 0.5f}, path);
    expect_status(r, NAVSTAR_OK, "L-turn");
    expect_path(path, {{0.5f, 0, 2.5f}, {1, 0, 1}, {2.5f, 0, 0.5f}}, "L-turn at (1,1)");

    r = navstar::find_path(query.get(), {0.2f, 0, 0.2f}, {2.7f, 0, 0.8f}, path);
    expect_status(r, NAVSTAR_OK, "direct sight");
    expect_path(path, {{0.2f, 0, 0.2f}, {2.7f, 0, 0.8f}}, "direct sight gives 2 points");

    r = navstar::find_path(query.get(), {0.5f, 0, 2.5f}, {5.5f, 0, 0.5f}, path);
    expect_status(r, NAVSTAR_PARTIAL_PATH, "goal on the island");
    expect_path(path, {{0.5f, 0, 2.5f}, {1, 0, 1}, {3, 0, 0.5f}}, "partial path ends at (3, 0, 0.5)");

    // Snapping from 2 units above.
    r = navstar::find_path(query.get(), {0.5f, 2, 2.5f}, {2.5f, 0, 0.5f}, path);
    expect_status(r, NAVSTAR_OK, "start above the mesh");
    expect_path(path, {{0.5f, 0, 2.5f}, {1, 0, 1}, {2.5f, 0, 0.5f}}, "start is snapped onto the mesh");

    // The raw call: count only, and a prefix into a small buffer.
    {
        const float start[3] = {0.5f, 0, 2.5f}, goal[3] = {2.5f, 0, 2.5f};
        std::uint32_t count = 0;
        NavstarStatus s = navstar_find_path(query.get(), start, goal, nullptr, nullptr, 0, &count);
        check(s == NAVSTAR_BUFFER_TOO_SMALL && count == 4, "capacity 0: BUFFER_TOO_SMALL with count 4");
        std::array<float, 9> small{};
        small.fill(-1.0f);
        s = navstar_find_path(query.get(), start, goal, nullptr, small.data(), 2, &count);
        check(s == NAVSTAR_BUFFER_TOO_SMALL && count == 4 && small[0] == 0.5f && small[2] == 2.5f &&
                  small[3] == 1.0f && small[5] == 1.0f && small[6] == -1.0f,
              "capacity 2: the first 2 points, the full count 4, nothing past the capacity");
    }

    // Errors through the wrapper.
    {
        NavstarPathOptions options = navstar_path_options_default();
        options.allow_partial = 0;
        r = navstar::find_path(query.get(), {0.5f, 0, 2.5f}, {5.5f, 0, 0.5f}, path, &options);
        expect_error(r, NAVSTAR_ERROR_NO_PATH, "unreachable", "allow_partial = 0");
        check(path.empty(), "no points after an error");

        options = navstar_path_options_default();
        options.max_snap_distance = 1.0f;
        r = navstar::find_path(query.get(), {0.5f, 2, 2.5f}, {2.5f, 0, 0.5f}, path, &options);
        expect_error(r, NAVSTAR_ERROR_NOT_ON_MESH, "start point", "start 2 above, snap distance 1");

        r = navstar::find_path(query.get(), {std::nanf(""), 0, 0}, {2.5f, 0, 0.5f}, path);
        expect_error(r, NAVSTAR_ERROR_INVALID_ARGUMENT, "start has a non-finite", "NaN start");

        options = navstar_path_options_default();
        options.struct_size = 3;
        r = navstar::find_path(query.get(), {0.5f, 0, 2.5f}, {2.5f, 0, 0.5f}, path, &options);
        expect_error(r, NAVSTAR_ERROR_INVALID_ARGUMENT, "struct_size", "path options struct_size = 3");
    }
    check(navstar_last_error_message() != nullptr, "the message is never NULL");
}

void test_mesh_errors() {
    std::vector<float> vertices;
    std::vector<std::uint32_t> indices, sizes;
    u_mesh_data(vertices, indices, sizes);

    navstar::MeshPtr mesh;
    {
        auto bad = vertices;
        bad[3 * 5 + 1] = std::nanf("");
        expect_error(navstar::make_mesh(bad, indices, sizes, nullptr, mesh), NAVSTAR_ERROR_INVALID_MESH, "vertex 5",
                     "NaN in vertex 5");
        check(mesh == nullptr, "no mesh after an error");
    }
    {
        auto bad = indices;
        bad[4 * 2 + 1] = 20;
        expect_error(navstar::make_mesh(vertices, bad, sizes, nullptr, mesh), NAVSTAR_ERROR_INVALID_MESH, "polygon 2",
                     "index 20 out of range in polygon 2");
    }
    {
        // Vertex 5 = (1, 1) moved inward to (0.4, 0.4): polygon 0 becomes a dart.
        auto bad = vertices;
        bad[3 * 5 + 0] = 0.4f;
        bad[3 * 5 + 2] = 0.4f;
        expect_error(navstar::make_mesh(bad, indices, sizes, nullptr, mesh), NAVSTAR_ERROR_INVALID_MESH,
                     "polygon 0 is not convex", "vertex 5 pushed inside polygon 0");
    }
    {
        // Polygon 8 reuses the edge 1-5 that polygons 0 and 1 share.
        auto bad_indices = indices;
        auto bad_sizes = sizes;
        bad_indices.insert(bad_indices.end(), {1, 5, 18});
        bad_sizes.push_back(3);
        expect_error(navstar::make_mesh(vertices, bad_indices, bad_sizes, nullptr, mesh), NAVSTAR_ERROR_INVALID_MESH,
                     "more than two polygons (0, 1, 8)", "edge shared by polygons 0, 1 and 8");
    }
    {
        NavstarMeshOptions options = navstar_mesh_options_default();
        options.up_axis = 7;
        expect_error(navstar::make_mesh(vertices, indices, sizes, &options, mesh), NAVSTAR_ERROR_INVALID_ARGUMENT,
                     "up_axis is 7", "up_axis = 7");
        options = navstar_mesh_options_default();
        options.struct_size = 3;
        expect_error(navstar::make_mesh(vertices, indices, sizes, &options, mesh), NAVSTAR_ERROR_INVALID_ARGUMENT,
                     "struct_size is 3", "mesh options struct_size = 3");
    }
    {
        NavstarMesh *raw = nullptr;
        const NavstarStatus s = navstar_mesh_create(nullptr, 4, indices.data(), nullptr, 1, nullptr, &raw);
        expect_error(navstar::result_of(s), NAVSTAR_ERROR_NULL_ARGUMENT, "vertices is NULL", "NULL vertices");
        check(raw == nullptr, "*out_mesh stays NULL");
        const NavstarStatus z = navstar_mesh_create(vertices.data(), 20, nullptr, nullptr, 0, nullptr, &raw);
        expect_error(navstar::result_of(z), NAVSTAR_ERROR_INVALID_MESH, "zero polygons", "zero polygons");
    }
    // Freeing empty handles (NULL) is a no-op.
    navstar::MeshPtr empty_mesh;
    navstar::QueryPtr empty_query;
    empty_mesh.reset();
    empty_query.reset();
    navstar_mesh_free(nullptr);
    navstar_query_free(nullptr);
    check(true, "freeing NULL handles does nothing");
}

}  // namespace

int main() {
    std::printf("navstar version %u.%u.%u (C++ %ld)\n", navstar_version() >> 16, (navstar_version() >> 8) & 0xffu,
                navstar_version() & 0xffu, static_cast<long>(__cplusplus));
    test_paths();
    test_mesh_errors();
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed > 0 ? 1 : 0;
}
