/*
 * navstar from C99: a complete, self-checking caller of the C ABI (include/navstar.h).
 *
 * It builds small meshes whose shortest paths are known exactly, asks for paths and
 * compares every corner; then it feeds every kind of bad input and checks the status
 * and that navstar_last_error_message() names the culprit. Each check prints one line;
 * the last line is "N passed, M failed" and the exit status is non-zero if M > 0.
 *
 * Build (after `cargo build`):
 *   gcc -std=c99 -Wall -Wextra -Wpedantic -Werror -Iinclude examples/c/navstar_example.c \
 *       -Ltarget/debug -lnavstar -Wl,-rpath,"$PWD/target/debug" -lm -o navstar_example
 * or statically: ... examples/c/navstar_example.c target/debug/libnavstar.a -lpthread -ldl -lm
 *
 * The mesh used by most checks, seen from above (x to the right, z up the page; Y is
 * the up axis and every vertex has y = 0). Each cell is a unit quad; the cell at
 * x in [1,2], z in [1,3] is missing, which makes a U:
 *
 *   z=3 +---+   +---+
 *       | 5 |   | 6 |
 *   z=2 +---+   +---+
 *       | 3 |   | 4 |
 *   z=1 +---+---+---+
 *       | 0 | 1 | 2 |         +---+
 *   z=0 +---+---+---+         | 7 |   <- polygon 7: an island, x in [5,6], z in [0,1]
 *      x=0 x=1 x=2 x=3      x=5 x=6
 *
 * Known answers: from (0.5, 2.5) to (2.5, 2.5) the path turns around the inner corners
 * (1, 1) and (2, 1) (4 points); to (2.5, 0.5) it turns once at (1, 1) (3 points); to the
 * island at (5.5, 0.5) it is partial and ends at (3, 0.5), the closest reachable point.
 */
#include "navstar.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed = 0;
static int failed = 0;

/* Records one check and prints it. */
static void check(int ok, const char *format, ...) {
    va_list args;
    printf("%s: ", ok ? "PASS" : "FAIL");
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    printf("\n");
    if (ok) {
        passed++;
    } else {
        failed++;
    }
}

static const char *status_name(NavstarStatus status) { return navstar_status_name((int32_t)status); }

/* Checks a status; on mismatch prints the message too. */
static void expect_status(NavstarStatus got, NavstarStatus want, const char *what) {
    check(got == want, "%s: status %s (want %s)%s%s", what, status_name(got), status_name(want),
          got == want ? "" : "; message: ", got == want ? "" : navstar_last_error_message());
}

/* Checks an error status and that the message is non-empty and contains `culprit`. */
static void expect_error(NavstarStatus got, NavstarStatus want, const char *culprit, const char *what) {
    const char *message = navstar_last_error_message();
    check(got == want, "%s: status %s (want %s)", what, status_name(got), status_name(want));
    check(message != NULL && message[0] != '\0' && strstr(message, culprit) != NULL,
          "%s: message \"%s\" names \"%s\"", what, message ? message : "(NULL)", culprit);
}

/* Checks that the last error message is empty (after a successful call). */
static void expect_no_message(const char *what) {
    const char *message = navstar_last_error_message();
    check(message != NULL && message[0] == '\0', "%s: last error message is \"\" (got \"%s\")", what,
          message ? message : "(NULL)");
}

#define TOLERANCE 1e-4f

/* Compares `count` returned points with `expected` (both xyz triples). */
static void expect_points(const float *got, uint32_t got_count, const float *expected, uint32_t expected_count,
                          const char *what) {
    uint32_t i;
    int same = got_count == expected_count;
    for (i = 0; same && i < 3 * expected_count; i++) {
        if (!(fabsf(got[i] - expected[i]) <= TOLERANCE)) {
            same = 0;
        }
    }
    check(same, "%s: %u points (want %u)", what, (unsigned)got_count, (unsigned)expected_count);
    if (!same) {
        for (i = 0; i < got_count; i++) {
            printf("      got  (%g, %g, %g)\n", got[3 * i], got[3 * i + 1], got[3 * i + 2]);
        }
        for (i = 0; i < expected_count; i++) {
            printf("      want (%g, %g, %g)\n", expected[3 * i], expected[3 * i + 1], expected[3 * i + 2]);
        }
    }
}

/* ---------------------------------------------------------------------------------- */
/* The U mesh                                                                          */

#define U_VERTEX_COUNT 20u
#define U_POLYGON_COUNT 8u

static const int u_cells[7][2] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {2, 1}, {0, 2}, {2, 2}};

/* Vertex index of grid point (x, z), 0 <= x, z <= 3. */
static uint32_t grid_vertex(int x, int z) { return (uint32_t)(4 * z + x); }

/*
 * Writes the 20 vertices: the 4x4 grid (x, z) for 0..3 and the island's 4 corners.
 * Y-up: (x, height, z). Z-up: (x, z, height), so the ground plane is the same picture.
 */
static void u_vertices(float *out, int z_up, float height) {
    static const float island[4][2] = {{5, 0}, {6, 0}, {6, 1}, {5, 1}};
    int x, z, k;
    for (z = 0; z < 4; z++) {
        for (x = 0; x < 4; x++) {
            float *v = out + 3 * grid_vertex(x, z);
            v[0] = (float)x;
            v[1] = z_up ? (float)z : height;
            v[2] = z_up ? height : (float)z;
        }
    }
    for (k = 0; k < 4; k++) {
        float *v = out + 3 * (16 + k);
        v[0] = island[k][0];
        v[1] = z_up ? island[k][1] : height;
        v[2] = z_up ? height : island[k][1];
    }
}

/* Quad indices (8 quads, 32 indices) and sizes. */
static void u_quads(uint32_t *indices, uint32_t *sizes) {
    int c, k;
    for (c = 0; c < 7; c++) {
        int x = u_cells[c][0], z = u_cells[c][1];
        indices[4 * c + 0] = grid_vertex(x, z);
        indices[4 * c + 1] = grid_vertex(x + 1, z);
        indices[4 * c + 2] = grid_vertex(x + 1, z + 1);
        indices[4 * c + 3] = grid_vertex(x, z + 1);
    }
    for (k = 0; k < 4; k++) {
        indices[28 + k] = 16u + (uint32_t)k;
    }
    for (c = 0; c < 8; c++) {
        sizes[c] = 4;
    }
}

/* The same cells as 16 triangles (48 indices): each quad a b c d -> a b c, a c d. */
static void u_triangles(uint32_t *triangles) {
    uint32_t quads[32], sizes[8];
    int q;
    u_quads(quads, sizes);
    for (q = 0; q < 8; q++) {
        const uint32_t *p = quads + 4 * q;
        uint32_t *t = triangles + 6 * q;
        t[0] = p[0], t[1] = p[1], t[2] = p[2];
        t[3] = p[0], t[4] = p[2], t[5] = p[3];
    }
}

/* Builds the U mesh from quads (or triangles), Y-up (or Z-up) at the given height. */
static NavstarMesh *make_u_mesh(int triangles, int z_up, float height, const char *what) {
    float vertices[3 * U_VERTEX_COUNT];
    uint32_t indices[48], sizes[8];
    NavstarMeshOptions options = navstar_mesh_options_default();
    NavstarMesh *mesh = NULL;
    NavstarStatus status;
    u_vertices(vertices, z_up, height);
    options.up_axis = z_up ? NAVSTAR_UP_Z : NAVSTAR_UP_Y;
    if (triangles) {
        u_triangles(indices);
        status = navstar_mesh_create(vertices, U_VERTEX_COUNT, indices, NULL, 2 * U_POLYGON_COUNT, &options, &mesh);
    } else {
        u_quads(indices, sizes);
        status = navstar_mesh_create(vertices, U_VERTEX_COUNT, indices, sizes, U_POLYGON_COUNT, &options, &mesh);
    }
    expect_status(status, NAVSTAR_OK, what);
    check(mesh != NULL, "%s: mesh is not NULL", what);
    expect_no_message(what);
    return mesh;
}

/* A point in the ground picture (x, z) at `height`, in the mesh's axis convention. */
static void ground_point(float *out, float x, float z, int z_up, float height) {
    out[0] = x;
    out[1] = z_up ? z : height;
    out[2] = z_up ? height : z;
}

/* Finds a path with a buffer of 16 points and compares it with `want` (ground x,z pairs). */
static void expect_path(NavstarQuery *query, const float start_xz[2], const float goal_xz[2],
                        const float (*want_xz)[2], uint32_t want_count, NavstarStatus want_status, int z_up,
                        float height, const char *what) {
    float start[3], goal[3], points[3 * 16], want[3 * 16];
    uint32_t count = 99, i;
    NavstarStatus status;
    ground_point(start, start_xz[0], start_xz[1], z_up, height);
    ground_point(goal, goal_xz[0], goal_xz[1], z_up, height);
    for (i = 0; i < want_count; i++) {
        ground_point(want + 3 * i, want_xz[i][0], want_xz[i][1], z_up, height);
    }
    status = navstar_find_path(query, start, goal, NULL, points, 16, &count);
    expect_status(status, want_status, what);
    expect_points(points, count, want, want_count, what);
}

/* The known answers of the U mesh, shared by the quad, triangle and Z-up variants. */
static const float top_left[2] = {0.5f, 2.5f};
static const float top_right[2] = {2.5f, 2.5f};
static const float bottom_right[2] = {2.5f, 0.5f};
static const float on_island[2] = {5.5f, 0.5f};
static const float u_turn[4][2] = {{0.5f, 2.5f}, {1, 1}, {2, 1}, {2.5f, 2.5f}};
static const float l_turn[3][2] = {{0.5f, 2.5f}, {1, 1}, {2.5f, 0.5f}};
static const float to_island[3][2] = {{0.5f, 2.5f}, {1, 1}, {3, 0.5f}};

static void check_known_paths(NavstarQuery *query, int z_up, float height, const char *mesh_name) {
    static const float a[2] = {0.2f, 0.2f}, b[2] = {0.8f, 0.7f};
    static const float same_polygon[2][2] = {{0.2f, 0.2f}, {0.8f, 0.7f}};
    static const float c[2] = {0.5f, 0.5f}, d[2] = {2.5f, 0.6f};
    static const float straight[2][2] = {{0.5f, 0.5f}, {2.5f, 0.6f}};
    static const float e[2] = {5.2f, 0.2f}, f[2] = {5.8f, 0.9f};
    static const float island_path[2][2] = {{5.2f, 0.2f}, {5.8f, 0.9f}};
    char what[128];
    snprintf(what, sizeof what, "%s: U-turn around (1,1) and (2,1)", mesh_name);
    expect_path(query, top_left, top_right, u_turn, 4, NAVSTAR_OK, z_up, height, what);
    snprintf(what, sizeof what, "%s: back again", mesh_name);
    {
        const float back[4][2] = {{2.5f, 2.5f}, {2, 1}, {1, 1}, {0.5f, 2.5f}};
        expect_path(query, top_right, top_left, back, 4, NAVSTAR_OK, z_up, height, what);
    }
    snprintf(what, sizeof what, "%s: L-turn at (1,1)", mesh_name);
    expect_path(query, top_left, bottom_right, l_turn, 3, NAVSTAR_OK, z_up, height, what);
    snprintf(what, sizeof what, "%s: start and goal in one polygon", mesh_name);
    expect_path(query, a, b, same_polygon, 2, NAVSTAR_OK, z_up, height, what);
    snprintf(what, sizeof what, "%s: direct sight across three polygons", mesh_name);
    expect_path(query, c, d, straight, 2, NAVSTAR_OK, z_up, height, what);
    snprintf(what, sizeof what, "%s: goal on another island -> partial path to (3, 0.5)", mesh_name);
    expect_path(query, top_left, on_island, to_island, 3, NAVSTAR_PARTIAL_PATH, z_up, height, what);
    snprintf(what, sizeof what, "%s: path within the island", mesh_name);
    expect_path(query, e, f, island_path, 2, NAVSTAR_OK, z_up, height, what);
}

/* ---------------------------------------------------------------------------------- */

static void test_version_and_names(void) {
    uint32_t version = navstar_version();
    printf("navstar version %u.%u.%u\n", (unsigned)(version >> 16), (unsigned)((version >> 8) & 0xff),
           (unsigned)(version & 0xff));
    check(version != 0 && (version >> 24) == 0, "navstar_version() = 0x%06x looks like (major<<16)|(minor<<8)|patch",
          (unsigned)version);
    check(strcmp(navstar_status_name(NAVSTAR_OK), "NAVSTAR_OK") == 0, "status name of NAVSTAR_OK");
    check(strcmp(navstar_status_name(NAVSTAR_ERROR_NO_PATH), "NAVSTAR_ERROR_NO_PATH") == 0,
          "status name of NAVSTAR_ERROR_NO_PATH");
    check(strcmp(navstar_status_name(12345), "unknown status") == 0, "status name of an unknown value");
    check(NAVSTAR_OK == 0 && NAVSTAR_PARTIAL_PATH == 1 && NAVSTAR_BUFFER_TOO_SMALL == 2 &&
              NAVSTAR_ERROR_NULL_ARGUMENT == -1 && NAVSTAR_ERROR_INVALID_ARGUMENT == -2 &&
              NAVSTAR_ERROR_INVALID_MESH == -3 && NAVSTAR_ERROR_NOT_ON_MESH == -4 && NAVSTAR_ERROR_NO_PATH == -5 &&
              NAVSTAR_ERROR_INTERNAL == -100,
          "status values match API.md");
    check(sizeof(NavstarStatus) == 4, "sizeof(NavstarStatus) == 4");
    {
        NavstarMeshOptions m = navstar_mesh_options_default();
        NavstarPathOptions p = navstar_path_options_default();
        check(m.struct_size == sizeof m && m.up_axis == NAVSTAR_UP_Y && m.weld_vertices != 0 && m.weld_distance == 0.0f,
              "mesh option defaults (struct_size %u, Y up, welding exact)", (unsigned)m.struct_size);
        check(p.struct_size == sizeof p && p.strategy == NAVSTAR_SEARCH_ASTAR && p.heuristic_weight == 1.0f &&
                  isinf(p.max_snap_distance) && p.max_snap_distance > 0 && p.allow_partial != 0,
              "path option defaults (struct_size %u, A*, weight 1, snap unlimited, partial allowed)",
              (unsigned)p.struct_size);
    }
}

static void test_paths(void) {
    NavstarMesh *mesh;
    NavstarQuery *query = NULL;
    NavstarStatus status;

    mesh = make_u_mesh(0, 0, 0.0f, "create U mesh of quads (Y up)");
    check(navstar_mesh_polygon_count(mesh) == U_POLYGON_COUNT, "quad mesh has %u polygons",
          (unsigned)navstar_mesh_polygon_count(mesh));
    status = navstar_query_create(mesh, &query);
    expect_status(status, NAVSTAR_OK, "create query");
    check_known_paths(query, 0, 0.0f, "quads");

    /* Snapping: a start 2 units above the floor is moved down onto it. */
    {
        const float start[3] = {0.5f, 2.0f, 2.5f}, goal[3] = {2.5f, 0.0f, 2.5f};
        const float want[3 * 4] = {0.5f, 0, 2.5f, 1, 0, 1, 2, 0, 1, 2.5f, 0, 2.5f};
        float points[3 * 8];
        uint32_t count = 0;
        status = navstar_find_path(query, start, goal, NULL, points, 8, &count);
        expect_status(status, NAVSTAR_OK, "start 2 units above the mesh is snapped");
        expect_points(points, count, want, 4, "start 2 units above the mesh is snapped");
    }

    /* Start equal to goal, and two points that snap to the same spot: still 2 points. */
    {
        const float p[3] = {0.5f, 0, 0.5f}, above[3] = {0.5f, 1, 0.5f}, below[3] = {0.5f, -1, 0.5f};
        const float want[3 * 2] = {0.5f, 0, 0.5f, 0.5f, 0, 0.5f};
        float points[3 * 8];
        uint32_t count = 0;
        status = navstar_find_path(query, p, p, NULL, points, 8, &count);
        expect_status(status, NAVSTAR_OK, "start equal to goal");
        expect_points(points, count, want, 2, "start equal to goal gives 2 points");
        status = navstar_find_path(query, above, below, NULL, points, 8, &count);
        expect_status(status, NAVSTAR_OK, "start and goal snap to one point");
        expect_points(points, count, want, 2, "start and goal snapped to one point give 2 points");
    }

    /* Count only: capacity 0 with NULL points. */
    {
        const float start[3] = {0.5f, 0, 2.5f}, goal[3] = {2.5f, 0, 2.5f}, island[3] = {5.5f, 0, 0.5f};
        uint32_t count = 0;
        status = navstar_find_path(query, start, goal, NULL, NULL, 0, &count);
        expect_status(status, NAVSTAR_BUFFER_TOO_SMALL, "capacity 0 asks for the count");
        check(count == 4, "capacity 0: count is %u (want 4)", (unsigned)count);
        expect_no_message("capacity 0 (BUFFER_TOO_SMALL is not an error)");
        count = 0;
        status = navstar_find_path(query, start, island, NULL, NULL, 0, &count);
        expect_status(status, NAVSTAR_BUFFER_TOO_SMALL, "capacity 0 on a partial path");
        check(count == 3, "capacity 0 on a partial path: count is %u (want 3)", (unsigned)count);
    }

    /* A tiny buffer gets the prefix and the full count; nothing past capacity is written. */
    {
        const float start[3] = {0.5f, 0, 2.5f}, goal[3] = {2.5f, 0, 2.5f};
        const float want[3 * 2] = {0.5f, 0, 2.5f, 1, 0, 1};
        float points[3 * 4];
        uint32_t count = 0, i;
        int untouched = 1;
        for (i = 0; i < 12; i++) {
            points[i] = -777.0f;
        }
        status = navstar_find_path(query, start, goal, NULL, points, 2, &count);
        expect_status(status, NAVSTAR_BUFFER_TOO_SMALL, "capacity 2 for a 4-point path");
        check(count == 4, "capacity 2: full count is %u (want 4)", (unsigned)count);
        expect_points(points, 2, want, 2, "capacity 2: the first 2 points are written");
        for (i = 6; i < 12; i++) {
            untouched = untouched && points[i] == -777.0f;
        }
        check(untouched, "capacity 2: nothing is written past the capacity");
        status = navstar_find_path(query, start, goal, NULL, points, 4, &count);
        expect_status(status, NAVSTAR_OK, "capacity exactly 4 for a 4-point path");
        check(count == 4, "capacity exactly 4: count %u", (unsigned)count);
    }

    /* The usual retry pattern: ask for the count, allocate, ask again. */
    {
        const float start[3] = {0.5f, 0, 2.5f}, goal[3] = {2.5f, 0, 0.5f};
        const float want[3 * 3] = {0.5f, 0, 2.5f, 1, 0, 1, 2.5f, 0, 0.5f};
        float small[3];
        float *points = NULL;
        uint32_t count = 0;
        status = navstar_find_path(query, start, goal, NULL, small, 1, &count);
        if (status == NAVSTAR_BUFFER_TOO_SMALL) {
            points = (float *)malloc(3 * sizeof(float) * count);
            status = navstar_find_path(query, start, goal, NULL, points, count, &count);
        }
        expect_status(status, NAVSTAR_OK, "retry with a buffer of the reported size");
        expect_points(points ? points : small, count, want, 3, "retry with a buffer of the reported size");
        free(points);
    }

    /* Path options, accepted values. */
    {
        const float start[3] = {0.5f, 0, 2.5f}, goal[3] = {2.5f, 0, 2.5f};
        const float want[3 * 4] = {0.5f, 0, 2.5f, 1, 0, 1, 2, 0, 1, 2.5f, 0, 2.5f};
        NavstarPathOptions options = navstar_path_options_default();
        float points[3 * 8];
        uint32_t count = 0;
        options.heuristic_weight = 0.0f; /* Dijkstra */
        options.max_snap_distance = 0.5f;
        status = navstar_find_path(query, start, goal, &options, points, 8, &count);
        expect_status(status, NAVSTAR_OK, "heuristic weight 0 and snap distance 0.5 on the mesh");
        expect_points(points, count, want, 4, "heuristic weight 0 and snap distance 0.5 on the mesh");
        options = navstar_path_options_default();
        options.heuristic_weight = 3.0f;
        status = navstar_find_path(query, start, goal, &options, points, 8, &count);
        expect_status(status, NAVSTAR_OK, "heuristic weight 3");
        expect_points(points, count, want, 4, "heuristic weight 3");
    }

    /* The mesh may be freed before its query; the query keeps it alive. */
    navstar_mesh_free(mesh);
    mesh = NULL;
    check_known_paths(query, 0, 0.0f, "quads after navstar_mesh_free");
    navstar_query_free(query);

    /* Two queries over one mesh give the same answers; both outlive the mesh. */
    {
        NavstarQuery *q1 = NULL, *q2 = NULL;
        mesh = make_u_mesh(0, 0, 0.0f, "create U mesh again");
        expect_status(navstar_query_create(mesh, &q1), NAVSTAR_OK, "first of two queries");
        expect_status(navstar_query_create(mesh, &q2), NAVSTAR_OK, "second of two queries");
        navstar_mesh_free(mesh);
        check_known_paths(q1, 0, 0.0f, "first query after the mesh was freed");
        navstar_query_free(q1);
        check_known_paths(q2, 0, 0.0f, "second query after the first query was freed");
        navstar_query_free(q2);
    }
}

static void test_triangles_and_z_up(void) {
    NavstarMesh *mesh;
    NavstarQuery *query = NULL;

    /* polygon_sizes == NULL: the same floor as 16 triangles, same answers. */
    mesh = make_u_mesh(1, 0, 0.0f, "create U mesh of triangles (polygon_sizes NULL)");
    check(navstar_mesh_polygon_count(mesh) == 2 * U_POLYGON_COUNT, "triangle mesh has %u polygons",
          (unsigned)navstar_mesh_polygon_count(mesh));
    expect_status(navstar_query_create(mesh, &query), NAVSTAR_OK, "query on the triangle mesh");
    navstar_mesh_free(mesh);
    check_known_paths(query, 0, 0.0f, "triangles");
    navstar_query_free(query);
    query = NULL;

    /* Z up: the same picture in the xy plane at height z = 1.5; corners keep z = 1.5. */
    mesh = make_u_mesh(0, 1, 1.5f, "create U mesh of quads (Z up, at z = 1.5)");
    expect_status(navstar_query_create(mesh, &query), NAVSTAR_OK, "query on the Z-up mesh");
    check_known_paths(query, 1, 1.5f, "Z up");
    navstar_query_free(query);
    navstar_mesh_free(mesh);
    query = NULL;

    /* Z-up triangles, Y-up floor at height 2: every combination gives the same corners. */
    mesh = make_u_mesh(1, 1, -2.0f, "create U mesh of triangles (Z up, at z = -2)");
    expect_status(navstar_query_create(mesh, &query), NAVSTAR_OK, "query on the Z-up triangle mesh");
    check_known_paths(query, 1, -2.0f, "Z-up triangles");
    navstar_query_free(query);
    navstar_mesh_free(mesh);
    query = NULL;
    mesh = make_u_mesh(0, 0, 2.0f, "create U mesh of quads (Y up, at y = 2)");
    expect_status(navstar_query_create(mesh, &query), NAVSTAR_OK, "query on the raised mesh");
    check_known_paths(query, 0, 2.0f, "quads at y = 2");
    navstar_query_free(query);
    navstar_mesh_free(mesh);

    /* The Z-up data read as Y-up is a set of vertical walls: rejected, naming polygon 0. */
    {
        float vertices[3 * U_VERTEX_COUNT];
        uint32_t indices[32], sizes[8];
        NavstarMesh *out = NULL;
        u_vertices(vertices, 1, 0.0f);
        u_quads(indices, sizes);
        expect_error(navstar_mesh_create(vertices, U_VERTEX_COUNT, indices, sizes, 8, NULL, &out),
                     NAVSTAR_ERROR_INVALID_MESH, "polygon 0", "Z-up data with the default Y up (zero area)");
        check(out == NULL, "*out_mesh is NULL after the error");
    }
}

/* A non-NULL pointer value that is never dereferenced: set before a failing call to see
   that *out_mesh / *out_query are reset to NULL. */
static char not_a_handle;
#define JUNK_MESH ((NavstarMesh *)(void *)&not_a_handle)
#define JUNK_QUERY ((NavstarQuery *)(void *)&not_a_handle)

static void test_mesh_errors(void) {
    /* A unit square as two triangles plus a third triangle, for small invalid inputs. */
    float vertices[3 * 5] = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 2, 0, 0};
    const uint32_t square[4] = {0, 1, 2, 3};
    const uint32_t four = 4;
    NavstarMesh *mesh;
    NavstarStatus status;

    mesh = JUNK_MESH;
    status = navstar_mesh_create(NULL, 4, square, &four, 1, NULL, &mesh);
    expect_error(status, NAVSTAR_ERROR_NULL_ARGUMENT, "vertices is NULL", "NULL vertices with vertex_count 4");
    check(mesh == NULL, "*out_mesh is NULL after NULL vertices");

    status = navstar_mesh_create(vertices, 4, square, &four, 1, NULL, NULL);
    expect_error(status, NAVSTAR_ERROR_NULL_ARGUMENT, "out_mesh is NULL", "NULL out_mesh");

    mesh = JUNK_MESH;
    status = navstar_mesh_create(vertices, 4, NULL, &four, 1, NULL, &mesh);
    expect_error(status, NAVSTAR_ERROR_NULL_ARGUMENT, "indices is NULL", "NULL indices with one polygon");
    check(mesh == NULL, "*out_mesh is NULL after NULL indices");

    {
        float bad[3 * 4] = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1};
        bad[4] = NAN; /* vertex 1, y */
        mesh = JUNK_MESH;
        status = navstar_mesh_create(bad, 4, square, &four, 1, NULL, &mesh);
        expect_error(status, NAVSTAR_ERROR_INVALID_MESH, "vertex 1", "NaN coordinate in vertex 1");
        check(mesh == NULL, "*out_mesh is NULL after a NaN vertex");
        bad[4] = 0;
        bad[8] = -INFINITY; /* vertex 2, z */
        status = navstar_mesh_create(bad, 4, square, &four, 1, NULL, &mesh);
        expect_error(status, NAVSTAR_ERROR_INVALID_MESH, "vertex 2", "-Inf coordinate in vertex 2");
    }

    {
        /* Three triangles; polygon 2 uses vertex 9 of 5. */
        const uint32_t indices[9] = {0, 1, 2, 0, 2, 3, 1, 4, 9};
        mesh = JUNK_MESH;
        status = navstar_mesh_create(vertices, 5, indices, NULL, 3, NULL, &mesh);
        expect_error(status, NAVSTAR_ERROR_INVALID_MESH, "polygon 2", "index 9 out of range in polygon 2");
        check(strstr(navstar_last_error_message(), "9") != NULL, "the message names the index 9");
        check(mesh == NULL, "*out_mesh is NULL after an index out of range");
    }

    {
        const uint32_t indices[5] = {0, 1, 2, 2, 3};
        const uint32_t sizes[2] = {3, 2};
        status = navstar_mesh_create(vertices, 5, indices, sizes, 2, NULL, &mesh);
        expect_error(status, NAVSTAR_ERROR_INVALID_MESH, "polygon 1", "polygon 1 with 2 vertices");
    }

    {
        const uint32_t indices[4] = {0, 1, 2, 1};
        status = navstar_mesh_create(vertices, 5, indices, &four, 1, NULL, &mesh);
        expect_error(status, NAVSTAR_ERROR_INVALID_MESH, "repeats vertex 1", "polygon repeating vertex 1");
    }

    {
        /* A dart: (0,0) (2,1) (0,2) (1,1) turns the wrong way at vertex 3 = (1,1). */
        const float dart[3 * 4] = {0, 0, 0, 2, 0, 1, 0, 0, 2, 1, 0, 1};
        const uint32_t indices[4] = {0, 1, 2, 3};
        const uint32_t reversed[4] = {3, 2, 1, 0};
        mesh = JUNK_MESH;
        status = navstar_mesh_create(dart, 4, indices, &four, 1, NULL, &mesh);
        expect_error(status, NAVSTAR_ERROR_INVALID_MESH, "polygon 0 is not convex", "non-convex quad");
        check(strstr(navstar_last_error_message(), "vertex 3") != NULL, "the message names the reflex vertex 3");
        check(mesh == NULL, "*out_mesh is NULL after a non-convex polygon");
        status = navstar_mesh_create(dart, 4, reversed, &four, 1, NULL, &mesh);
        expect_error(status, NAVSTAR_ERROR_INVALID_MESH, "vertex 3", "non-convex quad, other winding");
    }

    {
        /* Triangles 0 and 1 share edge (0,2) from both sides; triangle 2 uses it a third time. */
        const uint32_t indices[9] = {0, 1, 2, 0, 2, 3, 0, 2, 4};
        mesh = JUNK_MESH;
        status = navstar_mesh_create(vertices, 5, indices, NULL, 3, NULL, &mesh);
        expect_error(status, NAVSTAR_ERROR_INVALID_MESH, "more than two polygons", "edge (0,2) shared by three polygons");
        check(strstr(navstar_last_error_message(), "(0, 1, 2)") != NULL, "the message names polygons 0, 1 and 2");
        check(mesh == NULL, "*out_mesh is NULL after a non-manifold edge");
    }

    mesh = JUNK_MESH;
    status = navstar_mesh_create(vertices, 5, NULL, NULL, 0, NULL, &mesh);
    expect_error(status, NAVSTAR_ERROR_INVALID_MESH, "zero polygons", "zero polygons (triangles)");
    check(mesh == NULL, "*out_mesh is NULL after zero polygons");
    status = navstar_mesh_create(NULL, 0, NULL, &four, 0, NULL, &mesh);
    expect_error(status, NAVSTAR_ERROR_INVALID_MESH, "zero polygons", "zero polygons and zero vertices (sizes given)");

    /* Option values. */
    {
        NavstarMeshOptions options = navstar_mesh_options_default();
        options.up_axis = 7;
        mesh = JUNK_MESH;
        status = navstar_mesh_create(vertices, 4, square, &four, 1, &options, &mesh);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "up_axis", "up_axis = 7");
        check(strstr(navstar_last_error_message(), "7") != NULL, "the message gives the value 7");
        check(mesh == NULL, "*out_mesh is NULL after a bad option");

        options = navstar_mesh_options_default();
        options.struct_size = 3;
        status = navstar_mesh_create(vertices, 4, square, &four, 1, &options, &mesh);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "struct_size", "mesh options struct_size = 3");

        options.struct_size = 0;
        status = navstar_mesh_create(vertices, 4, square, &four, 1, &options, &mesh);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "struct_size", "mesh options struct_size = 0");

        options.struct_size = (uint32_t)sizeof options + 4; /* a caller built against a newer header */
        status = navstar_mesh_create(vertices, 4, square, &four, 1, &options, &mesh);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "struct_size", "mesh options struct_size too large");

        options = navstar_mesh_options_default();
        options.weld_distance = -1.0f;
        status = navstar_mesh_create(vertices, 4, square, &four, 1, &options, &mesh);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "weld_distance", "weld_distance = -1");

        options.weld_distance = NAN;
        status = navstar_mesh_create(vertices, 4, square, &four, 1, &options, &mesh);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "weld_distance", "weld_distance = NaN");

        options = navstar_mesh_options_default();
        options.up_axis = NAVSTAR_UP_Y;
        mesh = NULL;
        status = navstar_mesh_create(vertices, 4, square, &four, 1, &options, &mesh);
        expect_status(status, NAVSTAR_OK, "explicit default options");
        expect_no_message("explicit default options");
        navstar_mesh_free(mesh);
    }

    /* After a success the message is "" again. */
    status = navstar_mesh_create(vertices, 4, NULL, &four, 1, NULL, &mesh);
    check(navstar_last_error_message()[0] != '\0', "an error leaves a message");
    mesh = NULL;
    status = navstar_mesh_create(vertices, 4, square, &four, 1, NULL, &mesh);
    expect_status(status, NAVSTAR_OK, "unit square");
    expect_no_message("success after an error");
    navstar_mesh_free(mesh);
}

static void test_query_errors(void) {
    NavstarMesh *mesh = make_u_mesh(0, 0, 0.0f, "create U mesh for the error checks");
    NavstarQuery *query = JUNK_QUERY;
    NavstarStatus status;
    const float start[3] = {0.5f, 0, 2.5f}, goal[3] = {2.5f, 0, 2.5f}, island[3] = {5.5f, 0, 0.5f};
    float points[3 * 8];
    uint32_t count;

    status = navstar_query_create(NULL, &query);
    expect_error(status, NAVSTAR_ERROR_NULL_ARGUMENT, "mesh is NULL", "query on a NULL mesh");
    check(query == NULL, "*out_query is NULL after the error");
    status = navstar_query_create(mesh, NULL);
    expect_error(status, NAVSTAR_ERROR_NULL_ARGUMENT, "out_query is NULL", "NULL out_query");
    expect_status(navstar_query_create(mesh, &query), NAVSTAR_OK, "create query");

    {
        const float nan_start[3] = {NAN, 0, 0.5f};
        const float inf_goal[3] = {0.5f, INFINITY, 0.5f};
        count = 99;
        status = navstar_find_path(query, nan_start, goal, NULL, points, 8, &count);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "start has a non-finite", "NaN start");
        check(count == 0, "*out_count is 0 after an error (got %u)", (unsigned)count);
        status = navstar_find_path(query, start, inf_goal, NULL, points, 8, &count);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "goal has a non-finite", "Inf goal");
    }

    status = navstar_find_path(NULL, start, goal, NULL, points, 8, &count);
    expect_error(status, NAVSTAR_ERROR_NULL_ARGUMENT, "query is NULL", "NULL query");
    status = navstar_find_path(query, NULL, goal, NULL, points, 8, &count);
    expect_error(status, NAVSTAR_ERROR_NULL_ARGUMENT, "start is NULL", "NULL start");
    status = navstar_find_path(query, start, NULL, NULL, points, 8, &count);
    expect_error(status, NAVSTAR_ERROR_NULL_ARGUMENT, "goal is NULL", "NULL goal");
    status = navstar_find_path(query, start, goal, NULL, points, 8, NULL);
    expect_error(status, NAVSTAR_ERROR_NULL_ARGUMENT, "out_count is NULL", "NULL out_count");
    count = 99;
    status = navstar_find_path(query, start, goal, NULL, NULL, 8, &count);
    expect_error(status, NAVSTAR_ERROR_NULL_ARGUMENT, "out_points", "NULL out_points with capacity 8");
    check(count == 0, "*out_count is 0 after NULL out_points (got %u)", (unsigned)count);

    {
        NavstarPathOptions options = navstar_path_options_default();
        const float above[3] = {0.5f, 2.0f, 2.5f};
        const float far_goal[3] = {2.5f, 0, 9.0f};
        options.max_snap_distance = 1.0f;
        status = navstar_find_path(query, above, goal, &options, points, 8, &count);
        expect_error(status, NAVSTAR_ERROR_NOT_ON_MESH, "start point", "start 2 above the mesh, snap distance 1");
        status = navstar_find_path(query, start, far_goal, &options, points, 8, &count);
        expect_error(status, NAVSTAR_ERROR_NOT_ON_MESH, "goal point", "goal 6 beyond the mesh, snap distance 1");
        options.max_snap_distance = 2.5f;
        status = navstar_find_path(query, above, goal, &options, points, 8, &count);
        expect_status(status, NAVSTAR_OK, "start 2 above the mesh, snap distance 2.5");

        options = navstar_path_options_default();
        options.allow_partial = 0;
        count = 99;
        status = navstar_find_path(query, start, island, &options, points, 8, &count);
        expect_error(status, NAVSTAR_ERROR_NO_PATH, "unreachable", "goal on another island, allow_partial = 0");
        check(count == 0, "*out_count is 0 after NO_PATH (got %u)", (unsigned)count);
        status = navstar_find_path(query, start, goal, &options, points, 8, &count);
        expect_status(status, NAVSTAR_OK, "allow_partial = 0 with a reachable goal");
        check(count == 4, "allow_partial = 0 with a reachable goal: 4 points (got %u)", (unsigned)count);

        options = navstar_path_options_default();
        options.struct_size = 3;
        status = navstar_find_path(query, start, goal, &options, points, 8, &count);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "struct_size", "path options struct_size = 3");
        options.struct_size = 4096;
        status = navstar_find_path(query, start, goal, &options, points, 8, &count);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "struct_size", "path options struct_size = 4096");

        options = navstar_path_options_default();
        options.strategy = 9;
        status = navstar_find_path(query, start, goal, &options, points, 8, &count);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "strategy", "strategy = 9");

        options = navstar_path_options_default();
        options.heuristic_weight = -1.0f;
        status = navstar_find_path(query, start, goal, &options, points, 8, &count);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "heuristic_weight", "heuristic_weight = -1");
        options.heuristic_weight = NAN;
        status = navstar_find_path(query, start, goal, &options, points, 8, &count);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "heuristic_weight", "heuristic_weight = NaN");

        options = navstar_path_options_default();
        options.max_snap_distance = -0.5f;
        status = navstar_find_path(query, start, goal, &options, points, 8, &count);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "max_snap_distance", "max_snap_distance = -0.5");
        options.max_snap_distance = NAN;
        status = navstar_find_path(query, start, goal, &options, points, 8, &count);
        expect_error(status, NAVSTAR_ERROR_INVALID_ARGUMENT, "max_snap_distance", "max_snap_distance = NaN");
    }

    /* The query still works after all those errors, and the message is cleared. */
    status = navstar_find_path(query, start, goal, NULL, points, 8, &count);
    expect_status(status, NAVSTAR_OK, "the query works after errors");
    check(count == 4, "the query works after errors: 4 points (got %u)", (unsigned)count);
    expect_no_message("a path after errors");

    navstar_query_free(query);
    navstar_mesh_free(mesh);
}

int main(void) {
    test_version_and_names();
    test_paths();
    test_triangles_and_z_up();
    test_mesh_errors();
    test_query_errors();

    /* Freeing NULL does nothing. */
    navstar_mesh_free(NULL);
    navstar_query_free(NULL);
    check(1, "navstar_mesh_free(NULL) and navstar_query_free(NULL) are no-ops");
    expect_no_message("after freeing NULL");

    printf("%d passed, %d failed\n", passed, failed);
    return failed > 0 ? 1 : 0;
}
