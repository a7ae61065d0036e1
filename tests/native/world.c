/*
 * A world of two tiles from C99: a self-checking caller of the world functions of
 * include/navstar.h (navstar_world_*, navstar_mesh_polygon_ref, ...).
 *
 * Two grid tiles (Y up, y = 0, unit cells), seen from above:
 *
 *   z=2 +---+   +-------+
 *       | A |   |       |
 *   z=1 +---+---+   B   |
 *       | A   A |       |
 *   z=0 +-------+-------+
 *      x=0 x=1 x=2     x=4
 *
 * They meet along x = 2 over z in [0, 1] only, so the path from (0.5, 1.5) to
 * (3.5, 1.5) crosses the seam and turns at (1, 1) and (2, 1). Each check prints one
 * line; the last line is "N passed, M failed" and the exit status is non-zero if M > 0.
 */
#include "navstar.h"

#include "checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static NavstarMesh *grid_tile(const uint8_t cells[4], float x0) {
    const float origin[3] = {x0, 0.0f, 0.0f};
    NavstarMesh *mesh = NULL;
    expect_status(navstar_mesh_create_from_grid(cells, 2, 2, 1.0f, origin, NULL, &mesh), NAVSTAR_OK,
                  "a 2 x 2 grid tile");
    return mesh;
}

/* The path on `mesh` from (0.5, 1.5) to (3.5, 1.5): its status, its corners in `out`. */
static NavstarStatus path_across(const NavstarMesh *mesh, float out[3 * 8], uint32_t *count) {
    const float start[3] = {0.5f, 0.0f, 1.5f};
    const float goal[3] = {3.5f, 0.0f, 1.5f};
    NavstarQuery *query = NULL;
    NavstarStatus status = navstar_query_create(mesh, &query);
    expect_status(status, NAVSTAR_OK, "a query on a snapshot");
    status = navstar_find_path(query, start, goal, NULL, out, 8, count);
    navstar_query_free(query);
    return status;
}

static void expect_across(const NavstarMesh *mesh, const char *what) {
    static const float want[4][3] = {{0.5f, 0, 1.5f}, {1, 0, 1}, {2, 0, 1}, {3.5f, 0, 1.5f}};
    float points[3 * 8];
    uint32_t count = 0;
    uint32_t i;
    int same;
    expect_status(path_across(mesh, points, &count), NAVSTAR_OK, what);
    same = count == 4;
    for (i = 0; same && i < 12; i++) {
        same = fabsf(points[i] - want[i / 3][i % 3]) <= 1e-4f;
    }
    check(same, "%s: %u corners, turning at (1, 1) and (2, 1) across the seam", what, count);
}

/* Saves a world into a buffer of the size it asks for; the caller frees it. */
static uint8_t *save(const NavstarWorld *world, uint32_t *size) {
    uint8_t *bytes;
    expect_status(navstar_world_save(world, NULL, 0, size), NAVSTAR_BUFFER_TOO_SMALL, "ask for the saved size");
    bytes = (uint8_t *)malloc(*size);
    if (bytes == NULL) {
        check(0, "allocate %u bytes", *size);
        exit(1);
    }
    expect_status(navstar_world_save(world, bytes, *size, size), NAVSTAR_OK, "save the world");
    return bytes;
}

int main(void) {
    static const uint8_t a_cells[4] = {1, 1, 1, 0};
    static const uint8_t b_cells[4] = {1, 1, 1, 1};
    NavstarWorldOptions options = navstar_world_options_default();
    NavstarWorld *world = NULL;
    NavstarWorld *loaded = NULL;
    NavstarMesh *a = grid_tile(a_cells, 0.0f);
    NavstarMesh *b = grid_tile(b_cells, 2.0f);
    NavstarMesh *before = NULL;
    NavstarMesh *after = NULL;
    NavstarTileRef ta, tb, tb2, listed[4];
    uint64_t reference = 0;
    uint32_t polygon = 0, count = 0, size = 0, size2 = 0, polygons = 0;
    uint8_t *bytes, *bytes2;
    float points[3 * 8];

    check(options.struct_size == sizeof(NavstarWorldOptions), "struct_size is set by the default");
    options.max_tiles = 16;
    expect_status(navstar_world_create(&options, &world), NAVSTAR_OK, "create a world of 16 tiles");
    expect_status(navstar_world_add_tile(world, a, &ta), NAVSTAR_OK, "add tile A");
    expect_status(navstar_world_add_tile(world, b, &tb), NAVSTAR_OK, "add tile B");
    check(navstar_world_tile_count(world) == 2, "two tiles");
    polygons = navstar_mesh_polygon_count(a) + navstar_mesh_polygon_count(b);
    navstar_mesh_free(a); /* the world copied the tiles */

    expect_status(navstar_world_snapshot(world, &before), NAVSTAR_OK, "take a snapshot");
    check(navstar_mesh_polygon_count(before) == polygons, "the snapshot holds the %u polygons of both tiles",
          polygons);
    expect_across(before, "a path across the seam");

    /* A reference to the polygon under the goal, kept across snapshots. */
    {
        const float goal[3] = {3.5f, 0.0f, 1.5f};
        float nearest[3];
        float distance = 0;
        expect_status(navstar_mesh_nearest_point(before, goal, 1.0f, NULL, nearest, &polygon, &distance),
                      NAVSTAR_OK, "the polygon under the goal");
    }
    expect_status(navstar_mesh_polygon_ref(before, polygon, &reference), NAVSTAR_OK, "a polygon reference");
    {
        uint32_t ids[16];
        uint32_t n = 0, i;
        int found = 0;
        expect_status(navstar_mesh_polygon_ids(before, ids, 16, &n), NAVSTAR_OK, "the snapshot's polygon numbers");
        for (i = 0; i < n && i < 16; i++) {
            found |= ids[i] == polygon;
        }
        check(n == polygons && found, "%u polygon numbers, the goal's among them", n);
    }

    /* Remove B: the old snapshot keeps it, the new one has only A. */
    expect_status(navstar_world_remove_tile(world, tb), NAVSTAR_OK, "remove tile B");
    expect_status(navstar_world_snapshot(world, &after), NAVSTAR_OK, "a snapshot without B");
    expect_status(path_across(after, points, &count), NAVSTAR_OK, "without B the goal snaps to tile A");
    check(count >= 2 && fabsf(points[3 * (count - 1)] - 2.0f) <= 1e-4f &&
              fabsf(points[3 * (count - 1) + 2] - 1.0f) <= 1e-4f,
          "the path ends at (2, 1), the point of A nearest to the goal");
    expect_across(before, "the snapshot taken before still crosses");
    expect_error(navstar_mesh_resolve_polygon_ref(after, reference, &polygon), NAVSTAR_ERROR_STALE_REFERENCE,
                 "generation", "a reference into the removed tile is stale");
    check(polygon == NAVSTAR_NO_POLYGON, "no polygon for a stale reference");
    expect_error(navstar_world_remove_tile(world, tb), NAVSTAR_ERROR_STALE_REFERENCE, "slot", "remove B twice");
    navstar_mesh_free(after);

    /* B again, then save and load. */
    expect_status(navstar_world_add_tile(world, b, &tb2), NAVSTAR_OK, "add tile B again");
    check(tb2.slot == tb.slot && tb2.generation > tb.generation, "same slot, a later generation");
    expect_error(navstar_world_remove_tile(world, tb), NAVSTAR_ERROR_STALE_REFERENCE, "generation",
                 "the first reference to B stays stale");
    bytes = save(world, &size);
    expect_status(navstar_world_load_bytes(bytes, size, &loaded), NAVSTAR_OK, "load the saved world");
    expect_status(navstar_world_tiles(loaded, listed, 4, &count), NAVSTAR_OK, "list the loaded tiles");
    check(count == 2 && listed[0].slot == ta.slot && listed[0].generation == ta.generation &&
              listed[1].slot == tb2.slot && listed[1].generation == tb2.generation,
          "the loaded world has the same slots and generations");
    expect_error(navstar_world_remove_tile(loaded, ta), NAVSTAR_ERROR_STALE_REFERENCE, "world",
                 "a reference of the saved world is refused by the loaded one");
    expect_status(navstar_world_snapshot(loaded, &after), NAVSTAR_OK, "a snapshot of the loaded world");
    expect_across(after, "the loaded world crosses the seam");
    bytes2 = save(loaded, &size2);
    check(size == size2 && memcmp(bytes, bytes2, size) == 0, "the loaded world saves to the same bytes");
    bytes[size - 1] ^= 1;
    navstar_world_free(loaded);
    loaded = NULL;
    expect_error(navstar_world_load_bytes(bytes, size, &loaded), NAVSTAR_ERROR_INVALID_MESH, "checksum",
                 "a damaged world file is refused");
    check(loaded == NULL, "no world after an error");

    free(bytes);
    free(bytes2);
    navstar_mesh_free(after);
    navstar_mesh_free(before);
    navstar_mesh_free(b);
    navstar_world_free(world);
    navstar_world_free(NULL);
    printf("%d passed, %d failed\n", passed, failed);
    return failed > 0 ? 1 : 0;
}
