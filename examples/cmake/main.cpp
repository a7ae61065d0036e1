// SPDX-License-Identifier: MIT
//
// navstar.hpp from a CMake project: meshes, queries, paths into vectors and fixed
// buffers, options, errors with their messages, ownership, threads, worlds of tiles.
// Self-checking: the last line is "N passed, M failed" and the exit status is non-zero
// when M > 0.
//
// Built with -fno-exceptions -fno-rtti -Wall -Wextra -Wpedantic -Wshadow -Wconversion
// -Wsign-conversion -Wold-style-cast -Werror (see CMakeLists.txt).
//
// The main mesh (seen from above, Y up, all at y = 0) is a U of unit quads plus an island:
//
//   z=3 +---+   +---+
//       | 5 |   | 6 |
//   z=2 +---+   +---+
//       | 3 |   | 4 |
//   z=1 +---+---+---+
//       | 0 | 1 | 2 |         +---+
//   z=0 +---+---+---+         | 7 |
//      x=0 x=1 x=2 x=3      x=5 x=6
#include <navstar.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

// Counts operator new calls, to show that steady-state find_path allocates nothing on
// the C++ side (the library's own no-allocation promise is tested in Rust).
static std::atomic<long> g_allocations{0};

void *operator new(std::size_t size) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void *p = std::malloc(size == 0 ? 1 : size)) {
        return p;
    }
    std::abort();
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }

// load_readback.cpp: loading files and reading meshes back; adds its counts.
void test_load_and_read_back(const std::string &scratch, int &total_passed, int &total_failed);

static_assert(!std::is_copy_constructible<navstar::Mesh>::value, "Mesh is move-only");
static_assert(!std::is_copy_assignable<navstar::Mesh>::value, "Mesh is move-only");
static_assert(std::is_nothrow_move_constructible<navstar::Mesh>::value, "Mesh moves without throwing");
static_assert(std::is_nothrow_move_assignable<navstar::Mesh>::value, "Mesh moves without throwing");
static_assert(!std::is_copy_constructible<navstar::Query>::value, "Query is move-only");
static_assert(std::is_nothrow_move_constructible<navstar::Query>::value, "Query moves without throwing");
static_assert(sizeof(navstar::Status) == 4, "Status is the C ABI's 32-bit status");

namespace {

using navstar::Status;
using navstar::Vec3;

int passed = 0;
int failed = 0;

void check(bool ok, const std::string &what) {
    std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
    (ok ? passed : failed)++;
}

void expect_status(const navstar::Result &got, Status want, const std::string &what) {
    check(got.status() == want, what + ": " + got.status_name() + " (want " + navstar::status_name(want) + ")" +
                                    (got.message().empty() ? "" : "; message: " + got.message()));
}

void expect_error(const navstar::Result &got, Status want, const char *culprit, const std::string &what) {
    expect_status(got, want, what);
    check(got.is_error() && !got.ok() && got.message().find(culprit) != std::string::npos,
          what + ": message \"" + got.message() + "\" names \"" + culprit + "\"");
}

bool near(const Vec3 &a, const Vec3 &b) {
    return std::fabs(a.x - b.x) <= 1e-4f && std::fabs(a.y - b.y) <= 1e-4f && std::fabs(a.z - b.z) <= 1e-4f;
}

void expect_path(const Vec3 *got, std::size_t count, const std::vector<Vec3> &want, const std::string &what) {
    bool same = count == want.size();
    for (std::size_t i = 0; same && i < count; i++) {
        same = near(got[i], want[i]);
    }
    check(same, what + ": " + std::to_string(count) + " points (want " + std::to_string(want.size()) + ")");
    if (!same) {
        for (std::size_t i = 0; i < count; i++) {
            std::printf("      got  (%g, %g, %g)\n", double(got[i].x), double(got[i].y), double(got[i].z));
        }
        for (const Vec3 &p : want) {
            std::printf("      want (%g, %g, %g)\n", double(p.x), double(p.y), double(p.z));
        }
    }
}

void expect_path(const std::vector<Vec3> &got, const std::vector<Vec3> &want, const std::string &what) {
    expect_path(got.data(), got.size(), want, what);
}

struct MeshData {
    std::vector<Vec3> vertices;
    std::vector<std::uint32_t> indices;
    std::vector<std::uint32_t> sizes;
};

// The U mesh: a 4x4 vertex grid (index 4 * z + x) and the island's corners 16..19.
MeshData u_mesh() {
    MeshData m;
    for (std::uint32_t z = 0; z < 4; z++) {
        for (std::uint32_t x = 0; x < 4; x++) {
            m.vertices.push_back({float(x), 0.0f, float(z)});
        }
    }
    m.vertices.insert(m.vertices.end(), {{5, 0, 0}, {6, 0, 0}, {6, 0, 1}, {5, 0, 1}});
    const std::array<std::array<std::uint32_t, 2>, 7> cells{{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {2, 1}, {0, 2}, {2, 2}}};
    for (const auto &cell : cells) {
        const std::uint32_t x = cell[0], z = cell[1];
        m.indices.insert(m.indices.end(), {4 * z + x, 4 * z + x + 1, 4 * (z + 1) + x + 1, 4 * (z + 1) + x});
        m.sizes.push_back(4);
    }
    m.indices.insert(m.indices.end(), {16, 17, 18, 19});
    m.sizes.push_back(4);
    return m;
}

const std::vector<Vec3> u_turn = {{0.5f, 0, 2.5f}, {1, 0, 1}, {2, 0, 1}, {2.5f, 0, 2.5f}};

void test_version() {
    const std::string v = navstar::version_string();
    check(navstar::version() > 0 && v.find('.') != std::string::npos, "version " + v);
}

void test_paths() {
    const MeshData data = u_mesh();
    navstar::Mesh mesh;
    expect_status(navstar::Mesh::create(data.vertices, data.indices, data.sizes, mesh), Status::ok, "create U mesh");
    check(bool(mesh) && mesh.polygon_count() == 8, "the mesh has 8 polygons");

    navstar::Query query;
    expect_status(navstar::Query::create(mesh, query), Status::ok, "create query");
    check(bool(query), "the query handle is set");
    mesh = navstar::Mesh();  // the query holds its own reference to the mesh
    check(!mesh && mesh.polygon_count() == 0, "the mesh is released first");

    std::vector<Vec3> path;  // empty: the wrapper grows it
    navstar::Result r = query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, path);
    expect_status(r, Status::ok, "U-turn into an empty vector");
    check(r.ok() && !r.is_error() && !r.partial() && r.message().empty(), "ok(), no message");
    expect_path(path, u_turn, "U-turn around (1,1) and (2,1)");

    r = query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 0.5f}, path);
    expect_status(r, Status::ok, "L-turn");
    expect_path(path, {{0.5f, 0, 2.5f}, {1, 0, 1}, {2.5f, 0, 0.5f}}, "L-turn at (1,1)");

    r = query.find_path({0.2f, 0, 0.2f}, {2.7f, 0, 0.8f}, path);
    expect_path(path, {{0.2f, 0, 0.2f}, {2.7f, 0, 0.8f}}, "direct sight gives 2 points");

    r = query.find_path({0.5f, 0, 2.5f}, {5.5f, 0, 0.5f}, path);
    expect_status(r, Status::partial_path, "goal on the island");
    check(r.ok() && r.partial() && !r.is_error(), "a partial path is ok() and partial()");
    expect_path(path, {{0.5f, 0, 2.5f}, {1, 0, 1}, {3, 0, 0.5f}}, "partial path ends at (3, 0, 0.5)");

    r = query.find_path({0.5f, 2, 2.5f}, {2.5f, 0, 0.5f}, path);
    expect_path(path, {{0.5f, 0, 2.5f}, {1, 0, 1}, {2.5f, 0, 0.5f}}, "start 2 above the mesh is snapped");

    // Steady state: the vector's capacity is reused; no allocation on the C++ side.
    {
        const Vec3 *storage = path.data();
        const long before = g_allocations.load();
        bool all_ok = true;
        for (int i = 0; i < 100; i++) {
            all_ok = query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, path).ok() && all_ok;
            all_ok = query.find_path({0.2f, 0, 0.2f}, {2.7f, 0, 0.8f}, path).ok() && all_ok;
        }
        const long allocations = g_allocations.load() - before;
        check(all_ok && path.data() == storage && allocations == 0,
              "200 paths into a reused vector: " + std::to_string(allocations) + " allocations");
    }

    // A fixed buffer: exact fit, too small, count only.
    {
        std::array<Vec3, 8> buffer{};
        std::uint32_t count = 0;
        r = query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, buffer, count);
        expect_status(r, Status::ok, "into std::array<Vec3, 8>");
        expect_path(buffer.data(), count, u_turn, "the buffer holds the U-turn");

        std::array<Vec3, 3> small{};
        small.fill({-7, -7, -7});
        r = query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, navstar::Span<Vec3>(small.data(), 2), count);
        expect_status(r, Status::buffer_too_small, "a 2-point buffer");
        check(!r.ok() && !r.is_error() && count == 4, "buffer_too_small is neither ok nor an error; count 4");
        expect_path(small.data(), 2, {u_turn[0], u_turn[1]}, "the first 2 points were written");
        check(near(small[2], {-7, -7, -7}), "nothing is written past the capacity");

        r = query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, navstar::Span<Vec3>(), count);
        check(r.status() == Status::buffer_too_small && count == 4, "an empty buffer asks for the count: 4");

        std::array<float, 12> xyz{};
        r = query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, xyz, count);
        check(r.ok() && count == 4 && xyz[3] == 1.0f && xyz[5] == 1.0f && xyz[9] == 2.5f,
              "into flat floats (std::array<float, 12>)");
    }

    // Errors through the wrapper carry the library's status and message.
    {
        navstar::PathOptions options;
        options.set_allow_partial(false);
        check(!options.allow_partial() && options.heuristic_weight() == 1.0f &&
                  std::isinf(options.max_snap_distance()) && options.strategy() == navstar::SearchStrategy::astar,
              "PathOptions defaults and setter");
        r = query.find_path({0.5f, 0, 2.5f}, {5.5f, 0, 0.5f}, path, &options);
        expect_error(r, Status::error_no_path, "unreachable", "allow_partial = false");
        check(path.empty(), "the vector is empty after an error");

        options = navstar::PathOptions().set_max_snap_distance(1.0f);
        r = query.find_path({0.5f, 2, 2.5f}, {2.5f, 0, 0.5f}, path, &options);
        expect_error(r, Status::error_not_on_mesh, "start point", "start 2 above, snap distance 1");

        r = query.find_path({std::nanf(""), 0, 0}, {2.5f, 0, 0.5f}, path);
        expect_error(r, Status::error_invalid_argument, "start has a non-finite", "NaN start");

        r = query.find_path({0.5f, 0, 2.5f}, {INFINITY, 0, 0}, path);
        expect_error(r, Status::error_invalid_argument, "goal has a non-finite", "infinite goal");

        options = navstar::PathOptions().set_heuristic_weight(-1.0f);
        r = query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 0.5f}, path, &options);
        expect_error(r, Status::error_invalid_argument, "heuristic_weight", "heuristic weight -1");

        // A disc of radius 0.25 goes round the U's inner corners (1, 1) and (2, 1),
        // keeping at least 0.25 from them; a negative radius is an error naming it.
        options = navstar::PathOptions().set_agent_radius(0.25f);
        check(options.agent_radius() == 0.25f, "PathOptions::set_agent_radius");
        r = query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, path, &options);
        check(r.ok() && !r.partial() && path.size() > 4, "a disc's U-turn has arc corners");
        auto distance = [](float px, float pz, const Vec3 &a, const Vec3 &b) {
            const double ex = b.x - a.x, ez = b.z - a.z, qx = px - a.x, qz = pz - a.z;
            const double len2 = ex * ex + ez * ez;
            const double t = len2 > 0 ? std::fmax(0.0, std::fmin(1.0, (qx * ex + qz * ez) / len2)) : 0.0;
            return std::hypot(qx - t * ex, qz - t * ez);
        };
        double least = 1e9;
        for (std::size_t i = 0; i + 1 < path.size(); i++) {
            least = std::fmin(least, std::fmin(distance(1, 1, path[i], path[i + 1]), distance(2, 1, path[i], path[i + 1])));
        }
        check(least >= 0.25 - 1e-4, "the disc keeps 0.25 from the inner corners");
        // The turns: one round each inner corner, in path order, every point of a turn
        // between 0.25 and the octagon's reach from its centre.
        std::vector<NavstarPathArc> arcs;
        expect_status(query.path_arcs(arcs), Status::ok, "path arcs");
        check(arcs.size() == 2 && arcs[0].centre[0] == 1 && arcs[0].centre[2] == 1 && arcs[1].centre[0] == 2 &&
                  arcs[1].centre[2] == 1 && arcs[0].radius == 0.25f && arcs[0].last_point < arcs[1].first_point &&
                  arcs[1].last_point + 1 < path.size(),
              "two turns, round (1, 1) then (2, 1)");
        for (const NavstarPathArc &arc : arcs) {
            for (std::uint32_t i = arc.first_point; i <= arc.last_point; i++) {
                const double d = std::hypot(path[i].x - arc.centre[0], path[i].z - arc.centre[2]);
                check(d >= 0.25 - 1e-4 && d <= 0.25 / std::cos(3.14159265358979 / 8) + 1e-4,
                      "a turn's point lies round its centre");
            }
        }
        options = navstar::PathOptions().set_agent_radius(-1.0f);
        r = query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, path, &options);
        expect_error(r, Status::error_invalid_argument, "agent_radius", "a negative radius");

        options = navstar::PathOptions();
        options.raw().struct_size = 3;
        r = query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 0.5f}, path, &options);
        expect_error(r, Status::error_invalid_argument, "struct_size", "path options struct_size = 3");

        // The message outlives later navstar calls: it was copied into the Result.
        const navstar::Result kept = query.find_path({std::nanf(""), 0, 0}, {0, 0, 0}, path);
        const navstar::Result later = query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, path);
        check(later.ok() && kept.message().find("non-finite") != std::string::npos,
              "a Result's message survives later calls");
    }

    // An empty Query (moved from) reports a NULL query, as the C ABI does.
    {
        navstar::Query moved = std::move(query);
        std::vector<Vec3> out;
        expect_error(query.find_path({0, 0, 0}, {1, 0, 1}, out), Status::error_null_argument, "query is NULL",
                     "find_path on a moved-from Query");
        check(moved.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, out).ok() && out.size() == 4,
              "the moved-to Query works");
    }
}

void test_mesh_errors() {
    const MeshData data = u_mesh();
    navstar::Mesh mesh;
    {
        auto bad = data.vertices;
        bad[5].y = std::nanf("");
        expect_error(navstar::Mesh::create(bad, data.indices, data.sizes, mesh), Status::error_invalid_mesh,
                     "vertex 5", "NaN in vertex 5");
        check(!mesh, "no mesh after an error");
    }
    {
        auto bad = data.indices;
        bad[4 * 2 + 1] = 20;
        expect_error(navstar::Mesh::create(data.vertices, bad, data.sizes, mesh), Status::error_invalid_mesh,
                     "polygon 2", "index 20 out of range in polygon 2");
    }
    {
        auto bad = data.vertices;
        bad[5] = {0.4f, 0, 0.4f};
        expect_error(navstar::Mesh::create(bad, data.indices, data.sizes, mesh), Status::error_invalid_mesh,
                     "polygon 0 is not convex", "vertex 5 pushed inside polygon 0");
    }
    {
        navstar::MeshOptions options;
        options.raw().up_axis = 7;
        expect_error(navstar::Mesh::create(data.vertices, data.indices, data.sizes, mesh, &options),
                     Status::error_invalid_argument, "up_axis is 7", "up_axis = 7");
        options = navstar::MeshOptions().set_weld_distance(-1.0f);
        expect_error(navstar::Mesh::create(data.vertices, data.indices, data.sizes, mesh, &options),
                     Status::error_invalid_argument, "weld_distance", "weld distance -1");
    }
    expect_error(navstar::Mesh::create(data.vertices, {}, {}, mesh), Status::error_invalid_mesh, "zero polygons",
                 "zero polygons");

    // Sizes the wrapper checks before the C call would read out of bounds.
    {
        auto sizes = data.sizes;
        sizes.back() = 5;
        expect_error(navstar::Mesh::create(data.vertices, data.indices, sizes, mesh), Status::error_invalid_argument,
                     "polygon_sizes add up to 33 corners but indices has 32", "sizes longer than indices");
        const std::array<std::uint32_t, 4> four{{0, 1, 2, 3}};
        expect_error(navstar::Mesh::create(data.vertices, four, {}, mesh), Status::error_invalid_argument,
                     "not a multiple of 3", "4 triangle indices");
        const std::array<float, 4> xyz{{0, 0, 0, 1}};
        const std::array<std::uint32_t, 3> triangle{{0, 1, 2}};
        expect_error(navstar::Mesh::create(xyz, triangle, {}, mesh), Status::error_invalid_argument, "xyz has 4 floats",
                     "4 coordinates");
        const std::array<std::uint8_t, 3> cells{{1, 1, 1}};
        expect_error(navstar::Mesh::create_from_grid(cells, 2, 2, 1.0f, {0, 0, 0}, mesh), Status::error_invalid_argument,
                     "width * height is 4", "grid of 3 cells for 2 x 2");
    }

    // A failed create empties a Mesh that held one.
    {
        navstar::Mesh held;
        expect_status(navstar::Mesh::create(data.vertices, data.indices, data.sizes, held), Status::ok, "create");
        auto bad = data.vertices;
        bad[0].x = std::nanf("");
        const navstar::Result r = navstar::Mesh::create(bad, data.indices, data.sizes, held);
        check(r.is_error() && !held, "a failed create leaves the Mesh empty");
    }

    // An empty mesh cannot make a query: the C ABI's NULL mesh.
    {
        navstar::Query query;
        expect_error(navstar::Query::create(navstar::Mesh(), query), Status::error_null_argument, "mesh is NULL",
                     "query from an empty mesh");
        check(!query, "no query after an error");
    }
}

void test_ownership() {
    const MeshData data = u_mesh();
    navstar::Mesh a;
    navstar::Mesh b;
    (void)navstar::Mesh::create(data.vertices, data.indices, data.sizes, a);
    const std::array<std::uint32_t, 4> quad{{0, 1, 5, 4}};
    const std::array<std::uint32_t, 1> quad_size{{4}};
    (void)navstar::Mesh::create(data.vertices, quad, quad_size, b);
    check(a.polygon_count() == 8 && b.polygon_count() == 1, "two meshes");
    b = std::move(a);  // frees b's old mesh
    check(!a && b.polygon_count() == 8, "move assignment transfers ownership");
    navstar::Mesh c(std::move(b));
    check(!b && c.polygon_count() == 8, "move construction transfers ownership");

    // Round trip through the C API.
    NavstarMesh *raw = c.release();
    check(!c && raw != nullptr && navstar_mesh_polygon_count(raw) == 8, "release() hands over the C handle");
    navstar::Mesh adopted(raw);
    navstar::Query query;
    (void)navstar::Query::create(adopted, query);
    NavstarQuery *raw_query = query.release();
    std::uint32_t count = 0;
    const float start[3] = {0.5f, 0, 2.5f}, goal[3] = {2.5f, 0, 2.5f};
    check(navstar_find_path(raw_query, start, goal, nullptr, nullptr, 0, &count) == NAVSTAR_BUFFER_TOO_SMALL &&
              count == 4,
          "the released NavstarQuery* works with the C API");
    query.reset(raw_query);
    adopted.reset();
    check(!adopted && bool(query), "reset() frees; the query lives on");
}

void test_grid_z_up_and_welding() {
    // A 3 x 3 grid with the centre cell blocked; Y up, origin (10, 1, 20), cells of 2.
    {
        const std::array<std::uint8_t, 9> cells{{1, 1, 1, 1, 0, 1, 1, 1, 1}};
        navstar::Mesh grid;
        expect_status(navstar::Mesh::create_from_grid(cells, 3, 3, 2.0f, {10, 1, 20}, grid), Status::ok,
                      "3x3 grid mesh");
        navstar::Query query;
        (void)navstar::Query::create(grid, query);
        std::vector<Vec3> path;
        const navstar::Result r = query.find_path({11, 1, 21}, {15, 1, 25}, path);
        const bool around = path.size() == 3 && (near(path[1], {14, 1, 22}) || near(path[1], {12, 1, 24}));
        check(r.ok() && around, "grid: around the blocked centre by one of its corners");
    }
    // The U mesh with Z up: (x, 0, z) becomes (x, z, 0).
    {
        MeshData data = u_mesh();
        for (Vec3 &v : data.vertices) {
            v = {v.x, v.z, 0.0f};
        }
        const navstar::MeshOptions options = navstar::MeshOptions().set_up_axis(navstar::UpAxis::z);
        check(options.up_axis() == navstar::UpAxis::z && options.weld_vertices() && options.weld_distance() == 0.0f,
              "MeshOptions defaults and setter");
        navstar::Mesh mesh;
        expect_status(navstar::Mesh::create(data.vertices, data.indices, data.sizes, mesh, &options), Status::ok,
                      "Z-up mesh");
        navstar::Query query;
        (void)navstar::Query::create(mesh, query);
        std::vector<Vec3> path;
        (void)query.find_path({0.5f, 2.5f, 0}, {2.5f, 2.5f, 0}, path);
        expect_path(path, {{0.5f, 2.5f, 0}, {1, 1, 0}, {2, 1, 0}, {2.5f, 2.5f, 0}}, "Z-up U-turn");
    }
    // Two triangles with their own copies of the shared corners (as engines export).
    {
        const std::vector<float> xyz = {0, 0, 0, 2, 0, 0, 0, 0, 2, /**/ 2, 0, 0, 2, 0, 2, 0, 0, 2};
        const std::vector<std::uint32_t> indices = {0, 1, 2, 3, 4, 5};
        navstar::Mesh welded;
        navstar::Mesh unwelded;
        const navstar::MeshOptions no_weld = navstar::MeshOptions().set_weld_vertices(false);
        (void)navstar::Mesh::create(xyz, indices, {}, welded);
        (void)navstar::Mesh::create(xyz, indices, {}, unwelded, &no_weld);
        navstar::Query q1;
        navstar::Query q2;
        (void)navstar::Query::create(welded, q1);
        (void)navstar::Query::create(unwelded, q2);
        std::vector<Vec3> path;
        check(q1.find_path({0.2f, 0, 0.2f}, {1.8f, 0, 1.8f}, path).status() == Status::ok,
              "welded triangles are neighbours");
        check(q2.find_path({0.2f, 0, 0.2f}, {1.8f, 0, 1.8f}, path).status() == Status::partial_path,
              "without welding they are not");
    }
}

void test_threads() {
    const MeshData data = u_mesh();
    navstar::Mesh mesh;
    (void)navstar::Mesh::create(data.vertices, data.indices, data.sizes, mesh);
    std::atomic<int> good{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; t++) {
        threads.emplace_back([&mesh, &good] {
            navstar::Query query;  // one per thread, the mesh shared
            if (!navstar::Query::create(mesh, query)) {
                return;
            }
            std::vector<Vec3> path;
            for (int i = 0; i < 250; i++) {
                if (query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, path).ok() && path.size() == 4 &&
                    near(path[1], {1, 0, 1}) && near(path[2], {2, 0, 1})) {
                    good.fetch_add(1);
                }
            }
        });
    }
    for (std::thread &thread : threads) {
        thread.join();
    }
    check(good.load() == 1000, "4 threads x 250 paths on one shared mesh: " + std::to_string(good.load()) + " right");
}


// Two unit squares (x 0..1 and 3..4, z 0..1) joined by a two-way link, and a third square
// (x 1..2, area 3) beside the first.
void test_filters_links_and_queries() {
    const std::vector<Vec3> vertices{{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}, {3, 0, 0},
                                     {4, 0, 0}, {4, 0, 1}, {3, 0, 1}, {2, 0, 0}, {2, 0, 1}};
    const std::vector<std::uint32_t> indices{0, 1, 2, 3, 4, 5, 6, 7, 1, 8, 9, 2};
    const std::vector<std::uint32_t> sizes{4, 4, 4};
    const std::vector<std::uint8_t> areas{0, 0, 3};
    NavstarOffMeshLink link = navstar_off_mesh_link_default();
    const float from[3] = {0.9f, 0, 0.5f}, to[3] = {3.1f, 0, 0.5f};
    for (int k = 0; k < 3; k++) {
        link.start[k] = from[k];
        link.end[k] = to[k];
    }
    const std::vector<NavstarOffMeshLink> links{link};
    navstar::Mesh mesh;
    expect_status(navstar::Mesh::create(vertices, indices, sizes, areas, {}, links, mesh), Status::ok,
                  "create with areas and a link");
    check(mesh.link_count() == 1, "one link");
    navstar::Query query;
    expect_status(navstar::Query::create(mesh, query), Status::ok, "query");

    std::vector<Vec3> path;
    expect_status(query.find_path({0.1f, 0, 0.5f}, {3.9f, 0, 0.5f}, path), Status::ok, "path over the link");
    expect_path(path, {{0.1f, 0, 0.5f}, {0.9f, 0, 0.5f}, {3.1f, 0, 0.5f}, {3.9f, 0, 0.5f}}, "path over the link");
    std::vector<NavstarCornerDetail> details;
    expect_status(query.path_details(details), Status::ok, "details");
    check(details.size() == 4 && details[0].flags == NAVSTAR_CORNER_START &&
              details[1].flags == NAVSTAR_CORNER_LINK_START && details[1].link == 0 &&
              details[2].flags == NAVSTAR_CORNER_LINK_END && details[3].flags == NAVSTAR_CORNER_END,
          "corner flags: start, link start (link 0), link end, end");
    NavstarPathInfo info{};
    expect_status(query.path_info(info), Status::ok, "info");
    check(info.point_count == 4 && info.polygon_count == 2 && std::fabs(info.cost - 3.8f) < 1e-4f,
          "info: 4 points, 2 polygons, cost 3.8");
    std::vector<std::uint32_t> corridor;
    expect_status(query.path_corridor(corridor), Status::ok, "corridor");
    check(corridor == std::vector<std::uint32_t>{0, 1}, "corridor 0, 1");

    // Area 3 costs 4: the cost of walking into the third square shows it.
    navstar::QueryFilter filter;
    filter.set_area_cost(3, 4.0f);
    navstar::PathOptions options;
    options.set_filter(&filter);
    expect_status(query.find_path({0.5f, 0, 0.5f}, {1.5f, 0, 0.5f}, path, &options), Status::ok, "costly area");
    expect_status(query.path_info(info), Status::ok, "info after the costly area");
    check(std::fabs(info.cost - 2.5f) < 1e-4f, "cost 0.5 + 4 * 0.5 = 2.5");

    // Close the third square: its goal snaps out of it, and is not reached; reopen it.
    std::uint32_t previous = 0, flags = 9, area = 9;
    expect_status(mesh.set_polygon_flags(2, 0, &previous), Status::ok, "close polygon 2");
    check(previous == 1, "previous flags 1");
    expect_status(mesh.polygon_info(2, flags, area), Status::ok, "polygon info");
    check(flags == 0 && area == 3, "flags 0, area 3");
    expect_status(query.find_path({0.5f, 0, 0.5f}, {1.5f, 0, 0.5f}, path), Status::partial_path,
                  "goal in the closed square");
    expect_path(path, {{0.5f, 0, 0.5f}, {1, 0, 0.5f}}, "goal snapped out of the closed square");
    expect_status(mesh.set_polygon_flags(2, 1), Status::ok, "reopen polygon 2");
    expect_error(mesh.set_polygon_flags(7, 0), Status::error_invalid_argument, "polygon 7", "polygon out of range");
    // Excluding flag 1 refuses every polygon.
    navstar::QueryFilter none;
    none.set_exclude_flags(1);
    options.set_filter(&none);
    expect_error(query.find_path({0.5f, 0, 0.5f}, {1.5f, 0, 0.5f}, path, &options), Status::error_not_on_mesh, "start",
                 "everything excluded");
    expect_error(query.path_details(details), Status::error_no_path, "no path", "no details after a failure");
    // Disable the link: the far square is out of reach.
    expect_status(mesh.set_link_flags(0, 0), Status::ok, "disable the link");
    expect_status(query.find_path({0.1f, 0, 0.5f}, {3.9f, 0, 0.5f}, path), Status::partial_path, "link disabled");
    expect_status(mesh.set_link_flags(0, 1), Status::ok, "enable the link");

    // Strategies all find the straight way.
    for (navstar::SearchStrategy strategy :
         {navstar::SearchStrategy::astar, navstar::SearchStrategy::dijkstra, navstar::SearchStrategy::greedy,
          navstar::SearchStrategy::breadth_first, navstar::SearchStrategy::depth_first}) {
        navstar::PathOptions with;
        with.set_strategy(strategy);
        expect_status(query.find_path({0.5f, 0, 0.2f}, {1.5f, 0, 0.8f}, path, &with), Status::ok, "strategy");
        expect_path(path, {{0.5f, 0, 0.2f}, {1.5f, 0, 0.8f}}, "strategy: straight");
    }

    // Nearest of three goals; reachable polygons.
    const std::vector<Vec3> goals{{1.8f, 0, 0.5f}, {0.1f, 0, 0.5f}, {3.5f, 0, 0.5f}};
    std::uint32_t goal = 99;
    expect_status(query.find_nearest_target({0.5f, 0, 0.5f}, goals, path, goal), Status::ok, "nearest target");
    check(goal == 1, "goal 1 is nearest");
    expect_path(path, {{0.5f, 0, 0.5f}, {0.1f, 0, 0.5f}}, "path to goal 1");
    std::vector<NavstarReachedPolygon> reached;
    expect_status(query.reachable_polygons({0.5f, 0, 0.5f}, 1.0f, reached), Status::ok, "reachable");
    check(reached.size() == 2 && reached[0].polygon == 0 && reached[0].parent == NAVSTAR_NO_POLYGON &&
              reached[1].polygon == 2 && std::fabs(reached[1].cost - 0.5f) < 1e-5f,
          "reachable within 1: polygons 0 and 2 (0.5 away)");

    // Nearest point, raycast, interpolation.
    Vec3 point{};
    std::uint32_t polygon = 99;
    float distance = -1;
    expect_status(mesh.nearest_point({1.5f, 2, 0.5f}, 5, point, polygon, distance), Status::ok, "nearest point");
    check(near(point, {1.5f, 0, 0.5f}) && polygon == 2 && std::fabs(distance - 2) < 1e-5f, "nearest point below");
    expect_error(mesh.nearest_point({1.5f, 2, 0.5f}, 1, point, polygon, distance), Status::error_not_on_mesh,
                 "2 away", "nothing within 1");
    NavstarRaycastHit hit{};
    expect_status(mesh.raycast({0.5f, 0, 0.5f}, {2.5f, 0, 0.5f}, hit), Status::ok, "raycast");
    check(hit.hit == 1 && std::fabs(hit.t - 0.75f) < 1e-6f && hit.normal[0] == -1.0f, "ray hits x = 2 at t 0.75");
    // The same for a disc of radius 0.25: it stops 0.25 before the wall x = 2, and its
    // nearest point keeps 0.25 from the wall z = 0.
    expect_status(mesh.raycast_for_agent({0.5f, 0, 0.5f}, {2.5f, 0, 0.5f}, 0.25f, hit), Status::ok,
                  "raycast for an agent");
    check(hit.hit == 1 && near(Vec3{hit.point[0], hit.point[1], hit.point[2]}, {1.75f, 0, 0.5f}) &&
              hit.normal[0] == -1.0f,
          "a disc of 0.25 stops at x = 1.75");
    expect_status(mesh.nearest_point_for_agent({0.5f, 1, 0.1f}, 5, 0.25f, point, polygon, distance), Status::ok,
                  "nearest point for an agent");
    check(near(point, {0.5f, 0, 0.25f}) && std::fabs(distance - std::sqrt(1.0f + 0.15f * 0.15f)) < 1e-5f,
          "the disc's nearest point keeps 0.25 from z = 0");
    expect_error(mesh.raycast_for_agent({0.5f, 0, 0.5f}, {2.5f, 0, 0.5f}, -1.0f, hit),
                 Status::error_invalid_argument, "agent_radius", "a negative agent radius");
    expect_error(mesh.nearest_point_for_agent({0.5f, 0, 0.5f}, 5, std::nanf(""), point, polygon, distance),
                 Status::error_invalid_argument, "agent_radius", "a NaN agent radius");
    std::vector<float> xs;
    for (const Vec3 &v : vertices) {
        xs.push_back(v.x);
    }
    check(mesh.vertex_count() == vertices.size(), "one value per input vertex");
    check(navstar::Mesh().vertex_count() == 0, "an empty Mesh has no vertices");
    float x = 0;
    expect_status(mesh.interpolate({1.25f, 0, 0.75f}, xs, navstar::Span<float>(&x, 1)), Status::ok, "interpolate");
    check(std::fabs(x - 1.25f) < 1e-5f, "interpolated x is 1.25");
}

}  // namespace

// A T-junction (an upper room over A-B, lower rooms under A-M and M-B) stitched by the
// degenerate connector A, M, B: refused by default, a walkable line when asked for.
void test_degenerate_connectors() {
    const std::vector<Vec3> vertices{{0, 0, 1}, {1, 0, 1}, {2, 0, 1}, {2, 0, 2},
                                     {0, 0, 2}, {0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    const std::vector<std::uint32_t> indices{0, 2, 3, 4, 5, 6, 1, 0, 6, 7, 2, 1, 0, 1, 2};
    const std::vector<std::uint32_t> sizes{4, 4, 4, 3};
    navstar::Mesh mesh;
    navstar::Result r = navstar::Mesh::create(vertices, indices, sizes, mesh);
    check(r.status() == Status::error_invalid_mesh && r.message().find("polygon 3") != std::string::npos,
          "a zero-area triangle is refused by default: " + r.message());
    const navstar::MeshOptions options = navstar::MeshOptions().set_allow_degenerate_connectors(true);
    check(options.allow_degenerate_connectors(), "the option reads back");
    expect_status(navstar::Mesh::create(vertices, indices, sizes, mesh, &options), Status::ok,
                  "created with the connector");
    navstar::Query query;
    expect_status(navstar::Query::create(mesh, query), Status::ok, "query");
    std::vector<Vec3> path;
    expect_status(query.find_path({0.5f, 0, 0.5f}, {1.8f, 0, 1.5f}, path), Status::ok, "across the line");
    expect_path(path, {{0.5f, 0, 0.5f}, {1.8f, 0, 1.5f}}, "straight across the connector");
}

// `scratch_path`: a file this program may write (next to it, so that parallel runs of
// its builds do not share it).
void test_save_load_and_query_options(const std::string &scratch_path) {
    const MeshData data = u_mesh();
    navstar::Mesh mesh;
    expect_status(navstar::Mesh::create(data.vertices, data.indices, data.sizes, mesh), Status::ok, "U mesh");

    // Into a vector, and the two-call pattern into a fixed buffer.
    std::vector<std::uint8_t> bytes;
    expect_status(mesh.save(bytes), Status::ok, "save into a vector");
    check(bytes.size() > 32 && bytes[0] != 0, "the vector holds the saved bytes");
    std::uint32_t size = 0;
    expect_status(mesh.save(navstar::Span<std::uint8_t>(), size), Status::buffer_too_small, "size alone");
    check(size == bytes.size(), "the size asked for is the vector's size");
    std::vector<std::uint8_t> fixed(size - 1);
    expect_status(mesh.save(fixed, size), Status::buffer_too_small, "one byte short");
    check(std::equal(fixed.begin(), fixed.end(), bytes.begin()), "one byte short: the prefix is written");
    fixed.resize(size);
    expect_status(mesh.save(fixed, size), Status::ok, "exact buffer");
    check(fixed == bytes, "the same bytes into a fixed buffer");

    // Back from bytes and from a file: the same mesh (it saves to the same bytes).
    navstar::Mesh loaded;
    expect_status(navstar::Mesh::load_bytes(bytes, loaded), Status::ok, "load bytes");
    std::vector<std::uint8_t> again;
    check(loaded.polygon_count() == 8 && loaded.save(again).ok() && again == bytes, "loaded bytes save the same");
    const std::string &path = scratch_path;
    expect_status(mesh.save_file(path.c_str()), Status::ok, "save to a file");
    navstar::Mesh from_file;
    expect_status(navstar::Mesh::load_file(path.c_str(), from_file), Status::ok, "load the file");
    check(from_file.polygon_count() == 8 && from_file.save(again).ok() && again == bytes, "the file holds the mesh");
    std::remove(path.c_str());
    navstar::Query query;
    expect_status(navstar::Query::create(from_file, query), Status::ok, "query on the loaded mesh");
    std::vector<Vec3> path_points;
    expect_status(query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, path_points), Status::ok, "U-turn, loaded");
    expect_path(path_points, u_turn, "the loaded mesh answers as the original");

    // Refusals leave the Mesh empty, with the library's message.
    bytes[40] = static_cast<std::uint8_t>(bytes[40] ^ 0xffu);
    navstar::Mesh damaged;
    expect_error(navstar::Mesh::load_bytes(bytes, damaged), Status::error_invalid_mesh, "checksum",
                 "a damaged byte is refused");
    check(!damaged, "no mesh after a refusal");
    expect_error(navstar::Mesh::load_file("/nonexistent/level.navstar", damaged), Status::error_invalid_argument,
                 "cannot read", "a missing file");
    expect_error(mesh.save_file("/nonexistent/dir/level.navstar"), Status::error_invalid_argument, "cannot open",
                 "an unwritable path");

    // Query options: the node limit and the scratch memory.
    check(navstar::QueryOptions().max_nodes() == 0, "no node limit by default");
    navstar::Query free_query;
    expect_status(navstar::Query::create(mesh, free_query, nullptr), Status::ok, "query with default options");
    check(free_query.scratch_bytes() == 0 && free_query.nodes_expanded() == 0, "a new query holds no search memory");
    expect_status(free_query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, path_points), Status::ok, "no limit");
    check(free_query.scratch_bytes() > 0, "searching grows the scratch memory");
    check(free_query.nodes_expanded() > 0, "the U-turn's search expanded nodes");
    // The landmark table: built on request, chosen per query; the U-turn is the same with it.
    bool has_table = false;
    expect_status(mesh.prepare_landmarks(&has_table), Status::ok, "prepare landmarks");
    check(has_table, "the U has a landmark table");
    expect_status(free_query.set_landmarks(NAVSTAR_LANDMARKS_ON), Status::ok, "landmarks on");
    expect_status(free_query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, path_points), Status::ok, "with landmarks");
    expect_error(free_query.set_landmarks(7), Status::error_invalid_argument, "mode", "landmark mode 7");
    expect_status(free_query.set_landmarks(NAVSTAR_LANDMARKS_BY_SIZE), Status::ok, "landmarks by size");
    // The fast lane: built on request, turned off per query; the exact U-turn is the same
    // either way, answered without a search from the index and with one without it.
    navstar::PathOptions exact;
    exact.set_mode(NAVSTAR_PATH_OPTIMAL);
    expect_status(free_query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, path_points, &exact), Status::ok,
                  "exact before the index");
    expect_path(path_points, u_turn, "the exact U-turn, searched");
    check(free_query.nodes_expanded() > 0, "a small mesh builds no index by itself");
    bool has_index = false;
    expect_status(mesh.prepare_fast_lane(&has_index), Status::ok, "prepare the fast lane");
    check(has_index, "the U has a fast-lane index");
    expect_status(free_query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, path_points, &exact), Status::ok,
                  "exact from the index");
    expect_path(path_points, u_turn, "the exact U-turn from the index");
    check(free_query.nodes_expanded() == 0, "the index answers without a search");
    expect_status(free_query.set_fast_lane(false), Status::ok, "fast lane off");
    expect_status(free_query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, path_points, &exact), Status::ok,
                  "exact without the lane");
    expect_path(path_points, u_turn, "the exact U-turn, searched again");
    check(free_query.nodes_expanded() > 0, "with the lane off the search runs");
    expect_status(free_query.set_fast_lane(true), Status::ok, "fast lane on");
    // The C call refuses a value other than 0 and 1 by name (set_fast_lane takes a bool).
    const navstar::Result bad_lane = navstar::Result::from_c(navstar_query_set_fast_lane(free_query.get(), 2));
    expect_error(bad_lane, Status::error_invalid_argument, "on", "fast lane value 2");
    const navstar::QueryOptions tiny = navstar::QueryOptions().set_max_nodes(1);
    navstar::Query limited;
    expect_status(navstar::Query::create(mesh, limited, &tiny), Status::ok, "query with a node limit");
    navstar::Result r = limited.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, path_points);
    expect_status(r, Status::partial_node_limit, "a search cut by the node limit");
    check(r.ok() && r.partial() && r.node_limit() && !r.is_error(), "a cut path is ok(), partial() and node_limit()");
    check(path_points.size() >= 2 && near(path_points.front(), {0.5f, 0, 2.5f}) &&
              !near(path_points.back(), {2.5f, 0, 2.5f}),
          "the cut path starts at the start and stops short of the goal");
    NavstarPathInfo info{};
    expect_status(limited.path_info(info), Status::ok, "path info");
    check(info.status == NAVSTAR_PARTIAL_NODE_LIMIT, "path info says the node limit cut it");
    NavstarQueryOptions bad = navstar_query_options_default();
    bad.struct_size = 4;
    const navstar::QueryOptions bad_options(bad);
    expect_error(navstar::Query::create(mesh, limited, &bad_options), Status::error_invalid_argument, "struct_size",
                 "a bad struct_size");
    check(!limited, "no query after an error");
}

// A world of two grid tiles that meet along x = 2 over z in [0, 1] (tile A is 2 x 2
// without its cell (1, 1); tile B a full 2 x 2 from x = 2): a path across the seam,
// references that go stale, replacing a tile, saving and loading (`scratch_path`: a file
// this program may write).
void test_world(const std::string &scratch_path) {
    static_assert(!std::is_copy_constructible<navstar::World>::value, "World is move-only");
    static_assert(std::is_nothrow_move_constructible<navstar::World>::value, "World moves without throwing");
    const std::array<std::uint8_t, 4> a_cells{{1, 1, 1, 0}};
    const std::array<std::uint8_t, 4> b_cells{{1, 1, 1, 1}};
    navstar::Mesh a;
    navstar::Mesh b;
    expect_status(navstar::Mesh::create_from_grid(a_cells, 2, 2, 1.0f, {0, 0, 0}, a), Status::ok, "tile A");
    expect_status(navstar::Mesh::create_from_grid(b_cells, 2, 2, 1.0f, {2, 0, 0}, b), Status::ok, "tile B");
    navstar::World world;
    const navstar::WorldOptions bad = navstar::WorldOptions().set_max_tiles(3);
    expect_error(navstar::World::create(world, &bad), Status::error_invalid_argument, "max_tiles",
                 "max_tiles must be a power of two");
    check(!world, "no world after an error");
    const navstar::WorldOptions options = navstar::WorldOptions().set_max_tiles(64);
    check(options.max_tiles() == 64 && options.up_axis() == navstar::UpAxis::y, "world options read back");
    expect_status(navstar::World::create(world, &options), Status::ok, "a world");
    navstar::TileRef ta{};
    navstar::TileRef tb{};
    expect_status(world.add_tile(a, ta), Status::ok, "add A");
    expect_status(world.add_tile(b, tb), Status::ok, "add B");
    check(world.tile_count() == 2, "two tiles");
    const std::uint32_t polygons = a.polygon_count() + b.polygon_count();
    bool has_tables = false;
    expect_status(world.prepare_landmarks(&has_tables), Status::ok, "the world's landmark tables");
    check(has_tables, "a world of two tiles with portals gets landmark tables");
    bool has_index = false;
    expect_status(world.prepare_fast_lane(&has_index), Status::ok, "the world's fast-lane index");
    check(has_index, "a world of two tiles gets a fast-lane index");

    navstar::Mesh snapshot;
    expect_status(world.snapshot(snapshot), Status::ok, "a snapshot");
    check(snapshot.polygon_count() == polygons, "the snapshot has every polygon of both tiles");
    navstar::Query query;
    expect_status(navstar::Query::create(snapshot, query), Status::ok, "a query on the snapshot");
    std::vector<Vec3> path;
    const std::vector<Vec3> across = {{0.5f, 0, 1.5f}, {1, 0, 1}, {2, 0, 1}, {3.5f, 0, 1.5f}};
    expect_status(query.find_path(across.front(), across.back(), path), Status::ok, "a path across the seam");
    expect_path(path, across, "turning at (1, 1) and (2, 1)");
    check(query.nodes_expanded() == 0, "the world's index answers the path across the seam");

    std::vector<std::uint32_t> ids;
    expect_status(snapshot.polygon_ids(ids), Status::ok, "the snapshot's polygon numbers");
    check(ids.size() == polygons, "one number per polygon");
    std::vector<std::uint64_t> refs(ids.size());
    for (std::size_t i = 0; i < ids.size(); i++) {
        expect_status(snapshot.polygon_ref(ids[i], refs[i]), Status::ok, "a polygon reference");
    }
    navstar::TileRef replaced{};
    expect_status(world.replace_tile(tb, b, replaced), Status::ok, "replace B by itself");
    check(replaced.slot == tb.slot && replaced.generation > tb.generation, "same slot, a later generation");
    expect_error(world.remove_tile(tb), Status::error_stale_reference, "generation", "the old B is stale");
    navstar::Mesh later;
    expect_status(world.snapshot(later), Status::ok, "a later snapshot");
    std::uint32_t stale = 0;
    for (std::size_t i = 0; i < ids.size(); i++) {
        std::uint32_t polygon = 0;
        const navstar::Result r = later.resolve_polygon_ref(refs[i], polygon);
        stale += r.status() == Status::error_stale_reference ? 1u : 0u;
        check(r.ok() ? polygon == ids[i] : polygon == NAVSTAR_NO_POLYGON, "a reference resolves or is stale");
    }
    check(stale == b.polygon_count(), "references into the replaced tile are stale, the others resolve");

    // Obstacles: a box across the seam's row blocks the way along z = 0.5, a removed
    // one gives the polygons back, bad shapes and stale references are named.
    const std::uint32_t before_obstacles = later.polygon_count();
    navstar::ObstacleRef wall{};
    expect_status(world.add_obstacle(navstar::Obstacle::box(3.0f, 1.0f, 0.25f, 2.0f), wall), Status::ok,
                  "a wall across B");
    check(world.obstacle_count() == 1, "one obstacle");
    navstar::Mesh walled;
    expect_status(world.snapshot(walled), Status::ok, "a snapshot with the wall");
    check(walled.polygon_count() > before_obstacles, "B is cut in two");
    navstar::Query walled_query;
    expect_status(navstar::Query::create(walled, walled_query), Status::ok, "a query on it");
    expect_status(walled_query.find_path({0.5f, 0, 0.5f}, {3.5f, 0, 0.5f}, path), Status::partial_path,
                  "the wall blocks the way");
    check(!path.empty() && std::fabs(path.back().x - 2.75f) < 1e-4f, "the path ends against the wall");
    expect_status(world.move_obstacle(wall, navstar::Obstacle::polygon({3.0f, 1.5f, 3.5f, 1.5f, 3.5f, 1.9f})),
                  Status::ok, "the wall becomes a small triangle");
    navstar::ObstacleRef refused{};
    expect_error(world.add_obstacle(navstar::Obstacle::polygon({0, 0, 2, 0, 1, 0.5f, 1, 2}), refused),
                 Status::error_invalid_argument, "convex", "a dart is not convex");
    expect_error(world.add_obstacle(navstar::Obstacle::circle(1, 1, -1), refused), Status::error_invalid_argument,
                 "radius", "a negative radius");
    check(refused.id == 0 && refused.world == 0, "no reference after an error");
    navstar::ObstacleRef moved = wall;
    expect_status(world.remove_obstacle(moved), Status::ok, "remove the obstacle");
    expect_error(world.remove_obstacle(moved), Status::error_stale_reference, "obstacle", "removed twice");
    navstar::Mesh restored;
    expect_status(world.snapshot(restored), Status::ok, "a snapshot without obstacles");
    check(restored.polygon_count() == before_obstacles && world.obstacle_count() == 0, "the polygons are back");

    std::vector<std::uint8_t> bytes;
    expect_status(world.save(bytes), Status::ok, "save the world");
    navstar::World loaded;
    std::uint32_t size = 0;
    expect_status(world.save(navstar::Span<std::uint8_t>(), size), Status::buffer_too_small, "the size alone");
    check(size == bytes.size(), "the size asked for is the vector's size");
    expect_status(navstar::World::load_bytes(bytes, loaded), Status::ok, "load it");
    std::vector<navstar::TileRef> listed;
    expect_status(loaded.tiles(listed), Status::ok, "list the loaded tiles");
    check(listed.size() == 2 && listed[0].slot == ta.slot && listed[1].generation == replaced.generation,
          "the loaded tiles keep their slots and generations");
    std::vector<std::uint8_t> again;
    expect_status(loaded.save(again), Status::ok, "save the loaded world");
    check(again == bytes, "it saves to the same bytes");
    bytes.back() ^= 1;
    expect_error(navstar::World::load_bytes(bytes, loaded), Status::error_invalid_mesh, "checksum", "a damaged file");
    expect_error(navstar::World::load_file("/nonexistent/world.navstar", loaded), Status::error_invalid_argument,
                 "cannot read", "a missing file");
    expect_error(world.save_file("/nonexistent/dir/world.navstar"), Status::error_invalid_argument, "cannot open",
                 "an unwritable path");
    expect_status(world.save_file(scratch_path.c_str()), Status::ok, "save to a file");
    navstar::World from_file;
    expect_status(navstar::World::load_file(scratch_path.c_str(), from_file), Status::ok, "load the file");
    check(from_file.tile_count() == 2, "the file holds the world");
    std::remove(scratch_path.c_str());
    check(!loaded, "no world after an error");
    expect_status(world.remove_tile(ta), Status::ok, "remove A");
    world.reset();
    expect_status(query.find_path(across.front(), across.back(), path), Status::ok,
                  "the snapshot outlives its world");

    // A whole mesh added in tiles: tiles A and B as one 4 x 2 grid, cut at side 2 (the
    // cells of A's missing corner stay missing), gives the two-tile world's path.
    const std::array<std::uint8_t, 8> whole_cells{{1, 1, 1, 1, 1, 0, 1, 1}};
    navstar::Mesh whole;
    expect_status(navstar::Mesh::create_from_grid(whole_cells, 4, 2, 1.0f, {0, 0, 0}, whole), Status::ok,
                  "the two tiles as one mesh");
    navstar::World cut;
    expect_status(navstar::World::create(cut, &options), Status::ok, "a world for the cut");
    std::vector<navstar::TileRef> cut_tiles;
    expect_error(cut.add_mesh_tiles(whole, -2.0f, cut_tiles), Status::error_invalid_argument, "tile size",
                 "a negative tile size");
    check(cut_tiles.empty() && cut.tile_count() == 0, "nothing added after an error");
    expect_status(cut.add_mesh_tiles(whole, 2.0f, cut_tiles), Status::ok, "the mesh in tiles of side 2");
    check(cut_tiles.size() == 2 && cut.tile_count() == 2, "two tiles and their references");
    navstar::Mesh cut_snapshot;
    expect_status(cut.snapshot(cut_snapshot), Status::ok, "a snapshot of the cut world");
    navstar::Query cut_query;
    expect_status(navstar::Query::create(cut_snapshot, cut_query), Status::ok, "a query on it");
    expect_status(cut_query.find_path(across.front(), across.back(), path), Status::ok, "a path across the cut");
    expect_path(path, across, "the cut world turns where the two tiles do");
}

// Moving along the surface, the distance to walls and random points, on the U mesh.
void test_agents() {
    const MeshData data = u_mesh();
    navstar::Mesh mesh;
    expect_status(navstar::Mesh::create(data.vertices, data.indices, data.sizes, mesh), Status::ok, "agents: mesh");
    navstar::Query query;
    expect_status(navstar::Query::create(mesh, query), Status::ok, "agents: query");

    // From square 0 up through square 3 into its wall x = 1 at z = 1.15, then along it.
    NavstarSurfaceMove moved{};
    std::vector<std::uint32_t> visited;
    navstar::Result r = mesh.move_along_surface(0, {0.5f, 0, 0.5f}, {1.5f, 0, 1.8f}, moved, visited);
    expect_status(r, Status::ok, "move_along_surface");
    check(near({moved.point[0], moved.point[1], moved.point[2]}, {1, 0, 1.8f}) && moved.polygon == 3 &&
              moved.walls == 1,
          "the move slides along the wall x = 1 to (1, 0, 1.8) in square 3");
    check(visited == std::vector<std::uint32_t>{0, 3}, "it walked through squares 0 and 3");
    NavstarSurfaceMove snapped{};
    r = mesh.move_along_surface(NAVSTAR_NO_POLYGON, {0.5f, 2, 0.5f}, {1.5f, 0, 1.8f}, snapped, visited);
    check(r.ok() && snapped.polygon == 3 && visited.size() == 2, "NAVSTAR_NO_POLYGON snaps the start");
    expect_error(mesh.move_along_surface(99, {0.5f, 0, 0.5f}, {1, 0, 1}, moved, visited),
                 Status::error_invalid_argument, "start_polygon 99", "a start polygon out of range");
    check(visited.empty(), "nothing visited after an error");

    NavstarWallDistance wall{};
    expect_status(query.distance_to_wall({0.3f, 0, 1.5f}, 5.0f, wall), Status::ok, "distance_to_wall");
    check(wall.found == 1 && std::fabs(wall.distance - 0.3f) < 1e-6f && wall.normal[0] == 1.0f &&
              near({wall.point[0], wall.point[1], wall.point[2]}, {0, 0, 1.5f}),
          "the wall x = 0 is 0.3 away, its normal +x");
    expect_status(query.distance_to_wall({0.3f, 0, 1.5f}, 0.1f, wall), Status::ok, "no wall within 0.1");
    check(wall.found == 0 && wall.polygon == NAVSTAR_NO_POLYGON, "found is 0 beyond the radius");
    expect_error(query.distance_to_wall({0.3f, 0, 1.5f}, -1.0f, wall), Status::error_invalid_argument, "radius",
                 "a negative radius");

    std::uint64_t first = 7, second = 7;
    Vec3 a{}, b{};
    std::uint32_t polygon = 99;
    r = mesh.random_point(first, a, &polygon);
    check(r.ok() && mesh.random_point(second, b).ok() && near(a, b) && first == second && first != 7 &&
              polygon < 8,
          "a seed gives the same random point, and the state moves on");
    bool on_island = true;
    for (int i = 0; i < 20; i++) {
        r = query.random_point_around({5.5f, 0, 0.5f}, 0.1f, first, a, &polygon);
        on_island = on_island && r.ok() && polygon == 7 && a.x >= 5 && a.x <= 6 && a.z >= 0 && a.z <= 1;
    }
    check(on_island, "random points around the island's centre stay on the island");
    navstar::QueryFilter none;
    none.set_include_flags(0);
    expect_error(mesh.random_point(first, a, nullptr, &none), Status::error_not_on_mesh, "no polygon",
                 "random_point with nothing admitted");
}

// The queries for agents that move, for a disc of radius 1 in a 10 x 10 room: the disc
// stops 1 short of a wall and slides, the wall is 4 from the centre, random points stay
// in [1, 9]^2.
void test_agents_with_radius() {
    const std::vector<Vec3> vertices{{0, 0, 0}, {10, 0, 0}, {10, 0, 10}, {0, 0, 10}};
    const std::vector<std::uint32_t> indices{0, 1, 2, 3};
    const std::vector<std::uint32_t> sizes{4};
    navstar::Mesh mesh;
    expect_status(navstar::Mesh::create(vertices, indices, sizes, mesh), Status::ok, "room: mesh");
    navstar::Query query;
    expect_status(navstar::Query::create(mesh, query), Status::ok, "room: query");

    NavstarSurfaceMove moved{};
    std::vector<std::uint32_t> visited;
    expect_status(mesh.move_along_surface_for_agent(0, {5, 0, 5}, {7, 0, 12}, 1.0f, moved, visited), Status::ok,
                  "move_along_surface_for_agent");
    check(near({moved.point[0], moved.point[1], moved.point[2]}, {7, 0, 9}) && moved.polygon == 0 &&
              moved.walls == 1 && visited == std::vector<std::uint32_t>{0},
          "a disc of 1 stops at z = 9 and slides to x = 7");
    expect_error(mesh.move_along_surface_for_agent(0, {5, 0, 5}, {7, 0, 12}, -1.0f, moved, visited),
                 Status::error_invalid_argument, "agent_radius", "a negative agent radius");

    NavstarWallDistance wall{};
    expect_status(query.distance_to_wall_for_agent({5, 0, 5}, INFINITY, 1.0f, wall), Status::ok,
                  "distance_to_wall_for_agent");
    check(wall.found == 1 && std::fabs(wall.distance - 4.0f) < 1e-4f, "the eroded wall is 4 from the centre");
    expect_error(query.distance_to_wall_for_agent({5, 0, 5}, INFINITY, std::nanf(""), wall),
                 Status::error_invalid_argument, "agent_radius", "a NaN agent radius");

    std::uint64_t state = 3;
    Vec3 p{};
    bool inside = true;
    for (int i = 0; i < 50; i++) {
        navstar::Result r = i % 2 == 0 ? mesh.random_point_for_agent(1.0f, state, p)
                                       : query.random_point_around_for_agent({0, 0, 0}, INFINITY, 1.0f, state, p);
        inside = inside && r.ok() && p.x >= 1 && p.x <= 9 && p.z >= 1 && p.z <= 9;
    }
    check(inside, "random points for a disc of 1 stay in [1, 9]^2");
    expect_error(mesh.random_point_for_agent(6.0f, state, p), Status::error_invalid_argument, "agent_radius",
                 "a disc wider than the room");

    navstar::Corridor corridor;
    expect_status(navstar::Corridor::create(mesh, {0}, {5, 0, 5}, {5, 0, 5}, corridor), Status::ok,
                  "room: corridor");
    expect_error(corridor.set_agent_radius(-1.0f), Status::error_invalid_argument, "agent_radius",
                 "a corridor refuses a negative radius");
    expect_status(corridor.set_agent_radius(1.0f), Status::ok, "corridor set_agent_radius");
    expect_status(corridor.move_position({5, 0, 12}), Status::ok, "corridor move for a disc");
    Vec3 here{}, there{};
    expect_status(corridor.position(here, there), Status::ok, "corridor position");
    check(near(here, {5, 0, 9}), "the corridor's disc stops 1 short of the wall z = 10");
}

// Time-sliced path searches on the U mesh: the same answer as find_path, a slice at a
// time; a partial path when finished early; the misuse errors.
void test_sliced() {
    const MeshData data = u_mesh();
    navstar::Mesh mesh;
    expect_status(navstar::Mesh::create(data.vertices, data.indices, data.sizes, mesh), Status::ok, "sliced: mesh");
    navstar::Query query;
    expect_status(navstar::Query::create(mesh, query), Status::ok, "sliced: query");
    // The funnel mode: its search round the U takes several expansions (the default,
    // NAVSTAR_PATH_AUTO, runs the exact mode here, with fewer).
    navstar::PathOptions funnel;
    funnel.set_mode(NAVSTAR_PATH_FUNNEL);
    std::vector<Vec3> whole;
    expect_status(query.find_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, whole, &funnel), Status::ok, "sliced: one-shot");
    check(whole.size() == u_turn.size(), "the one-shot path round the U");

    bool done = true;
    expect_status(query.begin_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, done, &funnel), Status::ok, "begin_path");
    check(!done, "the U needs a search");
    NavstarSliceProgress progress{};
    int slices = 0;
    std::uint32_t expansions = 0;
    do {
        expect_status(query.advance_path(1, progress), Status::ok, "advance_path");
        check(progress.expansions <= 1, "at most one expansion per slice");
        expansions += progress.expansions;
        slices++;
    } while (progress.state == NAVSTAR_SLICE_IN_PROGRESS && slices < 1000);
    check(slices > 2 && expansions > 2, "the search took several slices");
    std::array<Vec3, 8> points{};
    std::uint32_t count = 0;
    expect_status(query.finish_path(navstar::Span<Vec3>(points.data(), points.size()), count), Status::ok,
                  "finish_path");
    bool same = count == whole.size();
    for (std::uint32_t i = 0; same && i < count; i++) {
        same = points[i].x == whole[i].x && points[i].y == whole[i].y && points[i].z == whole[i].z;
    }
    check(same, "the sliced path equals the one-shot path bit for bit");

    // Finished early: the best partial path, from the start.
    expect_status(query.begin_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, done, &funnel), Status::ok, "begin_path again");
    expect_status(query.advance_path(1, progress), Status::ok, "one slice");
    expect_status(query.finish_path(navstar::Span<Vec3>(points.data(), points.size()), count),
                  Status::partial_path, "finish_path early");
    check(count >= 2 && near(points[0], {0.5f, 0, 2.5f}), "the partial path starts at the start");
    // A short buffer: the prefix and the whole count.
    expect_status(query.begin_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, done, &funnel), Status::ok, "begin_path short");
    expect_status(query.advance_path(1000, progress), Status::ok, "one big slice");
    check(progress.state == NAVSTAR_SLICE_DONE, "done in one big slice");
    expect_status(query.finish_path(navstar::Span<Vec3>(points.data(), 2), count), Status::buffer_too_small,
                  "finish_path into 2 points");
    check(count == whole.size(), "the whole count");
    NavstarPathInfo info{};
    check(query.path_info(info).ok() && info.point_count == whole.size(), "path_info describes the whole path");

    // Misuse.
    expect_error(query.advance_path(5, progress), Status::error_invalid_argument, "begin_path",
                 "advance_path with nothing begun");
    expect_error(query.advance_path(0, progress), Status::error_invalid_argument, "max_expansions",
                 "advance_path by 0");
    expect_status(query.begin_path({0.5f, 0, 2.5f}, {2.5f, 0, 2.5f}, done, &funnel), Status::ok, "begin_path to cancel");
    bool cancelled = false;
    check(query.cancel_path(&cancelled).ok() && cancelled, "cancel_path cancels");
    check(query.cancel_path(&cancelled).ok() && !cancelled, "nothing left to cancel");
    expect_error(query.finish_path(navstar::Span<Vec3>(points.data(), points.size()), count),
                 Status::error_invalid_argument, "begin_path", "finish_path after cancel");
}

void test_corridor() {
    const MeshData data = u_mesh();
    navstar::Mesh mesh;
    expect_status(navstar::Mesh::create(data.vertices, data.indices, data.sizes, mesh), Status::ok, "corridor: mesh");
    navstar::Query query;
    expect_status(navstar::Query::create(mesh, query), Status::ok, "corridor: query");
    std::vector<Vec3> path;
    expect_status(query.find_path(u_turn.front(), u_turn.back(), path), Status::ok, "corridor: U-turn");
    navstar::Corridor corridor;
    expect_status(navstar::Corridor::from_query(query, u_turn.front(), u_turn.back(), corridor), Status::ok,
                  "corridor from the query's path");
    std::vector<std::uint32_t> polygons;
    expect_status(corridor.polygons(polygons), Status::ok, "corridor polygons");
    check(polygons == std::vector<std::uint32_t>{5, 3, 0, 1, 2, 4, 6}, "the corridor goes round the U");
    std::vector<Vec3> corners;
    std::vector<std::uint32_t> flags;
    expect_status(corridor.corners(corners, flags), Status::ok, "corridor corners");
    expect_path(corners, std::vector<Vec3>(u_turn.begin() + 1, u_turn.end()), "the corners are the path's");
    check(flags.size() == 3 && flags[2] == NAVSTAR_CORNER_END && flags[0] == 0, "the target is flagged END");
    bool on = false;
    expect_status(corridor.move_position({1, 0, 1}, &on), Status::ok, "a step to the first corner");
    Vec3 position{}, target{};
    expect_status(corridor.position(position, target), Status::ok, "corridor position");
    check(on && near(position, {1, 0, 1}) && near(target, u_turn.back()), "the agent is at the first corner");
    expect_status(corridor.corners(corners, flags), Status::ok, "corners after the step");
    expect_path(corners, std::vector<Vec3>(u_turn.begin() + 2, u_turn.end()), "one corner left before the target");
    // Square 4 (x 2..3, z 1..2) closes: nothing else leads to the target.
    expect_status(navstar::Result::from_c(navstar_mesh_set_polygon_flags(mesh.get(), 4, 0, nullptr)), Status::ok,
                  "close square 4");
    bool valid = true;
    expect_status(corridor.is_valid(16, valid), Status::ok, "is_valid");
    check(!valid, "the corridor is no longer valid");
    std::uint32_t outcome = 99, kept = 99;
    expect_status(corridor.repair(query, outcome, &kept), Status::ok, "repair");
    check(outcome == NAVSTAR_REPAIR_CUT_OFF && kept >= 1, "the target is cut off");
    expect_status(corridor.is_valid(16, valid), Status::ok, "is_valid after the repair");
    check(valid, "the repaired corridor is valid");
    expect_error(navstar::Corridor::create(mesh, {0, 99}, {0.5f, 0, 0.5f}, {1.5f, 0, 0.5f}, corridor),
                 Status::error_invalid_argument, "polygons[1] = 99", "a polygon out of range");
    check(!corridor, "no corridor after an error");
}

int main(int argc, char **argv) {
    std::printf("navstar %s from C++ %ld\n", navstar::version_string().c_str(), static_cast<long>(__cplusplus));
    test_version();
    test_paths();
    test_mesh_errors();
    test_ownership();
    test_grid_z_up_and_welding();
    test_threads();
    test_filters_links_and_queries();
    test_degenerate_connectors();
    test_agents();
    test_agents_with_radius();
    test_sliced();
    test_corridor();
    test_save_load_and_query_options(std::string(argc > 0 ? argv[0] : "navstar_cpp_example") + ".navstar");
    test_world(std::string(argc > 0 ? argv[0] : "navstar_cpp_example") + ".world.navstar");
    test_load_and_read_back(std::string(argc > 0 ? argv[0] : "navstar_cpp_example") + ".obj", passed, failed);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed > 0 ? 1 : 0;
}
