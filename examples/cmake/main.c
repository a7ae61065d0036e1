/* SPDX-License-Identifier: MIT
 *
 * navstar::navstar from a C99 target: the same CMake target serves C programs (it
 * carries navstar.h and, for the static library, the system libraries). Self-checking:
 * the last line is "N passed, M failed". */
#include <navstar.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static int passed = 0;
static int failed = 0;

static void check(int ok, const char *what) {
    printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
    if (ok) {
        passed++;
    } else {
        failed++;
    }
}

int main(void) {
    /* A 2 x 1 strip of two quads sharing the edge x = 1. */
    static const float vertices[] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 1, 1, 0, 1, 2, 0, 1};
    static const uint32_t indices[] = {0, 1, 4, 3, 1, 2, 5, 4};
    static const uint32_t sizes[] = {4, 4};
    const float start[3] = {0.5f, 0.0f, 0.5f};
    const float goal[3] = {1.5f, 0.0f, 0.5f};
    const float bad[3] = {NAN, 0.0f, 0.0f};
    float points[3 * 8];
    uint32_t count = 0;
    NavstarMesh *mesh = NULL;
    NavstarQuery *query = NULL;
    NavstarStatus status;

    printf("navstar %u.%u.%u from C\n", (unsigned)(navstar_version() >> 16), (unsigned)((navstar_version() >> 8) & 0xffu),
           (unsigned)(navstar_version() & 0xffu));
    status = navstar_mesh_create(vertices, 6, indices, sizes, 2, NULL, &mesh);
    check(status == NAVSTAR_OK && mesh != NULL && navstar_mesh_polygon_count(mesh) == 2, "mesh of two quads");
    status = navstar_query_create(mesh, &query);
    check(status == NAVSTAR_OK && query != NULL, "query");
    status = navstar_find_path(query, start, goal, NULL, points, 8, &count);
    check(status == NAVSTAR_OK && count == 2 && points[3] == 1.5f, "straight path: 2 points");
    status = navstar_find_path(query, bad, goal, NULL, points, 8, &count);
    check(status == NAVSTAR_ERROR_INVALID_ARGUMENT && strstr(navstar_last_error_message(), "non-finite") != NULL,
          "NaN start: NAVSTAR_ERROR_INVALID_ARGUMENT with a message");
    navstar_query_free(query);
    navstar_mesh_free(mesh);
    printf("%d passed, %d failed\n", passed, failed);
    return failed > 0 ? 1 : 0;
}
