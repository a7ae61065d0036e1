// SPDX-License-Identifier: MIT
//
// navstar.hpp: loading meshes from files and bytes (Mesh::load, Mesh::load_obj, ...)
// and reading them back (vertices, corners, neighbours, areas, flags, islands, bounds),
// on a mesh and on a World snapshot. Part of navstar_cpp_example (main.cpp calls
// test_load_and_read_back and adds its counts).
//
// The OBJ is two unit squares side by side (Y up, y = 0):
//
//   z=1 3-------2-------5
//       |   0   |   1   |
//   z=0 0-------1-------4        (vertex numbers from 0)
//      x=0     x=1     x=2
#include <navstar.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

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
    check(got.message().find(culprit) != std::string::npos,
          what + ": message \"" + got.message() + "\" names \"" + culprit + "\"");
}

const char kTwoSquares[] =
    "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 2 0 0\nv 2 0 1\n"
    "f 1 4 3 2\nf 2 3 6 5\n";

// The bytes of a C string, without its NUL.
navstar::Span<const std::uint8_t> bytes_of(const char *text) {
    return navstar::Span<const std::uint8_t>(reinterpret_cast<const std::uint8_t *>(text), std::strlen(text));
}

bool same(const Vec3 &a, const Vec3 &b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

bool write_text(const std::string &path, const char *text) {
    std::FILE *file = std::fopen(path.c_str(), "wb");
    if (file == nullptr) {
        return false;
    }
    const std::string s(text);
    const bool written = std::fwrite(s.data(), 1, s.size(), file) == s.size();
    return std::fclose(file) == 0 && written;
}

void read_back(const navstar::Mesh &mesh) {
    std::vector<Vec3> vertices;
    std::vector<std::uint32_t> sizes, corners, neighbours, flags, islands;
    std::vector<std::uint8_t> areas;
    expect_status(mesh.vertices(vertices), Status::ok, "vertices");
    check(vertices.size() == 6 && same(vertices[4], Vec3{2, 0, 0}), "6 vertices, vertex 4 at (2, 0, 0)");
    expect_status(mesh.polygon_sizes(sizes), Status::ok, "polygon sizes");
    check(sizes == std::vector<std::uint32_t>{4, 4}, "two quads");
    expect_status(mesh.polygon_corners(corners), Status::ok, "corners");
    expect_status(mesh.polygon_neighbours(neighbours), Status::ok, "neighbours");
    check(corners.size() == 8 && neighbours.size() == 8, "8 corners, 8 neighbours");
    int shared = 0;
    for (std::size_t i = 0; i < corners.size(); i++) {
        const std::size_t first = i < 4 ? 0 : 4;
        const std::uint32_t a = corners[i];
        const std::uint32_t b = corners[first + (i - first + 1) % 4];
        const bool between = (a == 1 && b == 2) || (a == 2 && b == 1);
        const std::uint32_t want = between ? (i < 4 ? 1u : 0u) : navstar::Mesh::no_polygon;
        shared += between ? 1 : 0;
        check(neighbours[i] == want, "corner " + std::to_string(i) + ": neighbour " + std::to_string(neighbours[i]));
    }
    check(shared == 2, "the edge 1-2 is shared, seen from both sides");
    expect_status(mesh.polygon_areas(areas), Status::ok, "areas");
    check(areas == std::vector<std::uint8_t>{0, 0}, "default areas");
    expect_status(mesh.set_polygon_flags(0, 6), Status::ok, "set flags");
    expect_status(mesh.polygon_flags(flags), Status::ok, "flags");
    check(flags == std::vector<std::uint32_t>{6, 1}, "flags as they are now");
    expect_status(mesh.set_polygon_flags(0, 1), Status::ok, "flags back");
    expect_status(mesh.polygon_islands(islands), Status::ok, "islands");
    check(islands == std::vector<std::uint32_t>{0, 0} && mesh.island_count() == 1, "one island");
    Vec3 min{}, max{};
    expect_status(mesh.bounds(min, max), Status::ok, "bounds");
    check(same(min, Vec3{0, 0, 0}) && same(max, Vec3{2, 0, 1}), "bounds (0, 0, 0) to (2, 0, 1)");
    std::vector<Vec3> points;
    expect_status(mesh.polygon_points(1, points), Status::ok, "points of polygon 1");
    bool match = points.size() == 4;
    for (std::size_t i = 0; match && i < 4; i++) {
        match = same(points[i], vertices[corners[4 + i]]);
    }
    check(match, "polygon 1's points are its corners' vertices");
    expect_error(mesh.polygon_points(5, points), Status::error_invalid_argument, "polygon 5", "polygon 5");
    check(points.empty(), "nothing after an error");
}

void snapshot_read_back(const navstar::Mesh &mesh) {
    // A copy two units along x, rebuilt from the read-back, beside the original.
    std::vector<Vec3> vertices;
    std::vector<std::uint32_t> sizes, corners;
    expect_status(mesh.vertices(vertices), Status::ok, "vertices");
    expect_status(mesh.polygon_sizes(sizes), Status::ok, "sizes");
    expect_status(mesh.polygon_corners(corners), Status::ok, "corners");
    for (Vec3 &v : vertices) {
        v.x += 2;
    }
    navstar::Mesh moved;
    expect_status(navstar::Mesh::create(vertices, corners, sizes, moved), Status::ok, "a mesh from the read-back");
    navstar::World world;
    expect_status(navstar::World::create(world), Status::ok, "world");
    navstar::TileRef tile{};
    expect_status(world.add_tile(mesh, tile), Status::ok, "first tile");
    expect_status(world.add_tile(moved, tile), Status::ok, "second tile");
    navstar::Mesh snapshot;
    expect_status(world.snapshot(snapshot), Status::ok, "snapshot");
    std::vector<std::uint32_t> ids, neighbours;
    std::vector<Vec3> all;
    expect_status(snapshot.polygon_ids(ids), Status::ok, "ids");
    expect_status(snapshot.vertices(all), Status::ok, "snapshot vertices");
    expect_status(snapshot.polygon_corners(corners), Status::ok, "snapshot corners");
    expect_status(snapshot.polygon_neighbours(neighbours), Status::ok, "snapshot neighbours");
    check(ids.size() == 4 && all.size() == 12 && corners.size() == 16, "4 polygons, 12 vertices, 16 corners");
    bool across = false;
    for (std::size_t i = 0; i < 8 && ids.size() == 4; i++) {
        across = across || (neighbours[i] == ids[2] && all[corners[i]].x == 2);
    }
    check(across, "the first tile's polygon 1 has the second tile's polygon " + std::to_string(ids.size() == 4 ? ids[2] : 0) +
                      " across x = 2");
    std::vector<Vec3> points;
    expect_status(snapshot.polygon_points(ids.back(), points), Status::ok, "points by snapshot id");
    check(points.size() == 4 && points[0].x >= 2, "they lie in the second tile");
}

}  // namespace

void test_load_and_read_back(const std::string &scratch, int &total_passed, int &total_failed) {
    navstar::Mesh mesh;
    const navstar::Span<const std::uint8_t> bytes = bytes_of(kTwoSquares);
    expect_status(navstar::Mesh::load(bytes, navstar::MeshFormat::obj, mesh), Status::ok, "OBJ from bytes");
    check(mesh.polygon_count() == 2, "two polygons");
    read_back(mesh);
    snapshot_read_back(mesh);

    check(write_text(scratch, kTwoSquares), "write " + scratch);
    navstar::Mesh from_file;
    expect_status(navstar::Mesh::load(scratch.c_str(), from_file), Status::ok, "OBJ file by extension");
    check(from_file.polygon_count() == 2, "the file's two polygons");
    navstar::MeshOptions apart;
    apart.set_weld_vertices(false);
    expect_status(navstar::Mesh::load_obj(scratch.c_str(), from_file, &apart), Status::ok, "load_obj with options");
    expect_error(navstar::Mesh::load_polyanya_mesh(scratch.c_str(), from_file), Status::error_invalid_mesh, "line 1",
                 "an OBJ read as a Polyanya mesh");
    check(!from_file, "no mesh after an error");
    std::remove(scratch.c_str());
    expect_error(navstar::Mesh::load(scratch.c_str(), from_file), Status::error_invalid_argument, "cannot read",
                 "a missing file");
    expect_error(navstar::Mesh::load(nullptr, from_file), Status::error_null_argument, "path", "a NULL path");
    const navstar::Span<const std::uint8_t> bad = bytes_of("v 0 0\n");
    expect_error(navstar::Mesh::load(bad, navstar::MeshFormat::obj, from_file), Status::error_invalid_mesh,
                 "line 1: ", "a bad OBJ line");
    expect_error(navstar::Mesh::load(bytes, navstar::MeshFormat::automatic, from_file),
                 Status::error_invalid_argument, "NAVSTAR_FORMAT_AUTO", "AUTO for bytes");
    const navstar::Span<const std::uint8_t> map = bytes_of("type octile\nheight 1\nwidth 3\nmap\n.@.\n");
    expect_status(navstar::Mesh::load(map, navstar::MeshFormat::movingai_map, from_file), Status::ok, "a grid map");
    check(from_file.polygon_count() == 2 && from_file.island_count() == 2, "two cells apart: two islands");
    total_passed += passed;
    total_failed += failed;
}
