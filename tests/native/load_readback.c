/*
 * Loading meshes and reading them back from C99: a self-checking caller of
 * navstar_mesh_load, navstar_mesh_load_bytes and the read-back functions of
 * include/navstar.h (navstar_mesh_vertices, navstar_mesh_polygon_*, navstar_mesh_bounds).
 * Run it from the repository root: it reads data/arena.mesh and README.md.
 *
 * The OBJ below is two unit squares side by side (Y up, y = 0), seen from above:
 *
 *   z=1 4-------3-------6
 *       |   0   |   1   |
 *   z=0 1-------2-------5        (OBJ vertex numbers, from 1)
 *      x=0     x=1     x=2
 *
 * Each check prints one line; the last line is "N passed, M failed" and the exit status
 * is non-zero if M > 0.
 */
#include "navstar.h"

#include "checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char TWO_SQUARES[] =
    "# two unit squares\n"
    "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 2 0 0\nv 2 0 1\n"
    "f 1 4 3 2\nf 2 3 6 5\n";

#define SENTINEL 0xA5A5A5A5u
#define NO_FLOAT -12345.0f

static NavstarMesh *load_text(const char *text, uint32_t format, NavstarStatus want, const char *what) {
    NavstarMesh *mesh = NULL;
    NavstarStatus s = navstar_mesh_load_bytes((const uint8_t *)text, (uint32_t)strlen(text), format, NULL, &mesh);
    expect_status(s, want, what);
    return mesh;
}

/* The read-back of the two squares: known answers, the too-small rule, errors. */
static void read_back_two_squares(const NavstarMesh *mesh) {
    uint32_t count = 99;
    float vertices[3 * 8];
    uint32_t sizes[2], corners[8 + 1], neighbours[8], flags[2], islands[2], ids[2];
    uint8_t areas[2];
    float min[3], max[3];
    uint32_t i, p, walls = 0, across = 0;

    expect_status(navstar_mesh_vertices(mesh, NULL, 0, &count), NAVSTAR_BUFFER_TOO_SMALL, "vertex count alone");
    check(count == 6, "6 vertices (got %u)", count);
    for (i = 0; i < 3 * 8; i++) {
        vertices[i] = NO_FLOAT;
    }
    expect_status(navstar_mesh_vertices(mesh, vertices, 8, &count), NAVSTAR_OK, "vertices");
    check(vertices[3 * 4 + 0] == 2.0f && vertices[3 * 4 + 2] == 0.0f, "vertex 4 is (2, 0, 0)");
    check(vertices[3 * 6] == NO_FLOAT, "nothing written after the 6 vertices");

    expect_status(navstar_mesh_polygon_sizes(mesh, sizes, 2, &count), NAVSTAR_OK, "polygon sizes");
    check(count == 2 && sizes[0] == 4 && sizes[1] == 4, "two polygons of 4 corners");

    /* Too small: 3 of the 8 corners written, the 4th untouched, the count reported. */
    for (i = 0; i < 9; i++) {
        corners[i] = SENTINEL;
    }
    expect_status(navstar_mesh_polygon_corners(mesh, corners, 3, &count), NAVSTAR_BUFFER_TOO_SMALL,
                  "corners into room for 3");
    check(count == 8 && corners[2] != SENTINEL && corners[3] == SENTINEL, "prefix of 3, count 8");
    expect_status(navstar_mesh_polygon_corners(mesh, corners, 8, &count), NAVSTAR_OK, "corners");
    check(corners[8] == SENTINEL, "nothing written after 8 corners");

    /* Neighbours: the edge between vertices 1 and 2 (from 0) joins the squares. */
    expect_status(navstar_mesh_polygon_neighbours(mesh, neighbours, 8, &count), NAVSTAR_OK, "neighbours");
    for (p = 0; p < 2; p++) {
        for (i = 0; i < 4; i++) {
            uint32_t a = corners[4 * p + i], b = corners[4 * p + (i + 1) % 4];
            uint32_t n = neighbours[4 * p + i];
            int shared = (a == 1 && b == 2) || (a == 2 && b == 1);
            if (n == NAVSTAR_NO_POLYGON) {
                walls++;
                check(!shared, "polygon %u: the shared edge %u-%u is not a wall", p, a, b);
            } else {
                across++;
                check(shared && n == 1 - p, "polygon %u: edge %u-%u leads to polygon %u", p, a, b, n);
            }
        }
    }
    check(walls == 6 && across == 2, "6 walls and 2 shared edge sides (got %u, %u)", walls, across);

    expect_status(navstar_mesh_polygon_areas(mesh, areas, 2, &count), NAVSTAR_OK, "areas");
    check(areas[0] == 0 && areas[1] == 0, "default area 0");
    expect_status(navstar_mesh_set_polygon_flags(mesh, 1, 0x10, NULL), NAVSTAR_OK, "set flags");
    expect_status(navstar_mesh_polygon_flags(mesh, flags, 2, &count), NAVSTAR_OK, "flags");
    check(flags[0] == 1 && flags[1] == 0x10, "flags as they are now (1, 0x10)");
    expect_status(navstar_mesh_polygon_flags(mesh, flags, 2, &count), NAVSTAR_OK, "flags");
    expect_status(navstar_mesh_set_polygon_flags(mesh, 1, 1, NULL), NAVSTAR_OK, "flags back");
    expect_status(navstar_mesh_polygon_islands(mesh, islands, 2, &count), NAVSTAR_OK, "islands");
    check(islands[0] == 0 && islands[1] == 0 && navstar_mesh_island_count(mesh) == 1, "one island");
    expect_status(navstar_mesh_polygon_ids(mesh, ids, 2, &count), NAVSTAR_OK, "polygon ids");
    check(ids[0] == 0 && ids[1] == 1, "ids 0 and 1");

    expect_status(navstar_mesh_bounds(mesh, min, max), NAVSTAR_OK, "bounds");
    check(min[0] == 0.0f && min[1] == 0.0f && min[2] == 0.0f && max[0] == 2.0f && max[1] == 0.0f && max[2] == 1.0f,
          "bounds (0, 0, 0) to (2, 0, 1)");

    {
        float points[3 * 4];
        expect_status(navstar_mesh_polygon_points(mesh, 1, points, 4, &count), NAVSTAR_OK, "points of polygon 1");
        for (i = 0; i < 4; i++) {
            const float *v = &vertices[3 * corners[4 + i]];
            check(points[3 * i] == v[0] && points[3 * i + 1] == v[1] && points[3 * i + 2] == v[2],
                  "point %u of polygon 1 is vertex %u", i, corners[4 + i]);
        }
        expect_error(navstar_mesh_polygon_points(mesh, 99, points, 4, &count), NAVSTAR_ERROR_INVALID_ARGUMENT,
                     "polygon 99", "points of a polygon the mesh lacks");
        check(count == 0, "count 0 after an error");
    }
    expect_error(navstar_mesh_polygon_corners(NULL, corners, 8, &count), NAVSTAR_ERROR_NULL_ARGUMENT, "mesh",
                 "corners of NULL");
    expect_error(navstar_mesh_polygon_corners(mesh, NULL, 8, &count), NAVSTAR_ERROR_NULL_ARGUMENT, "out_corners",
                 "corners into NULL with capacity 8");
    expect_error(navstar_mesh_bounds(mesh, NULL, max), NAVSTAR_ERROR_NULL_ARGUMENT, "out_min", "bounds into NULL");
}

/* A second copy of the squares, two units along x, rebuilt from the read-back arrays
 * (vertices moved), and a world of both: polygon ids with slots, vertices numbered tile
 * after tile, and a neighbour across the seam at x = 2. */
static void world_of_copies(const NavstarMesh *mesh) {
    float vertices[3 * 6];
    uint32_t sizes[2], corners[8], count = 0, i;
    NavstarMesh *moved = NULL, *snapshot = NULL;
    NavstarWorld *world = NULL;
    NavstarTileRef tile;
    uint32_t ids[4], snap_corners[16], snap_neighbours[16], snap_sizes[4];
    float snap_vertices[3 * 12];
    int seam = 0;

    navstar_mesh_vertices(mesh, vertices, 6, &count);
    navstar_mesh_polygon_sizes(mesh, sizes, 2, &count);
    navstar_mesh_polygon_corners(mesh, corners, 8, &count);
    for (i = 0; i < 6; i++) {
        vertices[3 * i] += 2.0f;
    }
    expect_status(navstar_mesh_create(vertices, 6, corners, sizes, 2, NULL, &moved), NAVSTAR_OK,
                  "a mesh from the read-back arrays");
    expect_status(navstar_world_create(NULL, &world), NAVSTAR_OK, "world");
    expect_status(navstar_world_add_tile(world, mesh, &tile), NAVSTAR_OK, "first tile");
    expect_status(navstar_world_add_tile(world, moved, &tile), NAVSTAR_OK, "second tile");
    expect_status(navstar_world_snapshot(world, &snapshot), NAVSTAR_OK, "snapshot");

    expect_status(navstar_mesh_polygon_ids(snapshot, ids, 4, &count), NAVSTAR_OK, "snapshot ids");
    check(count == 4 && ids[2] > 3, "4 polygons, the second tile's ids encode its slot (%u)", ids[2]);
    expect_status(navstar_mesh_vertices(snapshot, snap_vertices, 12, &count), NAVSTAR_OK, "snapshot vertices");
    check(count == 12 && snap_vertices[3 * 6] >= 2.0f, "12 vertices, the second tile's after the first's");
    expect_status(navstar_mesh_polygon_sizes(snapshot, snap_sizes, 4, &count), NAVSTAR_OK, "snapshot sizes");
    expect_status(navstar_mesh_polygon_corners(snapshot, snap_corners, 16, &count), NAVSTAR_OK, "snapshot corners");
    expect_status(navstar_mesh_polygon_neighbours(snapshot, snap_neighbours, 16, &count), NAVSTAR_OK,
                  "snapshot neighbours");
    for (i = 0; i < 16; i++) {
        check(snap_corners[i] < 12, "corner %u indexes the vertex array", i);
        if (i < 8 && snap_neighbours[i] == ids[2]) {
            const float *a = &snap_vertices[3 * snap_corners[i]];
            seam = a[0] == 2.0f;
        }
    }
    check(seam, "a polygon of the first tile has the second tile's polygon %u across x = 2", ids[2]);
    {
        float points[3 * 4];
        expect_status(navstar_mesh_polygon_points(snapshot, ids[3], points, 4, &count), NAVSTAR_OK,
                      "points of a polygon of the second tile");
        check(count == 4 && points[0] >= 2.0f, "its points lie beyond x = 2");
    }
    navstar_mesh_free(snapshot);
    navstar_world_free(world);
    navstar_mesh_free(moved);
}

/* Loading: every format, from bytes and from files, and the refusals. */
static void loaders(void) {
    NavstarMesh *mesh = NULL;
    NavstarMeshOptions options = navstar_mesh_options_default();
    uint8_t *saved;
    uint32_t size = 0;
    float min[3], max[3];

    mesh = load_text("v 0 0 0\nv 1 x 0\n", NAVSTAR_FORMAT_OBJ, NAVSTAR_ERROR_INVALID_MESH, "a bad OBJ");
    check(strstr(navstar_last_error_message(), "line 2: ") != NULL, "the message gives line 2: %s",
          navstar_last_error_message());
    check(mesh == NULL, "no mesh after an error");
    mesh = load_text(TWO_SQUARES, NAVSTAR_FORMAT_AUTO, NAVSTAR_ERROR_INVALID_ARGUMENT, "AUTO for bytes");
    mesh = load_text(TWO_SQUARES, 42, NAVSTAR_ERROR_INVALID_ARGUMENT, "format 42");
    check(strstr(navstar_last_error_message(), "format is 42") != NULL, "names the format");
    mesh = load_text("type octile\nheight 1\nwidth 2\nmap\n..\n", NAVSTAR_FORMAT_MOVINGAI_MAP, NAVSTAR_OK,
                     "a Moving AI map");
    check(navstar_mesh_polygon_count(mesh) == 1, "two free cells merge into one rectangle");
    navstar_mesh_free(mesh);

    expect_error(navstar_mesh_load(NULL, NAVSTAR_FORMAT_AUTO, NULL, &mesh), NAVSTAR_ERROR_NULL_ARGUMENT, "path",
                 "a NULL path");
    expect_error(navstar_mesh_load("does/not/exist.obj", NAVSTAR_FORMAT_AUTO, NULL, &mesh),
                 NAVSTAR_ERROR_INVALID_ARGUMENT, "cannot read 'does/not/exist.obj'", "a missing file");
    expect_error(navstar_mesh_load("README.md", NAVSTAR_FORMAT_AUTO, NULL, &mesh), NAVSTAR_ERROR_INVALID_ARGUMENT,
                 "cannot tell the mesh format", "an unknown extension");
    expect_error(navstar_mesh_load("README.md", NAVSTAR_FORMAT_POLYANYA_MESH, NULL, &mesh),
                 NAVSTAR_ERROR_INVALID_MESH, "'README.md': line 1: ", "README.md as a Polyanya mesh");
    options.struct_size = 1;
    expect_error(navstar_mesh_load("data/arena.mesh", NAVSTAR_FORMAT_AUTO, &options, &mesh),
                 NAVSTAR_ERROR_INVALID_ARGUMENT, "options->struct_size", "bad options");
    check(mesh == NULL, "no mesh after the errors");

    expect_status(navstar_mesh_load("data/arena.mesh", NAVSTAR_FORMAT_AUTO, NULL, &mesh), NAVSTAR_OK,
                  "data/arena.mesh by its extension");
    check(navstar_mesh_polygon_count(mesh) > 100, "the arena has %u polygons", navstar_mesh_polygon_count(mesh));
    expect_status(navstar_mesh_bounds(mesh, min, max), NAVSTAR_OK, "arena bounds");
    check(min[2] == 0.0f && max[2] == 0.0f && max[0] > 40.0f && max[1] > 40.0f, "a 2D mesh, Z up, about 49 by 49");

    /* Saved and loaded back in the binary format, through the format-naming loader. */
    navstar_mesh_save(mesh, NULL, 0, &size);
    saved = (uint8_t *)malloc(size);
    expect_status(navstar_mesh_save(mesh, saved, size, &size), NAVSTAR_OK, "save the arena");
    {
        NavstarMesh *again = NULL;
        expect_status(navstar_mesh_load_bytes(saved, size, NAVSTAR_FORMAT_NAVSTAR, NULL, &again), NAVSTAR_OK,
                      "the saved arena loads");
        check(navstar_mesh_polygon_count(again) == navstar_mesh_polygon_count(mesh), "with every polygon");
        navstar_mesh_free(again);
        saved[size / 2] ^= 0x40;
        expect_error(navstar_mesh_load_bytes(saved, size, NAVSTAR_FORMAT_NAVSTAR, NULL, &again),
                     NAVSTAR_ERROR_INVALID_MESH, "invalid navstar file", "a damaged saved mesh");
    }
    free(saved);
    navstar_mesh_free(mesh);
}

int main(void) {
    NavstarMesh *mesh = load_text(TWO_SQUARES, NAVSTAR_FORMAT_OBJ, NAVSTAR_OK, "two squares from OBJ bytes");
    if (mesh != NULL) {
        read_back_two_squares(mesh);
        world_of_copies(mesh);
    }
    navstar_mesh_free(mesh);
    loaders();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
