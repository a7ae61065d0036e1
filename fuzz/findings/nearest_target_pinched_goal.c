/* Finding (fuzz target nearest_target_reachable, input nearest_target_pinched_goal.bin):
 * navstar_find_nearest_target answers NAVSTAR_ERROR_NO_PATH for a goal that
 * navstar_find_path reaches, when the goal lies on a vertex shared by polygons of two
 * islands (a pinched vertex). find_path tries each polygon at such a point;
 * find_nearest_target snaps the goal to one polygon, finds it in the other island than
 * the start and skips it. The docs say each goal is snapped like find_path's goal and
 * only unreachable goals are skipped.
 *
 *   cargo build -p navstar-capi && gcc -std=c99 -Iinclude fuzz/findings/nearest_target_pinched_goal.c \
 *       -Ltarget/debug -lnavstar -Wl,-rpath,"$PWD/target/debug" -lm && ./a.out
 *
 * Prints OK then NAVSTAR_ERROR_NO_PATH; both calls should succeed. */
#include <stdio.h>
#include "navstar.h"

int main(void) {
    /* Z up: A = [0,1]x[0,1] and B = [1,2]x[1,2] touch only at (1, 1). */
    const float v[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 2, 1, 0, 2, 2, 0, 1, 2, 0};
    const uint32_t idx[] = {0, 1, 2, 3, 2, 4, 5, 6}, sizes[] = {4, 4};
    NavstarMeshOptions o = navstar_mesh_options_default();
    o.up_axis = NAVSTAR_UP_Z;
    NavstarMesh *mesh;
    NavstarQuery *query;
    if (navstar_mesh_create(v, 7, idx, sizes, 2, &o, &mesh) != NAVSTAR_OK ||
        navstar_query_create(mesh, &query) != NAVSTAR_OK)
        return 1;
    const float start[] = {1.5f, 1.5f, 0}, goal[] = {1, 1, 0};
    float points[30];
    uint32_t count, chosen;
    NavstarStatus a = navstar_find_path(query, start, goal, NULL, points, 10, &count);
    NavstarStatus b = navstar_find_nearest_target(query, start, goal, 1, NULL, points, 10,
                                                  &count, &chosen);
    printf("find_path: %s\nfind_nearest_target: %s\n", navstar_status_name(a),
           navstar_status_name(b));
    navstar_query_free(query);
    navstar_mesh_free(mesh);
    return a == NAVSTAR_OK && b == NAVSTAR_OK ? 0 : 1;
}
